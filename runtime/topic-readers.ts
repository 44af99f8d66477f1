/**
 * Reading topics outside every service group, so no service's position moves: a throwaway group
 * (named by topics/ readerGroup) that never commits and is deleted when the read ends. Fixed offset
 * ranges (dead letters, replays by time), a topic up to its end (state on restart), or following a
 * topic as it grows (the usage ledger).
 */
import type { KafkaMessage } from 'kafkajs';
import { SkryaError, describeError } from './errors.ts';
import type { ValueOf } from './handler.ts';
import { headersToRecord } from './headers.ts';
import type { Kafka } from './kafka.ts';
import type { Serde } from './serde.ts';
import { physicalTopic, readerGroup, type TopicName, type TopicNaming } from '../topics/topics.ts';

/** A message as stored on the broker, before any decoding. */
export interface StoredRecord {
  partition: number;
  offset: string;
  /** Milliseconds since the epoch, as the broker keeps it (CreateTime). */
  timestamp: string;
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

/** The offsets [start, end) of one partition. */
export interface OffsetRange {
  partition: number;
  start: string;
  end: string;
}

const DEFAULT_IDLE_TIMEOUT_MS = 30_000;

function toStoredRecord(partition: number, message: KafkaMessage): StoredRecord {
  return { partition, offset: message.offset, timestamp: message.timestamp, key: message.key ?? null, value: message.value ?? null, headers: headersToRecord(message.headers) };
}

async function withAdmin<R>(kafka: Kafka, work: (admin: ReturnType<Kafka['admin']>) => Promise<R>): Promise<R> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** Best effort: a group left behind by a crash expires with the broker's offsets retention. */
async function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  await withAdmin(kafka, (admin) => admin.deleteGroups([groupId])).catch(() => {});
}

/** Every partition of a topic from its low to its high watermark, as they are now. */
export function wholeTopicRanges(kafka: Kafka, topic: string): Promise<OffsetRange[]> {
  return withAdmin(kafka, async (admin) => (await admin.fetchTopicOffsets(topic)).map(({ partition, low, high }) => ({ partition, start: low, end: high })));
}

/**
 * The offsets of the messages stamped in [sinceMs, untilMs) on every partition: the first offset
 * at or after each bound (the high watermark when none is), as the broker's time index finds them.
 */
export function offsetRangesByTime(kafka: Kafka, topic: string, sinceMs: number, untilMs: number): Promise<OffsetRange[]> {
  return withAdmin(kafka, async (admin) => {
    const [starts, ends] = await Promise.all([admin.fetchTopicOffsetsByTimestamp(topic, sinceMs), admin.fetchTopicOffsetsByTimestamp(topic, untilMs)]);
    return starts
      .map(({ partition, offset }) => ({ partition, start: offset, end: ends.find((end) => end.partition === partition)?.offset ?? offset }))
      .sort((a, b) => a.partition - b.partition);
  });
}

export interface ReadRangesOptions {
  kafka: Kafka;
  topic: string;
  ranges: readonly OffsetRange[];
  /** Called once per message, in offset order within a partition, never twice for one offset. */
  onRecord: (record: StoredRecord) => void | Promise<void>;
  /** Names the throwaway group (it is deleted afterwards), e.g. `dlq`. */
  purpose: string;
  naming: TopicNaming;
  /** Fails with BROKER_UNAVAILABLE when no batch arrives for this long; null waits as long as the consumer's own retries do. */
  idleTimeoutMs?: number | null;
}

/**
 * Reads exactly the given offset ranges with a throwaway consumer group that never commits, so no
 * service group's position moves; the group is deleted afterwards. Resolves once every range is read.
 */
export async function readOffsetRanges(options: ReadRangesOptions): Promise<void> {
  const pending = new Map(options.ranges.filter((range) => BigInt(range.start) < BigInt(range.end)).map((range) => [range.partition, range]));
  if (pending.size === 0) return;
  // The next offset each partition may deliver: a seek after the first fetch re-delivers, and
  // offsets before the range may arrive first.
  const next = new Map([...pending].map(([partition, range]) => [partition, BigInt(range.start)]));
  const groupId = readerGroup(options.naming, options.purpose);
  const consumer = options.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxBytes: 32 * 1024 * 1024, maxBytesPerPartition: 16 * 1024 * 1024 });
  const idleTimeoutMs = options.idleTimeoutMs === undefined ? DEFAULT_IDLE_TIMEOUT_MS : options.idleTimeoutMs;

  let settle: (error?: unknown) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
    if (idleTimeoutMs === null) return;
    idleTimer = setTimeout(() => settle(new SkryaError('BROKER_UNAVAILABLE', `reading ${options.topic}: no data for ${idleTimeoutMs} ms with ${pending.size} partition(s) still unread`)), idleTimeoutMs);
  };
  const reached = (partition: number, lastOffset: string) => {
    const range = pending.get(partition);
    if (range && BigInt(lastOffset) + 1n >= BigInt(range.end)) {
      pending.delete(partition);
      consumer.pause([{ topic: options.topic, partitions: [partition] }]);
    }
    if (pending.size === 0) settle();
  };

  // Partitions with nothing to read are paused, so they are not fetched from their beginning.
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    const idle = (payload.memberAssignment[options.topic] ?? []).filter((partition) => !pending.has(partition));
    if (idle.length > 0) consumer.pause([{ topic: options.topic, partitions: idle }]);
  });

  // Idle is waiting on the broker: the timer stops while a batch is processed.
  consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic === options.topic) clearTimeout(idleTimer);
  });
  // Progress is counted here, after eachBatch: batches made only of aborted messages and
  // transaction markers (a partition whose last transaction was aborted) never reach eachBatch.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic !== options.topic) return;
    if (payload.lastOffset !== null) reached(payload.partition, String(payload.lastOffset));
    if (pending.size > 0) armIdleTimer();
  });
  consumer.on(consumer.events.CRASH, ({ payload }) => {
    if (!payload.restart) settle(new SkryaError('BROKER_UNAVAILABLE', `reading ${options.topic} failed: ${describeError(payload.error)}`, { cause: payload.error }));
  });

  try {
    await consumer.connect();
    await consumer.subscribe({ topic: options.topic, fromBeginning: true });
    armIdleTimer();
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const range = pending.get(batch.partition);
        if (!range) return;
        try {
          for (const message of batch.messages) {
            const offset = BigInt(message.offset);
            if (offset < next.get(batch.partition)! || offset >= BigInt(range.end)) continue;
            next.set(batch.partition, offset + 1n);
            await options.onRecord(toStoredRecord(batch.partition, message));
          }
        } catch (error) {
          // A failing onRecord ends the read with its error; kafkajs would retry the batch forever.
          settle(error);
        }
      },
    });
    for (const range of pending.values()) consumer.seek({ topic: options.topic, partition: range.partition, offset: range.start });
    await finished;
  } finally {
    clearTimeout(idleTimer);
    await consumer.disconnect();
    await deleteGroup(options.kafka, groupId);
  }
}

/**
 * Streams the records of a topic stamped in [sinceMs, untilMs) that `keep` accepts to `onRecord`,
 * awaited one at a time in offset order within a partition, so nothing is held beyond the batch
 * being read. `onProgress` counts every record read, kept or not, against the range's size.
 */
export async function readTimeRange(options: {
  kafka: Kafka;
  naming: TopicNaming;
  topic: string;
  sinceMs: number;
  untilMs: number;
  keep: (record: StoredRecord) => boolean;
  onRecord: (record: StoredRecord) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  purpose: string;
}): Promise<void> {
  const ranges = await offsetRangesByTime(options.kafka, options.topic, options.sinceMs, options.untilMs);
  const total = ranges.reduce((sum, range) => sum + Math.max(0, Number(BigInt(range.end) - BigInt(range.start))), 0);
  let done = 0;
  options.onProgress?.(0, total);
  await readOffsetRanges({
    kafka: options.kafka,
    naming: options.naming,
    topic: options.topic,
    ranges,
    purpose: options.purpose,
    onRecord: async (record) => {
      done += 1;
      if (options.keep(record)) await options.onRecord(record);
      options.onProgress?.(done, total);
    },
  });
}


/** A record of a topic read to its end, decoded; a null value is a tombstone. */
export interface DecodedRecord<T extends TopicName> {
  partition: number;
  key: string | null;
  value: ValueOf<T> | null;
}

/**
 * Every record of the topic (or of the given partitions) up to the end each partition has now,
 * committed only, tombstones included, in offset order within a partition.
 */
export async function readRecordsToEnd<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T; partitions?: readonly number[]; idleTimeoutMs?: number | null }): Promise<Array<DecodedRecord<T>>> {
  const topic = physicalTopic(options.naming, options.topic);
  const ranges = (await wholeTopicRanges(options.kafka, topic)).filter((range) => options.partitions?.includes(range.partition) ?? true);
  const records: Array<DecodedRecord<T>> = [];
  await readOffsetRanges({
    kafka: options.kafka,
    naming: options.naming,
    topic,
    ranges,
    purpose: `state-${options.topic}`,
    idleTimeoutMs: options.idleTimeoutMs,
    onRecord: async (record) => {
      records.push({ partition: record.partition, key: record.key?.toString('utf8') ?? null, value: record.value ? await options.serde.decode(options.topic, record.value) : null });
    },
  });
  return records;
}

/** Every record with a value of the topic up to its end (committed only). */
export async function readTopicToEnd<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T }): Promise<Array<{ key: string | null; value: ValueOf<T> }>> {
  return (await readRecordsToEnd(options)).filter((record) => record.value !== null).map((record) => ({ key: record.key, value: record.value! }));
}

/** A compacted state topic as a map: every key's newest value; a tombstone deletes its key. */
export async function readCompactedTopic<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T }): Promise<Map<string, ValueOf<T>>> {
  const state = new Map<string, ValueOf<T>>();
  for (const { key, value } of await readRecordsToEnd(options)) {
    if (key === null) continue;
    if (value === null) state.delete(key);
    else state.set(key, value);
  }
  return state;
}

export interface FollowedTopic {
  close(): Promise<void>;
}

/**
 * Reads a topic from its beginning and keeps following it, committed (transactional) messages only,
 * handing each record to `onRecord` in offset order within a partition; `onRecord` sees the next
 * offset to read after it, so a caller can tell when a position of its own has been read past.
 */
export async function followTopic<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T; purpose: string; onRecord: (record: { partition: number; nextOffset: bigint; key: string | null; value: ValueOf<T> | null }) => void }): Promise<FollowedTopic> {
  const groupId = readerGroup(options.naming, options.purpose);
  const consumer = options.kafka.consumer({ groupId, maxWaitTimeInMs: 20, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic: physicalTopic(options.naming, options.topic), fromBeginning: true });
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) {
        const value = message.value ? await options.serde.decode(options.topic, message.value) : null;
        options.onRecord({ partition: batch.partition, nextOffset: BigInt(message.offset) + 1n, key: message.key?.toString('utf8') ?? null, value });
      }
    },
  });
  return {
    async close() {
      await consumer.disconnect();
      await deleteGroup(options.kafka, groupId);
    },
  };
}
