/** The Kafka client and the schema registry client, created from config. Only runtime/ imports kafkajs. */
// Before kafkajs: its read_committed filter, record encoder and batch checksum are replaced as it loads.
import './kafkajs-replacements.ts';
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import kafkajs, { Kafka, logLevel, type Admin, type ITopicConfig, type LogEntry } from 'kafkajs';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { brokerList, type SkryaConfig } from './config.ts';
import { connectionSettings, kafkaSecurityOptions, registryAuthHeaders } from './connection.ts';
import type { Logger } from './logger.ts';
import { REGISTRY_REQUEST_TIMEOUT_MS } from './serde.ts';
import { TOPIC_NAMES, physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';
import { planTopics, type ExistingTopic, type TopicLayout, type TopicPlanStep } from '../topics/topic-plan.ts';

export type { Kafka };

// kafkajs builds these exports in a way Node's CommonJS export detection cannot see: read them off the module.
const { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ConfigResourceTypes, ConfigSource, ResourcePatternTypes } = kafkajs;

const LEVELS: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/**
 * kafkajs logs at ERROR every broker response that carries an error code, before its own retry or
 * rejoin deals with it: a coordinator still loading or moving, a transaction still being aborted
 * (CONCURRENT_TRANSACTIONS while a new shard owner fences the old one), the heartbeats that find a
 * group rebalancing when a member joins or leaves. In a healthy fleet these happen at every start
 * and rebalance; they are not errors. If the retries run out, the call fails and that failure is
 * logged (or crashes the stage) as an error by whoever made it. So responses with an error kafkajs
 * recovers from itself (its table's retriable errors, and REBALANCE_IN_PROGRESS, after which it
 * rejoins and says so at WARN) are logged at INFO, and so is its producer's "Failed to send
 * messages" before it retries one of them (CONCURRENT_TRANSACTIONS when a shard's next
 * transaction starts while the broker still writes the last one's markers); every other kafkajs
 * error stays an ERROR.
 */
const RECOVERED_RESPONSE_ERRORS: ReadonlySet<string> = (() => {
  const { errorCodes } = createRequire(import.meta.url)('kafkajs/src/protocol/error.js') as { errorCodes: Array<{ type: string; message: string; retriable: boolean }> };
  return new Set(errorCodes.filter((code) => code.retriable || code.type === 'REBALANCE_IN_PROGRESS').map((code) => code.message));
})();

/** kafkajs's producer says this before it retries a send that met a retriable error (the error's text follows). */
const SEND_RETRIED = 'Failed to send messages: ';

export function kafkajsLogLevel(level: number, message: string, error: unknown): 'error' | 'warn' | 'info' | 'debug' {
  if (level !== logLevel.ERROR) return LEVELS[level] ?? 'info';
  const recovered = message.startsWith('Response ') ? typeof error === 'string' && RECOVERED_RESPONSE_ERRORS.has(error)
    : message.startsWith(SEND_RETRIED) && RECOVERED_RESPONSE_ERRORS.has(message.slice(SEND_RETRIED.length));
  return recovered ? 'info' : 'error';
}

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

/** `retries` bounds how often a failing request is tried again (10 for services; a diagnosis wants an answer soon). */
export function createKafka(config: SkryaConfig, logger: Logger, clientId = 'skrya', options: { retries?: number } = {}): Kafka {
  quietKafkajsNegativeTimeouts();
  const kafkaLogger = logger.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers: brokerList(config),
    ...kafkaSecurityOptions(connectionSettings(config)),
    // kafkajs's own INFO lines are noise at our INFO level; its warnings and errors are not.
    logLevel: logLevel.WARN,
    logCreator: () => ({ level, log }: LogEntry) => {
      const { message, ...extra } = log;
      kafkaLogger[kafkajsLogLevel(level, message, extra.error)]({ namespace: log.namespace, broker: extra.broker, error: extra.error, groupId: extra.groupId, retryCount: extra.retryCount }, message);
    },
    retry: { initialRetryTime: 300, retries: options.retries ?? 10, maxRetryTime: 10_000 },
  });
}

type RegistryMiddleware = NonNullable<ConstructorParameters<typeof SchemaRegistry>[0]['middlewares']>[number];

/** Adds the configured Authorization header (basic or bearer), if any, and the request timeout to every registry request. */
function registryRequestMiddleware(headers: Record<string, string>): RegistryMiddleware {
  return () => ({
    prepareRequest: (next) => next().then((request) => request.enhance({ headers, timeout: REGISTRY_REQUEST_TIMEOUT_MS })),
  });
}

export function createRegistry(config: SkryaConfig): SchemaRegistry {
  const headers = registryAuthHeaders(connectionSettings(config));
  return new SchemaRegistry({ host: config.SKRYA_REGISTRY_URL, retry: { retries: 3 }, middlewares: [registryRequestMiddleware(headers)] });
}

/** The registry endpoint for the requests Skrya makes itself (compatibility rules): URL and auth headers. */
export function registryEndpoint(config: SkryaConfig): { url: string; headers: Record<string, string> } {
  return { url: config.SKRYA_REGISTRY_URL, headers: registryAuthHeaders(connectionSettings(config)) };
}

export function namingFrom(config: SkryaConfig): TopicNaming {
  return { prefix: config.SKRYA_TOPIC_PREFIX };
}

/** The topics among `topics` that exist, with partitions, replication factor and their topic-level configs. */
export async function readExistingTopics(admin: Admin, topics: readonly string[]): Promise<Map<string, ExistingTopic>> {
  const present = new Set(await admin.listTopics());
  const wanted = topics.filter((topic) => present.has(topic));
  const existing = new Map<string, ExistingTopic>();
  if (wanted.length === 0) return existing;
  const [metadata, described] = await Promise.all([
    admin.fetchTopicMetadata({ topics: wanted }),
    admin.describeConfigs({ includeSynonyms: false, resources: wanted.map((name) => ({ type: ConfigResourceTypes.TOPIC, name })) }),
  ]);
  for (const topic of metadata.topics) {
    const resource = described.resources.find((entry) => entry.resourceName === topic.name);
    // Only what is set on the topic itself: a broker default can change under it.
    const config = Object.fromEntries((resource?.configEntries ?? [])
      .filter((entry) => entry.configSource === ConfigSource.TOPIC_CONFIG)
      .map((entry) => [entry.configName, entry.configValue]));
    const replicas = topic.partitions[0]?.replicas.length ?? 0;
    existing.set(topic.name, { partitions: topic.partitions.length, replicationFactor: replicas, config });
  }
  return existing;
}

/** The plan for the table's topics on this cluster (nothing is changed). */
export async function planTopicsOnCluster(admin: Admin, naming: TopicNaming, layout: TopicLayout, names: readonly TopicName[] = TOPIC_NAMES): Promise<TopicPlanStep[]> {
  const existing = await readExistingTopics(admin, names.map((name) => physicalTopic(naming, name)));
  return planTopics(layout, naming, existing, names);
}

/**
 * Carries out the steps that change nothing already written: creations and config changes, and
 * partition additions only when `addPartitions` says the operator has drained the pipeline.
 * Returns the steps carried out.
 */
export async function applyTopicPlan(admin: Admin, steps: readonly TopicPlanStep[], options: { addPartitions: boolean }): Promise<TopicPlanStep[]> {
  const creations = steps.filter((step) => step.action === 'create');
  if (creations.length > 0) {
    await createTopicsServed(admin, creations.map((step): ITopicConfig => ({
      topic: step.topic,
      numPartitions: step.partitions,
      replicationFactor: step.replicationFactor,
      configEntries: Object.entries(step.config).map(([name, value]) => ({ name, value })),
    })));
  }
  const alterations = steps.filter((step) => step.action === 'alter-config');
  if (alterations.length > 0) {
    // AlterConfigs replaces a topic's whole config (kafkajs has no incremental variant), so the step
    // carries every topic-level config to keep: the operator's own ones and Skrya's.
    await admin.alterConfigs({
      validateOnly: false,
      resources: alterations.map((step) => ({
        type: ConfigResourceTypes.TOPIC,
        name: step.topic,
        configEntries: Object.entries(step.config).map(([name, value]) => ({ name, value })),
      })),
    });
  }
  const additions = options.addPartitions ? steps.filter((step) => step.action === 'add-partitions') : [];
  if (additions.length > 0) {
    await admin.createPartitions({ validateOnly: false, topicPartitions: additions.map((step) => ({ topic: step.topic, count: step.to })) });
  }
  return [...creations, ...alterations, ...additions];
}

/** The answers a broker gives for a topic it has created but not yet taken on. */
const NOT_YET_SERVED: ReadonlySet<string> = new Set(['UNKNOWN_TOPIC_OR_PARTITION', 'LEADER_NOT_AVAILABLE', 'NOT_LEADER_FOR_PARTITION']);

/** Whether every partition of `names` has a leader that answers for it. */
async function topicsServed(admin: Admin, names: string[]): Promise<boolean> {
  const metadata = await admin.fetchTopicMetadata({ topics: names });
  if (!metadata.topics.every((topic) => topic.partitions.length > 0 && topic.partitions.every((partition) => partition.leader >= 0))) return false;
  // A leader the metadata names may not serve its partition yet: ListOffsets answers once it does.
  for (const name of names) await admin.fetchTopicOffsets(name);
  return true;
}

/**
 * Creates topics and returns once every partition's leader serves it. kafkajs's own
 * `waitForLeaders` gives up on UNKNOWN_TOPIC_OR_PARTITION, which a KRaft broker answers until it
 * has applied the new topic's metadata record, and a leader named in the metadata can still answer
 * NOT_LEADER_FOR_PARTITION for a moment, which kafkajs's offset reads do not retry: on a loaded
 * machine, or a broker just started, that is long enough to fail the creation or the first read.
 * The deadline guards against a broker that never serves the topic.
 */
export async function createTopicsServed(admin: Admin, topics: ITopicConfig[], timeoutMs = 60_000): Promise<void> {
  await admin.createTopics({ topics, waitForLeaders: false });
  const names = topics.map((topic) => topic.topic);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await topicsServed(admin, names)) return;
    } catch (error) {
      if (!NOT_YET_SERVED.has((error as { type?: string }).type ?? '')) throw error;
      if (Date.now() > deadline) throw error;
    }
    if (Date.now() > deadline) throw new Error(`topics not served by a leader after ${timeoutMs} ms: ${names.join(', ')}`);
    await sleep(100);
  }
}

/** Creates every topic of the table that does not exist yet; returns the physical names it created. */
export async function createTopics(admin: Admin, naming: TopicNaming, layout: TopicLayout, names: readonly TopicName[] = TOPIC_NAMES): Promise<string[]> {
  const existing = new Set(await admin.listTopics());
  const missing = names.filter((name) => !existing.has(physicalTopic(naming, name)));
  if (missing.length === 0) return [];
  const created = await applyTopicPlan(admin, planTopics(layout, naming, new Map(), missing), { addPartitions: false });
  return created.map((step) => step.topic);
}

/**
 * Lets `principal` (e.g. `User:skrya`) do everything on every topic, consumer group and
 * transactional id: what the local cluster grants the services' user. A real cluster grants less,
 * per prefix; `skrya doctor` shows what is missing.
 */
export async function allowEverything(admin: Admin, principal: string): Promise<void> {
  await admin.createAcls({
    acl: [AclResourceTypes.TOPIC, AclResourceTypes.GROUP, AclResourceTypes.TRANSACTIONAL_ID].map((resourceType) => ({
      resourceType,
      resourceName: '*',
      resourcePatternType: ResourcePatternTypes.LITERAL,
      principal,
      host: '*',
      operation: AclOperationTypes.ALL,
      permissionType: AclPermissionTypes.ALLOW,
    })),
  });
}
