/**
 * The service runner: the only code that consumes from Kafka. For each input it decodes (Avro via
 * the registry), validates (zod), calls the service's pure handler, produces every outcome, waits
 * for the broker's acknowledgements and only then commits. Permanent failures go to dead-letters
 * with a reason code; retriable ones (registry or broker down) are retried in place with backoff.
 */
import { randomUUID } from 'node:crypto';
import { Partitioners, type Consumer, type EachBatchPayload, type IHeaders, type KafkaMessage, type Producer, type ProducerConfig } from 'kafkajs';
import { isSkryaError } from './errors.ts';
import type { Logger } from './logger.ts';
import type { Serde } from './serde.ts';
import type { Kafka } from './kafka.ts';
import { createDeferredWork } from './deferred-work.ts';
import { createOffsetTracker, type PlannedCommit } from './offset-tracker.ts';
import { TOPICS, consumerGroup, physicalTopic, valueSubject, type TopicName, type TopicNaming } from '../topics/topics.ts';
import type { z } from 'zod';

export const HEADERS = {
  tenant: 'skrya-tenant',
  topicId: 'skrya-topic-id',
  runId: 'skrya-run-id',
  traceId: 'skrya-trace-id',
  subject: 'skrya-schema-subject',
  schemaId: 'skrya-schema-id',
  stage: 'skrya-stage',
  reasonCode: 'skrya-reason-code',
} as const;

type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

/** What a handler decides for one input. An empty list is a decision too. */
export type Outcome =
  | { kind: 'emit'; topic: TopicName; key: string; value: unknown; headers?: Record<string, string> }
  | { kind: 'drop'; reason: string }
  | { kind: 'deadLetter'; code: string; message: string };

/**
 * Work on an input that finishes after `handle` returns (a retrieval run). The runner holds the
 * input's offset until the completion's outcomes are acknowledged. A completion of null was
 * abandoned (the service is stopping): the input stays held and is redone after a restart. A
 * rejected completion is a bug: the service crashes.
 */
export interface Later {
  kind: 'later';
  completion: Promise<Outcome[] | null>;
}

export const emit = <T extends TopicName>(topic: T, key: string, value: ValueOf<T>, headers?: Record<string, string>): Outcome => ({ kind: 'emit', topic, key, value, ...(headers ? { headers } : {}) });
export const drop = (reason: string): Outcome => ({ kind: 'drop', reason });
export const deadLetter = (code: string, message: string): Outcome => ({ kind: 'deadLetter', code, message });
export const later = (completion: Promise<Outcome[] | null>): Later => ({ kind: 'later', completion });

export interface IncomingMessage<T> {
  topic: TopicName;
  partition: number;
  offset: string;
  key: string | null;
  value: T;
  headers: Record<string, string>;
  timestamp: string;
}

export interface HandlerContext {
  /** Long handlers (provider calls) call this so the group does not evict the consumer. */
  heartbeat: () => Promise<void>;
  signal: AbortSignal;
}

/** A stage's handler; only a stage whose work finishes later (the retriever) returns `later`. */
export interface Handler<T extends TopicName, Result extends Outcome | Later = Outcome> {
  input: T;
  handle(message: IncomingMessage<ValueOf<T>>, context: HandlerContext): Promise<Result[]> | Result[];
  /**
   * Stateful stages (the collector) keep inputs in memory until a run closes: the runner never
   * commits past the lowest offset such a handler still holds, so a crash re-reads them.
   */
  heldFrom?(partition: number): string | null;
  /** Periodic work such as closing runs whose end marker never came. */
  tick?(now: Date): Promise<Outcome[]> | Outcome[];
  /** A new partition assignment: held state will be re-read from the committed offsets. */
  onAssignment?(): void;
  /**
   * Stored with each commit as its Kafka commit metadata (at most COMMIT_NOTE_MAX_BYTES): what the
   * handler already finished past the committed offset (runs it closed while an earlier one is
   * still held), so the input re-read after a restart is not worked on twice.
   */
  commitNote?(partition: number, offset: string): string | null;
  /** The note committed with a partition's offset, handed back before its input is re-read. */
  restoreCommitNote?(partition: number, note: string): void;
}

/** Kafka refuses commit metadata above offset.metadata.max.bytes (4,096 by default). */
export const COMMIT_NOTE_MAX_BYTES = 4_000;

export interface RunnerOptions<T extends TopicName> {
  service: string;
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
  logger: Logger;
  handler: Handler<T, Outcome | Later>;
  /** Inputs larger than this are dead-lettered as OVERSIZED without decoding. */
  maxInputBytes?: number;
  tickIntervalMs?: number;
  fromBeginning?: boolean;
  /** The consumer group session timeout; heartbeats go at a third of it (at most every 3 s). */
  sessionTimeoutMs?: number;
  /** Observers for metrics and tests. */
  onOutcome?: (service: string, outcome: Outcome['kind'] | 'deadLetter', code?: string) => void;
}

export interface RunningService {
  service: string;
  stop(): Promise<void>;
  /** Resolves once the consumer has joined its group and received an assignment. */
  ready: Promise<void>;
  /**
   * Resolves with the error when the consumer has died of a non-retriable error (a bug in a
   * handler): the owner must crash loudly. The uncommitted input is re-read after a restart.
   */
  crashed: Promise<Error>;
}

/**
 * Idempotent, ordered, and patient: while the broker is away sends are retried without limit,
 * so a stage waits for the broker instead of failing the input it is working on.
 */
export const PRODUCER_CONFIG: ProducerConfig = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  createPartitioner: Partitioners.DefaultPartitioner,
  retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 5_000 },
};

interface ProducedRecord {
  topic: string;
  message: { key: string | Buffer | null; value: Buffer; headers: Record<string, string> };
}

const DEFAULT_MAX_INPUT_BYTES = 15 * 1024 * 1024;
const FLUSH_EVERY = 500;

function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) record[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return record;
}

function runFields(value: unknown): { tenant?: string; topicId?: string; runId?: string } {
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  return {
    ...(typeof record.tenant === 'string' ? { tenant: record.tenant } : {}),
    ...(typeof record.topic_id === 'string' ? { topicId: record.topic_id } : {}),
    ...(typeof record.run_id === 'string' ? { runId: record.run_id } : {}),
  };
}

/** Headers on every message: tenant, topic id, run id, trace id, schema subject and id, producing stage. */
export function standardHeaders(options: { stage: string; naming: TopicNaming; serde: Serde; topic: TopicName; value: unknown; traceId?: string | undefined }): Record<string, string> {
  const fields = runFields(options.value);
  return {
    [HEADERS.traceId]: options.traceId ?? randomUUID(),
    [HEADERS.stage]: options.stage,
    [HEADERS.subject]: valueSubject(options.naming, options.topic),
    [HEADERS.schemaId]: String(options.serde.schemaId(options.topic)),
    ...(fields.tenant ? { [HEADERS.tenant]: fields.tenant } : {}),
    ...(fields.topicId ? { [HEADERS.topicId]: fields.topicId } : {}),
    ...(fields.runId ? { [HEADERS.runId]: fields.runId } : {}),
  };
}

/** Group-protocol errors after which kafkajs re-joins the group, when they are the root cause of `error`. */
const LOST_MEMBERSHIP = new Set(['UNKNOWN_MEMBER_ID', 'ILLEGAL_GENERATION', 'REBALANCE_IN_PROGRESS', 'NOT_COORDINATOR_FOR_GROUP']);

function lostMembershipCause(error: unknown): Error | null {
  let current: unknown = error;
  for (let depth = 0; depth < 10 && current instanceof Error; depth += 1) {
    const type = (current as { type?: unknown }).type;
    if (typeof type === 'string' && LOST_MEMBERSHIP.has(type)) return current;
    current = current.cause;
  }
  return null;
}

async function retryWhileRetriable<R>(work: () => Promise<R>, options: { isRunning: () => boolean; heartbeat: () => Promise<void>; logger: Logger; what: string }): Promise<R> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!isSkryaError(error) || !error.retriable || !options.isRunning()) throw error;
      const delay = Math.min(5_000, 200 * 2 ** Math.min(attempt, 5));
      options.logger.warn({ code: error.code, attempt, delayMs: delay }, `${options.what} failed, retrying`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await options.heartbeat();
    }
  }
}

export async function startService<T extends TopicName>(options: RunnerOptions<T>): Promise<RunningService> {
  const { service, kafka, serde, naming, handler } = options;
  const inputTopic = physicalTopic(naming, handler.input);
  const logger = options.logger.child({ service, topic: inputTopic });
  const maxInputBytes = options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const abort = new AbortController();
  const sessionTimeout = options.sessionTimeoutMs ?? 45_000;

  const producer: Producer = kafka.producer(PRODUCER_CONFIG);
  const consumer: Consumer = kafka.consumer({
    groupId: consumerGroup(naming, service),
    sessionTimeout,
    rebalanceTimeout: 60_000,
    heartbeatInterval: Math.min(3_000, Math.floor(sessionTimeout / 3)),
    allowAutoTopicCreation: false,
    maxBytes: 32 * 1024 * 1024,
    maxBytesPerPartition: 16 * 1024 * 1024,
  });

  const { promise: ready, resolve: resolveReady } = Promise.withResolvers<void>();
  const crashed = new Promise<Error>((resolve) => {
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart) return;
      logger.fatal({ err: event.payload.error }, 'consumer crashed');
      resolve(event.payload.error);
    });
  });
  // A tick may release held input (a collector closing a timed-out run) before its outputs are
  // acknowledged; until they are, the tracker is paused, or a crash would lose that input.
  let undeliveredTick: Array<Extract<Outcome, { kind: 'emit' }>> = [];
  const { promise: deferredCrashed, resolve: crashDeferred } = Promise.withResolvers<Error>();
  const deferred = createDeferredWork<{ message: KafkaMessage; inbound: Record<string, string> }, Outcome[]>({
    deliver: async (completed) => {
      const records: ProducedRecord[] = [];
      for (const { partition, input, result } of completed) records.push(...(await recordsOf(result, input.message, partition, input.inbound)));
      await flush(records);
    },
    afterDelivery: async () => {
      for (const planned of offsets.planAll()) {
        // Best effort: the partition's next batch commits anyway.
        await commit(planned).catch((error: unknown) => logger.warn({ err: error, partition: planned.partition }, 'commit after finished work failed'));
      }
    },
    crash: (error) => {
      logger.fatal({ err: error }, 'work finishing after its input failed');
      crashDeferred(error);
    },
    logger,
  });
  const offsets = createOffsetTracker({
    heldFrom: (partition) => {
      const [windows, later] = [handler.heldFrom?.(partition) ?? null, deferred.heldFrom(partition)];
      return windows === null ? later : later === null || BigInt(windows) < BigInt(later) ? windows : later;
    },
    noteAt: (partition, offset) => handler.commitNote?.(partition, offset) ?? null,
  });

  // Input is handled only once the notes committed with the new assignment's offsets are back.
  let notesRestored: Promise<void> = Promise.resolve();
  consumer.on(consumer.events.GROUP_JOIN, (event) => {
    logger.info({ memberId: event.payload.memberId, assignment: event.payload.memberAssignment }, 'joined group');
    offsets.reset();
    deferred.reset();
    handler.onAssignment?.();
    if (handler.restoreCommitNote) notesRestored = restoreCommitNotes(event.payload.memberAssignment[inputTopic] ?? []);
    resolveReady();
  });

  /** Patient like the producer: while the broker is away the notes are asked for again. */
  async function restoreCommitNotes(partitions: readonly number[]): Promise<void> {
    for (let attempt = 1; !abort.signal.aborted; attempt++) {
      const admin = kafka.admin();
      try {
        await admin.connect();
        const [offsets] = await admin.fetchOffsets({ groupId: consumerGroup(naming, service), topics: [inputTopic] });
        for (const { partition, metadata } of offsets?.partitions ?? []) {
          if (metadata && partitions.includes(partition)) handler.restoreCommitNote!(partition, metadata);
        }
        return;
      } catch (error) {
        logger.warn({ err: error, attempt }, 'reading the committed notes failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 300 * attempt)));
      } finally {
        await admin.disconnect().catch(() => {});
      }
    }
  }

  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: inputTopic, fromBeginning: options.fromBeginning ?? true });

  async function toRecord(outcome: Extract<Outcome, { kind: 'emit' }>, inbound: Record<string, string>): Promise<ProducedRecord> {
    const value = await serde.encode(outcome.topic, outcome.value as never);
    const headers = {
      ...standardHeaders({ stage: service, naming, serde, topic: outcome.topic, value: outcome.value, traceId: inbound[HEADERS.traceId] }),
      ...outcome.headers,
    };
    return { topic: physicalTopic(naming, outcome.topic), message: { key: outcome.key, value, headers } };
  }

  async function deadLetterRecord(message: KafkaMessage, partition: number, code: string, errorMessage: string): Promise<ProducedRecord> {
    const inbound = headersToRecord(message.headers);
    const tenantHeader = inbound[HEADERS.tenant];
    const value = await serde.encode('dead-letters', {
      source_topic: inputTopic,
      source_partition: partition,
      source_offset: message.offset,
      original_key: message.key ?? null,
      original_value: message.value ?? null,
      original_headers_json: JSON.stringify(inbound),
      stage: service,
      reason_code: code,
      error_message: errorMessage.slice(0, 4_000),
      failed_at: new Date().toISOString(),
      tenant: tenantHeader && /^[a-z0-9][a-z0-9-]{0,62}$/.test(tenantHeader) ? tenantHeader : null,
    });
    options.onOutcome?.(service, 'deadLetter', code);
    logger.warn({ partition, offset: message.offset, code }, 'dead-lettered');
    return {
      topic: physicalTopic(naming, 'dead-letters'),
      message: { key: message.key ?? null, value, headers: { [HEADERS.stage]: service, [HEADERS.reasonCode]: code, ...(tenantHeader ? { [HEADERS.tenant]: tenantHeader } : {}) } },
    };
  }


  /** The records an input's outcomes produce; drops are only counted and logged. */
  async function recordsOf(outcomes: readonly Outcome[], message: KafkaMessage, partition: number, inbound: Record<string, string>): Promise<ProducedRecord[]> {
    const records: ProducedRecord[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'emit') records.push(await toRecord(outcome, inbound));
      else if (outcome.kind === 'deadLetter') records.push(await deadLetterRecord(message, partition, outcome.code, outcome.message));
      else {
        options.onOutcome?.(service, 'drop');
        logger.debug({ partition, offset: message.offset, reason: outcome.reason }, 'dropped');
      }
    }
    for (const record of records) if (record.topic !== physicalTopic(naming, 'dead-letters')) options.onOutcome?.(service, 'emit');
    return records;
  }

  /** Decode, validate and handle one message; permanent failures become a dead-letter record. */
  async function process(message: KafkaMessage, partition: number, context: HandlerContext & { isRunning: () => boolean }): Promise<ProducedRecord[]> {
    if (message.value === null) return [await deadLetterRecord(message, partition, 'UNDECODABLE', 'empty (tombstone) value')];
    if (message.value.length > maxInputBytes) return [await deadLetterRecord(message, partition, 'OVERSIZED', `value of ${message.value.length} bytes exceeds ${maxInputBytes}`)];
    const inbound = headersToRecord(message.headers);
    try {
      const value = await retryWhileRetriable(() => serde.decode(handler.input, message.value as Buffer), { ...context, logger, what: 'decode' });
      const incoming: IncomingMessage<ValueOf<T>> = {
        topic: handler.input,
        partition,
        offset: message.offset,
        key: message.key?.toString('utf8') ?? null,
        value: value as ValueOf<T>,
        headers: inbound,
        timestamp: message.timestamp,
      };
      const outcomes = await retryWhileRetriable(async () => handler.handle(incoming, context), { ...context, logger, what: 'handle' });
      const now: Outcome[] = [];
      for (const outcome of outcomes) {
        if (outcome.kind === 'later') deferred.track(partition, message.offset, { message, inbound }, outcome.completion);
        else now.push(outcome);
      }
      return await recordsOf(now, message, partition, inbound);
    } catch (error) {
      // Permanent: the message can never succeed, so it must not block the partition.
      if (isSkryaError(error) && !error.retriable) return [await deadLetterRecord(message, partition, error.code, error.message)];
      throw error;
    }
  }

  async function flush(records: ProducedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const byTopic = new Map<string, ProducedRecord['message'][]>();
    for (const record of records) {
      const list = byTopic.get(record.topic) ?? [];
      list.push(record.message);
      byTopic.set(record.topic, list);
    }
    await producer.sendBatch({ acks: -1, topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })) });
  }

  async function commit(planned: PlannedCommit | null): Promise<void> {
    if (planned === null) return;
    try {
      await consumer.commitOffsets([{ topic: inputTopic, partition: planned.partition, offset: planned.offset, metadata: planned.note }]);
      offsets.committed(planned);
    } catch (error) {
      // The group has moved on without this member (its session expired during an outage): the
      // partition may be someone else's now. kafkajs re-joins on such an error, but from a commit it
      // arrives wrapped as non-retriable and kafkajs crashes the consumer instead. Unwrapped, the
      // member re-joins; what it did not commit is read again, and its outputs are idempotent.
      throw lostMembershipCause(error) ?? error;
    }
  }

  async function eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    await notesRestored;
    const context = { heartbeat, isRunning: () => isRunning() && !abort.signal.aborted, signal: abort.signal };
    let pending: ProducedRecord[] = [];
    let lastProcessed: string | null = null;
    const flushAndCommit = async () => {
      await flush(pending);
      pending = [];
      if (lastProcessed !== null) {
        offsets.delivered(batch.partition, (BigInt(lastProcessed) + 1n).toString());
        await commit(offsets.plan(batch.partition));
      }
      await heartbeat();
    };
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) break;
      pending.push(...(await process(message, batch.partition, context)));
      resolveOffset(message.offset);
      lastProcessed = message.offset;
      if (pending.length >= FLUSH_EVERY) await flushAndCommit();
    }
    await flushAndCommit();
  }

  await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 3, eachBatch });

  const { promise: tickCrashed, resolve: resolveTickCrash } = Promise.withResolvers<Error>();

  /**
   * Periodic work. Its outputs stay queued until the broker acknowledges them (a failed send is
   * retried on the next tick), and only then are the offsets it released committed, with any
   * commit a batch skipped meanwhile: a closed run is committed without waiting for new input.
   * An output that can never be encoded is a bug: the service crashes, and the uncommitted input
   * is re-read after the restart.
   */
  async function runTick(): Promise<void> {
    offsets.setPaused(true);
    try {
      for (const outcome of await handler.tick!(new Date())) if (outcome.kind === 'emit') undeliveredTick.push(outcome);
      if (undeliveredTick.length > 0) {
        const records: ProducedRecord[] = [];
        for (const outcome of undeliveredTick) records.push(await toRecord(outcome, {}));
        await flush(records);
        for (let sent = 0; sent < records.length; sent++) options.onOutcome?.(service, 'emit');
        undeliveredTick = [];
      }
    } catch (error) {
      if (isSkryaError(error) && !error.retriable) {
        logger.fatal({ err: error }, 'periodic work produced an output that cannot be written');
        if (timer) clearInterval(timer);
        resolveTickCrash(error);
        return;
      }
      logger.error({ err: error, undelivered: undeliveredTick.length }, 'periodic work failed; its outputs are sent again on the next tick');
      return;
    } finally {
      offsets.setPaused(undeliveredTick.length > 0);
    }
    // Unchanged offsets are not planned again, so this costs nothing when nothing moved.
    for (const planned of offsets.planAll()) {
      // Best effort: the partition's next batch commits anyway.
      await commit(planned).catch((error: unknown) => logger.warn({ err: error, partition: planned.partition }, 'commit after periodic work failed'));
    }
  }

  let ticking = false;
  const timer = handler.tick
    ? setInterval(() => {
        if (ticking) return;
        ticking = true;
        void runTick().finally(() => {
          ticking = false;
        });
      }, options.tickIntervalMs ?? 1_000)
    : null;

  logger.info('service started');
  return {
    service,
    ready,
    crashed: Promise.race([crashed, tickCrashed, deferredCrashed]),
    async stop() {
      abort.abort();
      deferred.stop();
      if (timer) clearInterval(timer);
      // disconnect() lets the in-flight batch finish (it flushes and commits) before leaving the group.
      await consumer.disconnect();
      await producer.disconnect();
      logger.info('service stopped');
    },
  };
}

/** Produces messages outside a consumer (the monitor's schedule, `skrya request`, `skrya ingest`), awaiting acks. */
export interface Publisher {
  publish<T extends TopicName>(topic: T, key: string, value: ValueOf<T>, headers?: Record<string, string>): Promise<void>;
  close(): Promise<void>;
}

export async function createPublisher(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; stage: string }): Promise<Publisher> {
  const producer = options.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  return {
    async publish(topic, key, value, headers) {
      const encoded = await options.serde.encode(topic, value);
      await producer.send({
        topic: physicalTopic(options.naming, topic),
        acks: -1,
        messages: [{ key, value: encoded, headers: { ...standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic, value }), ...headers } }],
      });
    },
    close: () => producer.disconnect(),
  };
}

/**
 * Produces several messages as one Kafka transaction: all become visible together or none do.
 * One transactional id per role, so a second instance fences a stale first one (zombie fencing).
 */
export interface TransactionalPublisher {
  publishAll(messages: ReadonlyArray<{ topic: TopicName; key: string; value: unknown }>): Promise<void>;
  close(): Promise<void>;
}

export async function createTransactionalPublisher(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; stage: string; transactionalId: string }): Promise<TransactionalPublisher> {
  const producer = options.kafka.producer({ ...PRODUCER_CONFIG, transactionalId: `${options.naming.prefix}${options.transactionalId}` });
  await producer.connect();
  return {
    async publishAll(messages) {
      const encoded = await Promise.all(messages.map(async (message) => ({
        topic: physicalTopic(options.naming, message.topic),
        messages: [{
          key: message.key,
          value: await options.serde.encode(message.topic, message.value as never),
          headers: standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic: message.topic, value: message.value }),
        }],
      })));
      const transaction = await producer.transaction();
      try {
        await transaction.sendBatch({ acks: -1, topicMessages: encoded });
        await transaction.commit();
      } catch (error) {
        await transaction.abort().catch(() => {});
        throw error;
      }
    },
    close: () => producer.disconnect(),
  };
}
