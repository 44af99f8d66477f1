/**
 * kafkajs's choice of partitions for a send, made cheaper before kafkajs loads
 * (kafkajs-replacements.ts): the same partitions, in the same order, without its allocations.
 *
 * kafkajs 2.2.4 groups a send's messages by partition by copying the partition's array for every
 * message (`[...current, message]`): a flush of 500 records copies 125,000 array slots, and the
 * scorer flushes ten records for each input. Its murmur2 (the Java client's key hash) builds a
 * 64-bit Long object for every four bytes of the key and a Buffer for a string key. Together they
 * were an eighth of the scorer's allocations on its event loop.
 */
import { replaceKafkajsModule } from './kafkajs-module-cache.ts';

const SEED = 0x9747b28c;
const M = 0x5bd1e995;

/** A string key's UTF-8 bytes are written here to be hashed; grown to fit a longer key. */
let keyBytes = Buffer.allocUnsafe(256);

/**
 * The Java client's murmur2 of a key (its UTF-8 bytes for a string), as a signed 32-bit integer:
 * what kafkajs's DefaultPartitioner hashes, in 32-bit integer arithmetic as Java computes it.
 */
export function murmur2(key: string | Buffer): number {
  let data: Buffer;
  let length: number;
  if (Buffer.isBuffer(key)) {
    data = key;
    length = key.length;
  } else {
    const text = String(key);
    if (keyBytes.length < 3 * text.length) keyBytes = Buffer.allocUnsafe(3 * text.length);
    data = keyBytes;
    length = keyBytes.write(text, 0, 'utf8');
  }
  let h = SEED ^ length;
  const whole = length & ~3;
  for (let i = 0; i < whole; i += 4) {
    let k = data[i]! | (data[i + 1]! << 8) | (data[i + 2]! << 16) | (data[i + 3]! << 24);
    k = Math.imul(k, M);
    k ^= k >>> 24;
    k = Math.imul(k, M);
    h = Math.imul(h, M) ^ k;
  }
  // The last one to three bytes, as Java's switch falls through them.
  const rest = length & 3;
  if (rest > 0) {
    if (rest === 3) h ^= data[whole + 2]! << 16;
    if (rest >= 2) h ^= data[whole + 1]! << 8;
    h ^= data[whole]!;
    h = Math.imul(h, M);
  }
  h ^= h >>> 13;
  h = Math.imul(h, M);
  h ^= h >>> 15;
  return h | 0;
}

interface GroupInput<Message> {
  topic: string;
  partitionMetadata: readonly unknown[];
  messages: readonly Message[];
  partitioner: (input: { topic: string; partitionMetadata: readonly unknown[]; message: Message }) => number;
}

/** A send's messages by the partition the partitioner gives each, in send order within a partition. */
export function groupMessagesPerPartition<Message>({ topic, partitionMetadata, messages, partitioner }: GroupInput<Message>): Record<number, Message[]> {
  const groups: Record<number, Message[]> = {};
  if (partitionMetadata.length === 0) return groups;
  for (const message of messages) {
    const partition = partitioner({ topic, partitionMetadata, message });
    (groups[partition] ??= []).push(message);
  }
  return groups;
}

replaceKafkajsModule({
  file: 'kafkajs/src/producer/partitioners/default/murmur2.js',
  loadedBy: 'kafkajs/src/producer/partitioners/default/index.js',
  replacement: murmur2.bind(null),
  marker: Symbol.for('skrya.kafkajs.murmur2'),
  replacedBy: 'runtime/kafkajs-partitioning.ts',
});

replaceKafkajsModule({
  file: 'kafkajs/src/producer/groupMessagesPerPartition.js',
  loadedBy: 'kafkajs/src/producer/sendMessages.js',
  replacement: groupMessagesPerPartition.bind(null),
  marker: Symbol.for('skrya.kafkajs.groupMessagesPerPartition'),
  replacedBy: 'runtime/kafkajs-partitioning.ts',
});
