import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { kafkajsOriginal } from '../test/support/kafkajs-original.ts';
import { groupMessagesPerPartition, murmur2 } from './kafkajs-partitioning.ts';

const require = createRequire(import.meta.url);

type Murmur2 = (key: string | Buffer) => number;
type Grouping = typeof groupMessagesPerPartition;

const kafkajsMurmur2 = kafkajsOriginal<Murmur2>('kafkajs/src/producer/partitioners/default/murmur2.js');
const kafkajsGrouping = kafkajsOriginal<Grouping>('kafkajs/src/producer/groupMessagesPerPartition.js');

/** Deterministic bytes: SHA-256 of a label, repeated to the length asked for. */
function bytesOf(label: string, length: number): Buffer {
  const digest = createHash('sha256').update(label).digest();
  return Buffer.from(Array.from({ length }, (_unused, index) => digest[index % digest.length]!));
}

const STRING_KEYS = [
  '', 'a', 'ab', 'abc', 'abcd', '21', 'acme/kafka-news', 'bench/topic-0007', 'tenant-42/run-20261205-abcdef',
  'héllo', '中文主题', '🙂 emoji key', '\u0000nul', 'x'.repeat(255), 'é'.repeat(300), '中'.repeat(1_000),
];

describe('murmur2 (the Java client\'s key hash)', () => {
  it('gives kafkajs\'s hash for byte keys of every length up to 64, every remainder of four', () => {
    for (let length = 0; length <= 64; length++) {
      for (const label of ['one', 'two', 'three']) {
        const key = bytesOf(`${label}-${length}`, length);
        expect(murmur2(key), `${label}, ${length} bytes`).toBe(kafkajsMurmur2(key));
      }
    }
  });

  it('gives kafkajs\'s hash for string keys, multi-byte characters and keys longer than its scratch buffer included', () => {
    for (const key of STRING_KEYS) expect(murmur2(key), JSON.stringify(key.slice(0, 20))).toBe(kafkajsMurmur2(key));
  });

  it('hashes a string key as its UTF-8 bytes, so a key is on the same partition as a string or as a Buffer', () => {
    for (const key of STRING_KEYS) expect(murmur2(key)).toBe(murmur2(Buffer.from(key, 'utf8')));
  });

  it('is not thrown off by a long key hashed before a short one (the scratch buffer keeps old bytes)', () => {
    murmur2('z'.repeat(2_000));
    expect(murmur2('ab')).toBe(kafkajsMurmur2('ab'));
  });
});

describe('groupMessagesPerPartition', () => {
  const partitionMetadata = [{ partitionId: 0, leader: 1 }, { partitionId: 1, leader: 1 }, { partitionId: 2, leader: 1 }];
  const partitioner = ({ message }: { message: { key: string } }) => Math.abs(murmur2(message.key)) % partitionMetadata.length;
  const messages = Array.from({ length: 500 }, (_unused, index) => ({ key: `key-${index % 37}`, value: `value-${index}` }));

  it('groups a send as kafkajs does: the same partitions, each with its messages in send order', () => {
    const ours = groupMessagesPerPartition({ topic: 't', partitionMetadata, messages, partitioner });
    expect(ours).toEqual(kafkajsGrouping({ topic: 't', partitionMetadata, messages, partitioner }));
    expect(Object.keys(ours)).toEqual(['0', '1', '2']);
    expect(Object.values(ours).flat()).toHaveLength(messages.length);
    for (const group of Object.values(ours)) {
      const indexes = group.map((message) => messages.indexOf(message));
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    }
  });

  it('gives no groups when the topic has no partition metadata, as kafkajs does', () => {
    expect(groupMessagesPerPartition({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});
    expect(kafkajsGrouping({ topic: 't', partitionMetadata: [], messages, partitioner })).toEqual({});
  });
});

describe('the partitioning kafkajs loads', () => {
  it('is ours, and kafkajs\'s default partitioner gives the partitions its own murmur2 gives', async () => {
    await import('./kafkajs-replacements.ts');
    const loadedHash = require('kafkajs/src/producer/partitioners/default/murmur2.js') as Murmur2 & Record<symbol, unknown>;
    const loadedGrouping = require('kafkajs/src/producer/groupMessagesPerPartition.js') as Grouping & Record<symbol, unknown>;
    expect(loadedHash[Symbol.for('skrya.kafkajs.murmur2')]).toBe(true);
    expect(loadedGrouping[Symbol.for('skrya.kafkajs.groupMessagesPerPartition')]).toBe(true);

    const { Partitioners } = require('kafkajs') as typeof import('kafkajs');
    const partition = Partitioners.DefaultPartitioner();
    const partitionMetadata = Array.from({ length: 12 }, (_unused, partitionId) => ({ partitionId, leader: 1, partitionErrorCode: 0, replicas: [1], isr: [1] }));
    for (const key of STRING_KEYS) {
      expect(partition({ topic: 't', partitionMetadata, message: { key, value: null } })).toBe((kafkajsMurmur2(key) & 0x7fffffff) % 12);
    }
  });
});
