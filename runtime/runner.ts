/**
 * The service runner: the only code that consumes from Kafka. For each input it decodes (Avro via
 * the registry), validates (zod), calls the stage's handler (handler.ts), produces every outcome,
 * waits for the broker's acknowledgements and only then commits. Permanent failures go to
 * dead-letters with a reason code; retriable ones (registry or broker down) are retried in place
 * with backoff. What may be committed is the offset tracker's decision (offset-tracker.ts).
 */
import type { Consumer, EachBatchPayload, KafkaMessage, Producer } from 'kafkajs';
import { createDeferredWork, type DeferredWork } from './deferred-work.ts';
import { isSkryaError } from './errors.ts';
import type { Handler, HandlerContext, IncomingMessage, Later, Outcome, ValueOf } from './handler.ts';
import { headersToRecord } from './headers.ts';
import type { Kafka } from './kafka.ts';
import type { Logger } from './logger.ts';
import { createOffsetTracker, type OffsetTracker, type PlannedCommit } from './offset-tracker.ts';
import { createOutbound, sendRecords, type OutcomeObserver, type Outbound, type ProducedRecord } from './outbound.ts';
import { PRODUCER_CONFIG } from './publishers.ts';
import type { Serde } from './serde.ts';
import { startTickLoop } from './tick-loop.ts';
import { consumerGroup, physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';

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
  onOutcome?: OutcomeObserver;
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

const DEFAULT_MAX_INPUT_BYTES = 15 * 1024 * 1024;
const FLUSH_EVERY = 500;
/** Inputs of a batch decoded and handed to `Handler.prepare` ahead of the one being handled. */
const PREPARE_AHEAD = 8;

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
      options.logger.warn({ code: error.code, reason: error.message, attempt, delayMs: delay }, `${options.what} failed, retrying`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      await options.heartbeat();
    }
  }
}

function createGroupConsumer(kafka: Kafka, groupId: string, sessionTimeout: number): Consumer {
  return kafka.consumer({
    groupId,
    sessionTimeout,
    rebalanceTimeout: 60_000,
    heartbeatInterval: Math.min(3_000, Math.floor(sessionTimeout / 3)),
    allowAutoTopicCreation: false,
    maxBytes: 32 * 1024 * 1024,
    maxBytesPerPartition: 16 * 1024 * 1024,
  });
}

/** Resolves with the error of a crash kafkajs will not restart from. */
function crashOf(consumer: Consumer, logger: Logger): Promise<Error> {
  return new Promise<Error>((resolve) => {
    consumer.on(consumer.events.CRASH, (event) => {
      if (event.payload.restart) return;
      logger.fatal({ err: event.payload.error }, 'consumer crashed');
      resolve(event.payload.error);
    });
  });
}

/** Hands a windowed handler the notes committed with its partitions' offsets; patient while the broker is away. */
async function restoreCommitNotes(options: { kafka: Kafka; groupId: string; inputTopic: string; partitions: readonly number[]; restore: (partition: number, note: string) => void; signal: AbortSignal; logger: Logger }): Promise<void> {
  for (let attempt = 1; !options.signal.aborted; attempt++) {
    const admin = options.kafka.admin();
    try {
      await admin.connect();
      // A new admin knows no brokers until it reads metadata: fetchOffsets would ask for the group
      // coordinator first, find none, and wait kafkajs's retry delay (300 ms or more) on every join.
      await admin.fetchTopicMetadata({ topics: [options.inputTopic] });
      const [offsets] = await admin.fetchOffsets({ groupId: options.groupId, topics: [options.inputTopic] });
      for (const { partition, metadata } of offsets?.partitions ?? []) {
        if (metadata && options.partitions.includes(partition)) options.restore(partition, metadata);
      }
      return;
    } catch (error) {
      options.logger.warn({ err: error, attempt }, 'reading the committed notes failed; trying again');
      await new Promise((resolve) => setTimeout(resolve, Math.min(5_000, 300 * attempt)));
    } finally {
      await admin.disconnect().catch(() => {});
    }
  }
}

type DeferredInput = { message: KafkaMessage; inbound: Record<string, string> };

interface InputDeps<T extends TopicName> {
  handler: Handler<T, Outcome | Later>;
  serde: Serde;
  outbound: Outbound;
  deferred: DeferredWork<DeferredInput, Outcome[]>;
  maxInputBytes: number;
  logger: Logger;
}

function incomingOf<T extends TopicName>(input: T, message: KafkaMessage, partition: number, value: unknown, headers: Record<string, string>): IncomingMessage<ValueOf<T>> {
  return { topic: input, partition, offset: message.offset, key: message.key?.toString('utf8') ?? null, value: value as ValueOf<T>, headers, timestamp: message.timestamp };
}

/**
 * Decodes an input ahead of its turn and hands it to the handler's `prepare`; the decoding is
 * what processInput then takes as its first decode attempt. Null: nothing to decode (a tombstone
 * or an oversized value, which processInput dead-letters).
 */
function prepareAhead<T extends TopicName>(deps: InputDeps<T>, message: KafkaMessage, partition: number): Promise<unknown> | null {
  const { handler } = deps;
  if (handler.prepare === undefined || message.value === null || message.value.length > deps.maxInputBytes) return null;
  const decoding = deps.serde.decode(handler.input, message.value);
  decoding.then(
    (value) => {
      try {
        handler.prepare!(incomingOf(handler.input, message, partition, value, headersToRecord(message.headers)));
      } catch (error) {
        // Only a head start is lost: handle takes the input at its turn as it would unprepared.
        deps.logger.warn({ err: error, partition, offset: message.offset }, 'preparing an input ahead failed');
      }
    },
    // A failed decode is retried or dead-lettered when the input's turn comes.
    () => {},
  );
  return decoding;
}

/** Decode, validate and handle one message; permanent failures become a dead-letter record. */
async function processInput<T extends TopicName>(deps: InputDeps<T>, message: KafkaMessage, partition: number, context: HandlerContext & { isRunning: () => boolean }, decodedAhead: Promise<unknown> | null = null): Promise<ProducedRecord[]> {
  const { handler, outbound } = deps;
  if (message.value === null) return [await outbound.deadLetterRecord(message, partition, 'UNDECODABLE', 'empty (tombstone) value')];
  if (message.value.length > deps.maxInputBytes) return [await outbound.deadLetterRecord(message, partition, 'OVERSIZED', `value of ${message.value.length} bytes exceeds ${deps.maxInputBytes}`)];
  const inbound = headersToRecord(message.headers);
  // The decoding started ahead (prepareAhead) is the first attempt; a retry decodes afresh.
  let firstAttempt = decodedAhead;
  const decode = () => {
    const attempt = firstAttempt ?? deps.serde.decode(handler.input, message.value as Buffer);
    firstAttempt = null;
    return attempt;
  };
  try {
    const value = await retryWhileRetriable(decode, { ...context, logger: deps.logger, what: 'decode' });
    const incoming = incomingOf(handler.input, message, partition, value, inbound);
    const outcomes = await retryWhileRetriable(async () => handler.handle(incoming, context), { ...context, logger: deps.logger, what: 'handle' });
    const now: Outcome[] = [];
    for (const outcome of outcomes) {
      if (outcome.kind === 'later') deps.deferred.track(partition, message.offset, { message, inbound }, outcome.completion);
      else now.push(outcome);
    }
    return await outbound.recordsOf(now, message, partition, inbound);
  } catch (error) {
    // Permanent: the message can never succeed, so it must not block the partition.
    if (isSkryaError(error) && !error.retriable) return [await outbound.deadLetterRecord(message, partition, error.code, error.message)];
    throw error;
  }
}

/** Commits a planned offset; a lost group membership is surfaced so kafkajs re-joins instead of crashing. */
async function commitPlanned(consumer: Consumer, inputTopic: string, offsets: OffsetTracker, planned: PlannedCommit | null): Promise<void> {
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

/** One fetched batch: handle in order, send every FLUSH_EVERY records and at the end, then commit what the tracker allows. */
function batchConsumer<T extends TopicName>(deps: InputDeps<T> & { producer: Producer; offsets: OffsetTracker; commit: (planned: PlannedCommit | null) => Promise<void>; before: () => Promise<void>; signal: AbortSignal }) {
  return async ({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> => {
    await deps.before();
    const context = { heartbeat, isRunning: () => isRunning() && !deps.signal.aborted, signal: deps.signal };
    let pending: ProducedRecord[] = [];
    let lastProcessed: string | null = null;
    const flushAndCommit = async () => {
      await sendRecords(deps.producer, pending);
      pending = [];
      if (lastProcessed !== null) {
        deps.offsets.delivered(batch.partition, (BigInt(lastProcessed) + 1n).toString());
        await deps.commit(deps.offsets.plan(batch.partition));
      }
      await heartbeat();
    };
    const { messages } = batch;
    // Decodings started ahead of their turn, by index in the batch (handlers with `prepare` only).
    const decodedAhead = new Map<number, Promise<unknown>>();
    let preparedUpTo = 0;
    for (let index = 0; index < messages.length; index++) {
      const message = messages[index]!;
      if (!isRunning() || isStale()) break;
      for (; deps.handler.prepare !== undefined && preparedUpTo < Math.min(messages.length, index + PREPARE_AHEAD); preparedUpTo++) {
        const decoding = prepareAhead(deps, messages[preparedUpTo]!, batch.partition);
        if (decoding !== null) decodedAhead.set(preparedUpTo, decoding);
      }
      const decoding = decodedAhead.get(index) ?? null;
      decodedAhead.delete(index);
      deps.offsets.handling(batch.partition);
      pending.push(...(await processInput(deps, message, batch.partition, context, decoding)));
      resolveOffset(message.offset);
      lastProcessed = message.offset;
      if (pending.length >= FLUSH_EVERY) await flushAndCommit();
    }
    await flushAndCommit();
  };
}

export async function startService<T extends TopicName>(options: RunnerOptions<T>): Promise<RunningService> {
  const { service, kafka, serde, naming, handler } = options;
  const inputTopic = physicalTopic(naming, handler.input);
  const groupId = consumerGroup(naming, service);
  const logger = options.logger.child({ service, topic: inputTopic });
  const abort = new AbortController();
  const producer: Producer = kafka.producer(PRODUCER_CONFIG);
  const consumer = createGroupConsumer(kafka, groupId, options.sessionTimeoutMs ?? 45_000);
  const outbound = createOutbound({ service, serde, naming, inputTopic, logger, onOutcome: options.onOutcome });
  const commit = (planned: PlannedCommit | null) => commitPlanned(consumer, inputTopic, offsets, planned);
  const commitAllPlanned = async (why: string) => {
    // Best effort: the partition's next batch commits anyway.
    for (const planned of offsets.planAll()) await commit(planned).catch((error: unknown) => logger.warn({ err: error, partition: planned.partition }, `commit after ${why} failed`));
  };

  const { promise: ready, resolve: resolveReady } = Promise.withResolvers<void>();
  const crashed = crashOf(consumer, logger);
  const { promise: deferredCrashed, resolve: crashDeferred } = Promise.withResolvers<Error>();
  const deferred = createDeferredWork<DeferredInput, Outcome[]>({
    deliver: async (completed) => {
      const records: ProducedRecord[] = [];
      for (const { partition, input, result } of completed) records.push(...(await outbound.recordsOf(result, input.message, partition, input.inbound)));
      await sendRecords(producer, records);
    },
    afterDelivery: () => commitAllPlanned('finished work'),
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
    const restore = handler.restoreCommitNote?.bind(handler);
    if (restore) notesRestored = restoreCommitNotes({ kafka, groupId, inputTopic, partitions: event.payload.memberAssignment[inputTopic] ?? [], restore, signal: abort.signal, logger });
    resolveReady();
  });

  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: inputTopic, fromBeginning: options.fromBeginning ?? true });
  const eachBatch = batchConsumer({ handler, serde, outbound, deferred, maxInputBytes: options.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES, logger, producer, offsets, commit, before: () => notesRestored, signal: abort.signal });
  await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 3, eachBatch });

  const ticks = handler.tick
    ? startTickLoop({ tick: handler.tick.bind(handler), intervalMs: options.tickIntervalMs ?? 1_000, offsets, outbound, send: (records) => sendRecords(producer, records), commit, onEmitted: () => options.onOutcome?.(service, 'emit'), logger })
    : null;

  logger.info('service started');
  return {
    service,
    ready,
    crashed: Promise.race([crashed, deferredCrashed, ...(ticks ? [ticks.crashed] : [])]),
    async stop() {
      abort.abort();
      deferred.stop();
      ticks?.stop();
      // disconnect() lets the in-flight batch finish (it flushes and commits) before leaving the group.
      await consumer.disconnect();
      await producer.disconnect();
      logger.info('service stopped');
    },
  };
}
