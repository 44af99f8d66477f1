/**
 * Shard ownership over Kafka for a scheduler such as the monitor. Members of one consumer group
 * share the partitions ("shards") of a compacted config topic. For each shard it owns, a member:
 *  1. fences the shard's previous owner by initialising the shard's own transactional producer
 *     (transactional id `<prefix>skrya-<group>-shard-<n>`: a new owner's initialisation aborts the
 *     old owner's open transaction and makes its later ones fail), or, for a shard it keeps across
 *     a rebalance, waits for its own transaction in flight;
 *  2. reads the shard's partition of the compacted state topic to its end (committed data only);
 *  3. reads the shard's configs from the beginning up to the end they had at assignment;
 * and only then hands the shard to its owner. Every publish for a shard is one transaction of that
 * shard's producer, one at a time, so outputs and the state that records them are written together
 * or not at all, by the shard's current owner only. Offsets are never committed: configs are
 * re-read from the start on every assignment (the topic is compacted, so that is one record a key).
 */
import './kafkajs-replacements.ts';
import { Partitioners, type Consumer, type ConsumerGroupJoinEvent, type Producer } from 'kafkajs';
import { SkryaError, isSkryaError } from './errors.ts';
import type { Kafka } from './kafka.ts';
import type { Logger } from './logger.ts';
import { standardHeaders } from './headers.ts';
import { PRODUCER_CONFIG } from './publishers.ts';
import type { Serde } from './serde.ts';
import { readRecordsToEnd } from './topic-readers.ts';
import { TOPICS, consumerGroup, physicalTopic, shardTransactionalId, type TopicName, type TopicNaming } from '../topics/topics.ts';
import type { z } from 'zod';

type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

export interface ShardHandlers<C extends TopicName, S extends TopicName> {
  /** A new assignment: exactly these shards are this member's now, none of them loaded yet. */
  onAssignment(shards: readonly number[]): void;
  /** A config record of a shard being loaded or already loaded; null is a tombstone (the key was deleted). */
  onConfig(shard: number, key: string, value: ValueOf<C> | null): void;
  /** The shard's configs are read up to where they were at assignment, its state is restored: it may fire. */
  onShardLoaded(shard: number, state: Map<string, ValueOf<S>>): void;
}

export interface ShardOwnersOptions<C extends TopicName, S extends TopicName> {
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
  logger: Logger;
  /** The consumer group, and the stage named on every message produced. */
  service: string;
  configTopic: C;
  stateTopic: S;
  handlers: ShardHandlers<C, S>;
  sessionTimeoutMs?: number;
}

export interface ShardMessage {
  topic: TopicName;
  key: string;
  /** null is a tombstone: the key is deleted from a compacted topic. */
  value: unknown;
}

export interface ShardOwners {
  /**
   * Writes the messages as one transaction of the shard's producer, after any earlier one of that
   * shard. Throws SHARD_FENCED when the shard is no longer this member's (or a newer owner fenced it).
   */
  publish(shard: number, messages: readonly ShardMessage[]): Promise<void>;
  /** Resolves when the first assignment's shards are all loaded. */
  ready: Promise<void>;
  /** Resolves with the error when the consumer has died of a non-retriable error. */
  crashed: Promise<Error>;
  stop(): Promise<void>;
}

/** The shard (partition of a MONITOR_SHARDS-partition topic) a key lands on: murmur2, as every producer here partitions. */
export function shardOfKey(key: string, shards: number): number {
  const partitionMetadata = Array.from({ length: shards }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  return Partitioners.DefaultPartitioner()({ topic: 'shards', partitionMetadata, message: { key, value: null } });
}

/**
 * A shard's state is read from the state partition of the same number, so both topics must have
 * as many partitions (a monitor-state topic made with one partition by an older Skrya must be
 * recreated; see docs/fleet-scale.md).
 */
async function assertSameShards(kafka: Kafka, configTopic: string, stateTopic: string): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicMetadata({ topics: [configTopic, stateTopic] });
    const counts = new Map(topics.map((topic) => [topic.name, topic.partitions.length]));
    if (counts.get(configTopic) !== counts.get(stateTopic)) {
      throw new SkryaError('CONFIG_INVALID', `${configTopic} has ${counts.get(configTopic)} partitions and ${stateTopic} ${counts.get(stateTopic)}: a shard's state must sit in its config's partition number; recreate ${stateTopic} with ${counts.get(configTopic)} partitions`);
    }
  } finally {
    await admin.disconnect();
  }
}

/** Broker errors meaning a newer producer with the same transactional id exists. */
const FENCED_ERRORS = new Set(['INVALID_PRODUCER_EPOCH', 'PRODUCER_FENCED', 'INVALID_PRODUCER_ID_MAPPING', 'TRANSACTIONAL_ID_AUTHORIZATION_FAILED']);

function isFenced(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current instanceof Error; depth += 1) {
    const type = (current as { type?: unknown }).type;
    if (typeof type === 'string' && FENCED_ERRORS.has(type)) return true;
    current = current.cause;
  }
  return false;
}

interface ShardProducer {
  producer: Producer;
  /** The tail of this shard's transactions: each starts when the one before has finished. */
  queue: Promise<void>;
  fenced: boolean;
}

/** What one member's shard ownership holds between Kafka's callbacks. */
interface OwnersContext<C extends TopicName, S extends TopicName> {
  options: ShardOwnersOptions<C, S>;
  configTopic: string;
  logger: Logger;
  consumer: Consumer;
  producers: Map<number, ShardProducer>;
  /** Shards that may be published to: owned in the current generation. */
  owned: Set<number>;
  positions: ConfigPositions;
  generation: number;
  stopping: boolean;
  resolveReady: () => void;
  failLoad: (error: Error) => void;
}

/** Per shard: the next config offset to read, and who waits for it to reach an end. */
interface ConfigPositions {
  advance(shard: number, next: bigint): void;
  /** Resolves once the shard's configs are read up to `end`. */
  readTo(shard: number, end: bigint): Promise<void>;
  /** A new assignment: earlier waiters are dropped, and these shards are read from the start again. */
  restart(shards: readonly number[]): void;
}

function createConfigPositions(): ConfigPositions {
  const positions = new Map<number, bigint>();
  const waiters = new Map<number, { end: bigint; resolve: () => void }>();
  return {
    advance(shard, next) {
      positions.set(shard, next);
      const waiter = waiters.get(shard);
      if (waiter && next >= waiter.end) {
        waiters.delete(shard);
        waiter.resolve();
      }
    },
    readTo(shard, end) {
      if ((positions.get(shard) ?? 0n) >= end) return Promise.resolve();
      return new Promise((resolve) => waiters.set(shard, { end, resolve }));
    },
    restart(shards) {
      waiters.clear();
      for (const shard of shards) positions.set(shard, 0n);
    },
  };
}

function createGroupConsumer(kafka: Kafka, naming: TopicNaming, service: string, sessionTimeout: number): Consumer {
  return kafka.consumer({
    groupId: consumerGroup(naming, service),
    sessionTimeout,
    rebalanceTimeout: 60_000,
    heartbeatInterval: Math.min(3_000, Math.floor(sessionTimeout / 3)),
    // kafkajs heartbeats between fetches: an idle fetch must not wait out a short session (6 s in the fault tests).
    maxWaitTimeInMs: Math.min(5_000, Math.floor(sessionTimeout / 3)),
    allowAutoTopicCreation: false,
    readUncommitted: false,
    maxBytes: 32 * 1024 * 1024,
  });
}

/** Each partition's end offset (the offset the next record will get). */
async function endOffsets(kafka: Kafka, topic: string): Promise<Map<number, bigint>> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return new Map((await admin.fetchTopicOffsets(topic)).map((partition) => [partition.partition, BigInt(partition.high)]));
  } finally {
    await admin.disconnect();
  }
}

async function shardProducer<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, shard: number): Promise<ShardProducer> {
  const existing = context.producers.get(shard);
  if (existing && !existing.fenced) {
    // Kept across a rebalance: the state is read only after our own transaction in flight ends.
    await existing.queue;
    return existing;
  }
  const { kafka, naming, service } = context.options;
  const producer = kafka.producer({ ...PRODUCER_CONFIG, transactionalId: shardTransactionalId(naming, service, shard) });
  await producer.connect();
  // kafkajs registers the transactional id only when the first transaction begins (connect gets a
  // plain idempotent id): begin an empty one now, so the previous owner's open transaction is
  // aborted and its later ones refused before this owner reads the shard's state.
  const fence = await producer.transaction();
  await fence.abort();
  const created: ShardProducer = { producer, queue: Promise.resolve(), fenced: false };
  context.producers.set(shard, created);
  return created;
}

/** Every key's newest committed value in the given partitions of the state topic. */
async function readState<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, shards: readonly number[]): Promise<Map<number, Map<string, ValueOf<S>>>> {
  const { kafka, serde, naming, stateTopic } = context.options;
  const states = new Map(shards.map((shard) => [shard, new Map<string, ValueOf<S>>()]));
  // No idle limit: a broker away for a while is waited out, as kafkajs's retries wait it out.
  for (const { partition, key, value } of await readRecordsToEnd({ kafka, serde, naming, topic: stateTopic, partitions: shards, idleTimeoutMs: null })) {
    if (key === null) continue;
    if (value === null) states.get(partition)!.delete(key);
    else states.get(partition)!.set(key, value);
  }
  return states;
}

/** Fences, restores state and reads configs for an assignment, then hands its shards over (unless a newer assignment came). */
async function loadShards<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, forGeneration: number, shards: readonly number[]): Promise<void> {
  const configEnds = await endOffsets(context.options.kafka, context.configTopic);
  await Promise.all(shards.map((shard) => shardProducer(context, shard)));
  if (forGeneration !== context.generation) return;
  const states = await readState(context, shards);
  await Promise.all(shards.map((shard) => context.positions.readTo(shard, configEnds.get(shard) ?? 0n)));
  if (forGeneration !== context.generation) return;
  for (const shard of shards) {
    context.owned.add(shard);
    context.options.handlers.onShardLoaded(shard, states.get(shard)!);
  }
  context.logger.info({ shards, generation: forGeneration }, 'shards loaded');
  context.resolveReady();
}

/** A new generation: drop the shards no longer ours, re-read the assigned ones from the start, load them. */
function onGroupJoin<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, event: ConsumerGroupJoinEvent): void {
  context.generation += 1;
  const forGeneration = context.generation;
  const { configTopic, consumer, producers, logger } = context;
  const shards = [...(event.payload.memberAssignment[configTopic] ?? [])].sort((a, b) => a - b);
  logger.info({ memberId: event.payload.memberId, shards, generation: forGeneration }, 'joined group');
  context.owned.clear();
  for (const [shard, entry] of producers) {
    if (shards.includes(shard)) continue;
    producers.delete(shard);
    // Let its transaction in flight end (it commits, or fails because a new owner fenced it).
    void entry.queue.finally(() => entry.producer.disconnect()).catch(() => {});
  }
  // Configs are re-read from the start of every assigned partition: the owner rebuilds its schedule from them.
  context.positions.restart(shards);
  for (const shard of shards) consumer.seek({ topic: configTopic, partition: shard, offset: '0' });
  context.options.handlers.onAssignment(shards);
  loadShards(context, forGeneration, shards).catch((error: unknown) => {
    if (context.stopping) return;
    // The broker stayed away through every retry: the process goes down loudly and its
    // supervisor restarts it; the shards are assigned and loaded again, nothing was fired.
    logger.fatal({ err: error, shards }, 'loading the assigned shards failed');
    context.failLoad(error instanceof Error ? error : new Error(String(error)));
  });
}

type EachBatchPayload = Parameters<NonNullable<Parameters<Consumer['run']>[0]>['eachBatch'] & {}>[0];

/** Hands each config record (or tombstone) of a batch to the owner, and moves the shard's read position on. */
async function consumeConfigs<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, { batch, isRunning, isStale, heartbeat }: EachBatchPayload): Promise<void> {
  const { handlers, serde, configTopic } = context.options;
  for (const message of batch.messages) {
    if (!isRunning() || isStale()) return;
    const key = message.key?.toString('utf8');
    if (key !== undefined) {
      if (message.value === null) handlers.onConfig(batch.partition, key, null);
      else {
        try {
          handlers.onConfig(batch.partition, key, await serde.decode(configTopic, message.value));
        } catch (error) {
          // A config that cannot be decoded can never be: the topic keeps its previous config.
          if (!isSkryaError(error) || error.retriable) throw error;
          context.logger.error({ err: error, partition: batch.partition, offset: message.offset, key }, 'config skipped');
        }
      }
    }
    context.positions.advance(batch.partition, BigInt(message.offset) + 1n);
  }
  context.positions.advance(batch.partition, BigInt(batch.lastOffset()) + 1n);
  await heartbeat();
}

/** The messages encoded, grouped by physical topic, as one sendBatch wants them. */
async function encodeByTopic<C extends TopicName, S extends TopicName>(options: ShardOwnersOptions<C, S>, messages: readonly ShardMessage[]) {
  const { serde, naming, service } = options;
  const records = await Promise.all(messages.map(async (message) => ({
    topic: physicalTopic(naming, message.topic),
    message: {
      key: message.key,
      value: message.value === null ? null : await serde.encode(message.topic, message.value as never),
      headers: standardHeaders({ stage: service, naming, serde, topic: message.topic, value: message.value }),
    },
  })));
  const byTopic = new Map<string, Array<(typeof records)[number]['message']>>();
  for (const record of records) {
    const list = byTopic.get(record.topic) ?? [];
    list.push(record.message);
    byTopic.set(record.topic, list);
  }
  return [...byTopic].map(([topic, list]) => ({ topic, messages: list }));
}

async function publishToShard<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>, shard: number, messages: readonly ShardMessage[]): Promise<void> {
  const entry = context.producers.get(shard);
  if (!entry || !context.owned.has(shard) || entry.fenced) throw new SkryaError('SHARD_FENCED', `shard ${shard} is not this member's`);
  const forGeneration = context.generation;
  // Queued at once, before any await: a rebalance that keeps the shard waits for this queue before
  // it reads the shard's state, so a batch fired under the old state is either in that state or not sent.
  const run = entry.queue.then(async () => {
    if (entry.fenced) throw new SkryaError('SHARD_FENCED', `shard ${shard} was fenced by a newer owner`);
    if (forGeneration !== context.generation) throw new SkryaError('SHARD_FENCED', `shard ${shard} was reassigned while this batch waited`);
    const topicMessages = await encodeByTopic(context.options, messages);
    const transaction = await entry.producer.transaction();
    try {
      await transaction.sendBatch({ acks: -1, topicMessages });
      await transaction.commit();
    } catch (error) {
      await transaction.abort().catch(() => {});
      if (!isFenced(error)) throw error;
      entry.fenced = true;
      context.owned.delete(shard);
      throw new SkryaError('SHARD_FENCED', `shard ${shard} was fenced by a newer owner`, { cause: error });
    }
  });
  entry.queue = run.catch(() => {});
  return run;
}

async function stopOwners<C extends TopicName, S extends TopicName>(context: OwnersContext<C, S>): Promise<void> {
  context.stopping = true;
  context.owned.clear();
  await context.consumer.disconnect();
  await Promise.all([...context.producers.values()].map(async (entry) => {
    await entry.queue;
    await entry.producer.disconnect();
  }));
  context.producers.clear();
}

export async function startShardOwners<C extends TopicName, S extends TopicName>(options: ShardOwnersOptions<C, S>): Promise<ShardOwners> {
  const { kafka, naming, service } = options;
  const configTopic = physicalTopic(naming, options.configTopic);
  const logger = options.logger.child({ service, topic: configTopic });
  const consumer = createGroupConsumer(kafka, naming, service, options.sessionTimeoutMs ?? 45_000);
  const { promise: ready, resolve: resolveReady } = Promise.withResolvers<void>();
  const { promise: loadFailed, resolve: failLoad } = Promise.withResolvers<Error>();
  const context: OwnersContext<C, S> = {
    options,
    configTopic,
    logger,
    consumer,
    producers: new Map(),
    owned: new Set(),
    positions: createConfigPositions(),
    generation: 0,
    stopping: false,
    resolveReady,
    failLoad,
  };
  const consumerCrashed = new Promise<Error>((resolve) => {
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart) return;
      logger.fatal({ err: event.payload.error }, 'shard consumer crashed');
      resolve(event.payload.error);
    });
  });
  consumer.on(consumer.events.GROUP_JOIN, (event) => onGroupJoin(context, event));

  await assertSameShards(kafka, configTopic, physicalTopic(naming, options.stateTopic));
  await consumer.connect();
  await consumer.subscribe({ topic: configTopic, fromBeginning: true });
  await consumer.run({ autoCommit: false, eachBatch: (payload) => consumeConfigs(context, payload) });

  return {
    ready,
    crashed: Promise.race([consumerCrashed, loadFailed]),
    publish: (shard, messages) => publishToShard(context, shard, messages),
    stop: () => stopOwners(context),
  };
}

export interface CompactedWriter<T extends TopicName> {
  /** Writes every entry (null is a tombstone: the key is deleted), all acknowledged before it resolves. */
  write(entries: ReadonlyArray<{ key: string; value: ValueOf<T> | null }>): Promise<void>;
  close(): Promise<void>;
}

/** Writes keyed values and tombstones to a compacted topic (the topic configs a shard owner reads). */
export async function createCompactedWriter<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; stage: string; topic: T }): Promise<CompactedWriter<T>> {
  const producer = options.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  const topic = physicalTopic(options.naming, options.topic);
  return {
    async write(entries) {
      for (let start = 0; start < entries.length; start += 1_000) {
        const messages = await Promise.all(entries.slice(start, start + 1_000).map(async ({ key, value }) => ({
          key,
          value: value === null ? null : await options.serde.encode(options.topic, value as never),
          headers: standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic: options.topic, value }),
        })));
        await producer.send({ topic, acks: -1, messages });
      }
    },
    close: () => producer.disconnect(),
  };
}
