/**
 * Per-test-file Kafka context: a unique topic prefix (so topics, subjects and groups never collide),
 * the topics of the table created, a serde registered against the real registry, and helpers to
 * read topics back without sleeping.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import type { Admin } from 'kafkajs';
import { loadConfig, type SkryaConfig } from '../../runtime/config.ts';
import { createLogger, type Logger } from '../../runtime/logger.ts';
import { createKafka, createRegistry, createTopics, namingFrom, type Kafka } from '../../runtime/kafka.ts';
import { createSerde, whileRegistryUnavailable, type Serde } from '../../runtime/serde.ts';
import { TOPIC_NAMES, physicalTopic, type TopicName, type TopicNaming } from '../../topics/topics.ts';
import { topicLayout } from '../../topics/topic-plan.ts';
import type { SchemaRegistry } from '@kafkajs/confluent-schema-registry';

export interface KafkaTestContext {
  config: SkryaConfig;
  naming: TopicNaming;
  kafka: Kafka;
  registry: SchemaRegistry;
  serde: Serde;
  logger: Logger;
  admin: Admin;
  close(): Promise<void>;
}

/**
 * How long a test's pipeline waits for a registry that does not answer, as a service does: on a
 * loaded CI machine (a 3-broker cluster beside the shared stack) one registry request has taken
 * longer than its 10 s timeout, and a test must not fail on the machine's load.
 */
export const TEST_REGISTRY_WAIT_MS = 120_000;

export function testConfig(overrides: Record<string, string> = {}): SkryaConfig {
  return loadConfig({
    ...process.env,
    SKRYA_KAFKA_BROKERS: inject('kafkaBrokers'),
    SKRYA_REGISTRY_URL: inject('registryUrl'),
    SKRYA_LOG_LEVEL: 'warn',
    ...overrides,
  });
}

export async function createKafkaTestContext(label: string, topics: readonly TopicName[] = TOPIC_NAMES): Promise<KafkaTestContext> {
  const prefix = `t.${label}.${randomBytes(4).toString('hex')}.`;
  const config = testConfig({ SKRYA_TOPIC_PREFIX: prefix });
  const logger = createLogger({ level: 'warn', name: `test-${label}` });
  const naming = namingFrom(config);
  const kafka = createKafka(config, logger, `test-${label}`);
  const admin = kafka.admin();
  await admin.connect();
  await createTopics(admin, naming, topicLayout(config), topics);
  const registry = createRegistry(config);
  const serde = await whileRegistryUnavailable(() => createSerde({ registry, registryUrl: config.SKRYA_REGISTRY_URL, naming, topics: TOPIC_NAMES }), TEST_REGISTRY_WAIT_MS, logger);
  return {
    config,
    naming,
    kafka,
    registry,
    serde,
    logger,
    admin,
    async close() {
      await admin.deleteTopics({ topics: topics.map((topic) => physicalTopic(naming, topic)) }).catch(() => {});
      await admin.disconnect();
    },
  };
}

export interface ReadMessage {
  partition: number;
  offset: string;
  key: string | null;
  value: Buffer;
  headers: Record<string, string>;
}

/** Reads a topic from the beginning until `count` messages arrived (or fails after `timeoutMs`). */
export async function readMessages(kafka: Kafka, topic: string, count: number, timeoutMs = 30_000): Promise<ReadMessage[]> {
  const consumer = kafka.consumer({ groupId: `reader-${randomBytes(6).toString('hex')}` });
  const messages: ReadMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`read ${messages.length} of ${count} messages from ${topic} within ${timeoutMs} ms`)), timeoutMs);
      void consumer.run({
        eachMessage: async ({ partition, message }) => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(message.headers ?? {})) if (value !== undefined) headers[name] = String(Array.isArray(value) ? value[0] : value);
          messages.push({ partition, offset: message.offset, key: message.key?.toString('utf8') ?? null, value: message.value ?? Buffer.alloc(0), headers });
          if (messages.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      });
    });
  } finally {
    await consumer.disconnect();
  }
  return messages;
}
