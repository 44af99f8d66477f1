/**
 * Reading topics outside every service group, and re-driving dead letters. Operators list
 * dead-letters and replays read raw-results by time range without disturbing any service: a
 * throwaway consumer group that never commits reads a fixed offset range and is deleted after.
 * Re-driving produces a letter's original key, value and headers back to its source topic and
 * waits for the broker's acknowledgement.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import { z } from 'zod';
import { SkryaError, describeError } from './errors.ts';
import type { Kafka } from './kafka.ts';
import { PRODUCER_CONFIG } from './runner.ts';
import type { Serde } from './serde.ts';
import type { DeadLetter } from '../schemas/messages.ts';
import { physicalTopic, type TopicNaming } from '../topics/topics.ts';

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
const headersSchema = z.record(z.string(), z.string());

function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) record[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return record;
}

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
  /** Names the throwaway group (it is deleted afterwards), e.g. `skrya-dlq-list`. */
  purpose: string;
  naming: TopicNaming;
  /** Fails with BROKER_UNAVAILABLE when no batch arrives for this long. */
  idleTimeoutMs?: number;
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
  const groupId = `${options.naming.prefix}skrya-${options.purpose}-${randomBytes(6).toString('hex')}`;
  const consumer = options.kafka.consumer({ groupId, allowAutoTopicCreation: false, maxBytes: 32 * 1024 * 1024, maxBytesPerPartition: 16 * 1024 * 1024 });
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;

  let settle: (error?: unknown) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  let idleTimer: NodeJS.Timeout | undefined;
  const armIdleTimer = () => {
    clearTimeout(idleTimer);
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

  // Batches made only of control records or aborted messages never reach eachBatch; this event does.
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
    if (payload.topic === options.topic && payload.lastOffset !== null) reached(payload.partition, String(payload.lastOffset));
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
        armIdleTimer();
        const range = pending.get(batch.partition);
        if (!range) return;
        try {
          for (const message of batch.messages) {
            const offset = BigInt(message.offset);
            if (offset < next.get(batch.partition)! || offset >= BigInt(range.end)) continue;
            next.set(batch.partition, offset + 1n);
            await options.onRecord(toStoredRecord(batch.partition, message));
          }
          reached(batch.partition, batch.lastOffset());
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
    await withAdmin(options.kafka, (admin) => admin.deleteGroups([groupId])).catch(() => {});
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

function byPartitionAndOffset(a: { partition: number; offset: string }, b: { partition: number; offset: string }): number {
  return a.partition - b.partition || (BigInt(a.offset) < BigInt(b.offset) ? -1 : BigInt(a.offset) > BigInt(b.offset) ? 1 : 0);
}

/** One letter as it sits on dead-letters, with a fingerprint of its stored bytes. */
export interface StoredDeadLetter {
  partition: number;
  offset: string;
  timestamp: string;
  /** sha256 of the dead-letter record's bytes: tells a letter from another at a reused offset. */
  fingerprint: string;
  letter: DeadLetter;
}

export interface UnreadableDeadLetter {
  partition: number;
  offset: string;
  code: string;
  message: string;
}

export interface DeadLetterDeps {
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
}

/** The range holding just `at`, or none when the offset is not (or no longer) on the topic. */
function singleOffsetRange(all: readonly OffsetRange[], at: { partition: number; offset: string }): OffsetRange[] {
  const range = all.find((candidate) => candidate.partition === at.partition);
  const offset = BigInt(at.offset);
  if (!range || offset < BigInt(range.start) || offset >= BigInt(range.end)) return [];
  return [{ partition: at.partition, start: at.offset, end: String(offset + 1n) }];
}

/** The headers a letter's original message carried, as the runner recorded them. */
export function originalHeaders(letter: DeadLetter): Record<string, string> {
  const parsed = headersSchema.safeParse(safeJson(letter.original_headers_json));
  if (!parsed.success) throw new SkryaError('SCHEMA_INVALID', `original_headers_json is not an object of string headers: ${letter.original_headers_json.slice(0, 200)}`);
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function fingerprintOf(bytes: Buffer | null): string {
  return createHash('sha256').update(bytes ?? Buffer.alloc(0)).digest('hex');
}

/**
 * Every letter now on dead-letters (or only the one at `at`), in offset order. A letter that cannot
 * be decoded is returned as unreadable with its code instead of failing the whole listing.
 */
export async function readDeadLetters(deps: DeadLetterDeps, options: { at?: { partition: number; offset: string } } = {}): Promise<{ letters: StoredDeadLetter[]; unreadable: UnreadableDeadLetter[] }> {
  const topic = physicalTopic(deps.naming, 'dead-letters');
  const all = await wholeTopicRanges(deps.kafka, topic);
  const ranges = options.at === undefined ? all : singleOffsetRange(all, options.at);
  const records: StoredRecord[] = [];
  await readOffsetRanges({ kafka: deps.kafka, topic, ranges, naming: deps.naming, purpose: 'dlq-reader', onRecord: (record) => void records.push(record) });
  records.sort(byPartitionAndOffset);

  const letters: StoredDeadLetter[] = [];
  const unreadable: UnreadableDeadLetter[] = [];
  for (const record of records) {
    try {
      if (record.value === null) throw new SkryaError('UNDECODABLE', 'empty (tombstone) value');
      const letter = await deps.serde.decode('dead-letters', record.value);
      letters.push({ partition: record.partition, offset: record.offset, timestamp: record.timestamp, fingerprint: fingerprintOf(record.value), letter });
    } catch (error) {
      if (!(error instanceof SkryaError) || error.retriable) throw error;
      unreadable.push({ partition: record.partition, offset: record.offset, code: error.code, message: error.message });
    }
  }
  return { letters, unreadable };
}

export interface RedriveResult {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Produces each letter's original key, value and headers to its source topic, one at a time in
 * the given order, awaiting the broker's acknowledgement before `onRedriven` records it.
 */
export async function redriveDeadLetters(
  deps: { kafka: Kafka },
  letters: readonly StoredDeadLetter[],
  onRedriven: (letter: StoredDeadLetter, result: RedriveResult) => void | Promise<void>,
): Promise<void> {
  if (letters.length === 0) return;
  const producer = deps.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  try {
    for (const stored of letters) {
      const { letter } = stored;
      const headers = originalHeaders(letter);
      const [metadata] = await producer.send({
        topic: letter.source_topic,
        acks: -1,
        messages: [{ key: letter.original_key, value: letter.original_value, headers }],
      });
      if (!metadata) throw new SkryaError('BROKER_UNAVAILABLE', `no acknowledgement for re-driving ${stored.partition}:${stored.offset} to ${letter.source_topic}`);
      await onRedriven(stored, { topic: letter.source_topic, partition: metadata.partition, offset: metadata.baseOffset ?? '' });
    }
  } finally {
    await producer.disconnect();
  }
}
