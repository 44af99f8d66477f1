/**
 * The dead-letter topic: listing letters (a throwaway read, topic-readers.ts) and re-driving them,
 * which produces a letter's original key, value and headers back to its source topic and waits for
 * the broker's acknowledgement.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { SkryaError } from './errors.ts';
import type { Kafka } from './kafka.ts';
import { PRODUCER_CONFIG } from './publishers.ts';
import type { Serde } from './serde.ts';
import { readOffsetRanges, wholeTopicRanges, type OffsetRange, type StoredRecord } from './topic-readers.ts';
import type { DeadLetter } from '../schemas/messages.ts';
import { physicalTopic, type TopicNaming } from '../topics/topics.ts';

const headersSchema = z.record(z.string(), z.string());

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
  await readOffsetRanges({ kafka: deps.kafka, topic, ranges, naming: deps.naming, purpose: 'dlq', onRecord: (record) => void records.push(record) });
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
