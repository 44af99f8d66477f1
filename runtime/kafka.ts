/** The Kafka client and the schema registry client, created from config. Only runtime/ imports kafkajs. */
import { Kafka, logLevel, type Admin, type ITopicConfig, type LogEntry } from 'kafkajs';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { brokerList, type SkryaConfig } from './config.ts';
import type { Logger } from './logger.ts';
import { TOPICS, TOPIC_NAMES, physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';

export type { Kafka };

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * kafkajs 2.2.4 schedules "check now" as a negative delay (tulios/kafkajs#1751), which Node 24
 * reports as a TimeoutNegativeWarning on every client; Node treats it as 1 ms, which is what
 * kafkajs means. Only that warning is kept off stderr, and only once a Kafka client exists.
 */
function quietKafkajsNegativeTimeouts(): void {
  if ((process.emitWarning as { skrya?: true }).skrya) return;
  const emitWarning = process.emitWarning.bind(process);
  const filtered = ((warning: string | Error, ...rest: unknown[]) => {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    if (type === 'TimeoutNegativeWarning') return;
    (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
  }) as typeof process.emitWarning & { skrya?: true };
  filtered.skrya = true;
  process.emitWarning = filtered;
}

export function createKafka(config: SkryaConfig, logger: Logger, clientId = 'skrya'): Kafka {
  quietKafkajsNegativeTimeouts();
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: brokerList(config),
    // kafkajs's own INFO lines are noise at our INFO level; its warnings and errors are not.
    logLevel: logLevel.WARN,
    logCreator: () => ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      kafkaLogger[LEVELS[level] ?? 'info']({ namespace: log.namespace, broker: extra.broker }, message);
    },
    retry: { initialRetryTime: 300, retries: 10, maxRetryTime: 10_000 },
  });
}

export function createRegistry(config: SkryaConfig): SchemaRegistry {
  return new SchemaRegistry({ host: config.SKRYA_REGISTRY_URL, retry: { retries: 3 } });
}

export function namingFrom(config: SkryaConfig): TopicNaming {
  return { prefix: config.SKRYA_TOPIC_PREFIX };
}

/** Creates every topic of the table that does not exist yet; returns the physical names it created. */
export async function createTopics(admin: Admin, naming: TopicNaming, names: readonly TopicName[] = TOPIC_NAMES): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing: ITopicConfig[] = names
    .filter((name) => !existing.has(physicalTopic(naming, name)))
    .map((name) => ({
      topic: physicalTopic(naming, name),
      numPartitions: TOPICS[name].partitions,
      replicationFactor: 1,
      configEntries: Object.entries(TOPICS[name].config).map(([configName, value]) => ({ name: configName, value })),
    }));
  if (missing.length === 0) return [];
  await admin.createTopics({ topics: missing, waitForLeaders: true });
  return missing.map((topic) => topic.topic);
}
