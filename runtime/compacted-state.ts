/**
 * Reads a topic from the beginning up to its end offsets at the time of the call, committed
 * (transactional) messages only: the state a monitor restarts from, or a check of what was written.
 */
import { randomUUID } from 'node:crypto';
import type { Kafka } from './kafka.ts';
import type { Serde } from './serde.ts';
import { physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';
import type { TOPICS } from '../topics/topics.ts';
import type { z } from 'zod';

type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

export async function readTopicToEnd<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T; timeoutMs?: number }): Promise<Array<{ key: string | null; value: ValueOf<T> }>> {
  const topic = physicalTopic(options.naming, options.topic);
  const admin = options.kafka.admin();
  await admin.connect();
  // Transaction markers occupy offsets too, so "done" is reaching the end offset, not a message count.
  const ends = new Map((await admin.fetchTopicOffsets(topic)).map((partition) => [partition.partition, BigInt(partition.high)]));
  await admin.disconnect();
  const values: Array<{ key: string | null; value: ValueOf<T> }> = [];
  const pending = new Set([...ends].filter(([, high]) => high > 0n).map(([partition]) => partition));
  if (pending.size === 0) return values;

  // A throwaway group that never commits: reading state must not disturb anyone. Deleted afterwards,
  // since the operator view reads state on every page load.
  const groupId = `state-reader-${randomUUID()}`;
  const consumer = options.kafka.consumer({ groupId, readUncommitted: false });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`reading ${topic} did not reach its end within ${options.timeoutMs ?? 30_000} ms`)), options.timeoutMs ?? 30_000);
      const settle = (partition: number, nextOffset: bigint) => {
        if (nextOffset >= (ends.get(partition) ?? 0n)) pending.delete(partition);
        if (pending.size === 0) {
          clearTimeout(timer);
          resolve();
        }
      };
      void consumer.run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          for (const message of batch.messages) {
            if (message.value) values.push({ key: message.key?.toString('utf8') ?? null, value: await options.serde.decode(options.topic, message.value) });
          }
          settle(batch.partition, BigInt(batch.lastOffset()) + 1n);
        },
      }).catch(reject);
    });
  } finally {
    await consumer.disconnect();
    const cleanup = options.kafka.admin();
    await cleanup.connect().then(() => cleanup.deleteGroups([groupId])).catch(() => {}).finally(() => cleanup.disconnect());
  }
  return values;
}

/** A compacted state topic as a map: every key's newest value. */
export async function readCompactedTopic<T extends TopicName>(options: { kafka: Kafka; serde: Serde; naming: TopicNaming; topic: T; timeoutMs?: number }): Promise<Map<string, ValueOf<T>>> {
  const state = new Map<string, ValueOf<T>>();
  for (const { key, value } of await readTopicToEnd(options)) if (key !== null) state.set(key, value);
  return state;
}
