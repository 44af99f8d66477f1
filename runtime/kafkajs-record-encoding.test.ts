import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { kafkajsOriginal, SKRYA_HEADERS } from '../test/support/kafkajs-original.ts';
import { createRandom, randomText } from '../test/support/random-text.ts';
import { encodeRecord } from './kafkajs-record-encoding.ts';

type RecordEncoder = (record: Parameters<typeof encodeRecord>[0]) => { buffer: Buffer };

const require = createRequire(import.meta.url);

const kafkajsRecord = kafkajsOriginal<RecordEncoder>('kafkajs/src/protocol/recordBatch/record/v0/index.js');
const kafkajsChecksum = kafkajsOriginal<(bytes: Buffer) => number>('kafkajs/src/protocol/recordBatch/crc32C/index.js');


describe('encodeRecord (kafkajs record v0, written in one buffer)', () => {
  it.each([
    ['a scored item with Skrya\'s seven headers', { offsetDelta: 0, timestampDelta: 0, key: 'acme/kafka-news', value: Buffer.alloc(2_777, 0x61), headers: SKRYA_HEADERS }],
    ['a later record of the batch', { offsetDelta: 499, timestampDelta: 3, key: 'acme/kafka-news', value: Buffer.from('v'), headers: SKRYA_HEADERS }],
    ['no key, no value, no headers', { key: null, value: null }],
    ['a Buffer key, a string value of many-byte characters', { key: Buffer.from([0, 1, 2]), value: 'héllo 中文 🙂', headers: {} }],
    ['Buffer headers and a header given several values', { key: 'k', value: Buffer.alloc(0), headers: { a: Buffer.from('x'), many: ['1', '2', Buffer.from('3')], '': '' } }],
    ['an offset delta past one varint byte', { offsetDelta: 70_000, key: 'k', value: 'v' }],
    ['a timestamp delta far beyond 32 bits', { timestampDelta: 2 ** 40 + 7, key: 'k', value: 'v' }],
    ['a negative timestamp delta', { timestampDelta: -5, key: 'k', value: 'v' }],
    ['the 32-bit timestamp deltas at either end', { timestampDelta: -(2 ** 31), key: 'k', value: 'v' }],
    ['the largest 32-bit timestamp delta', { timestampDelta: 2 ** 31 - 1, key: 'k', value: 'v' }],
    ['a timestamp delta just past 32 bits', { timestampDelta: 2 ** 31, key: 'k', value: 'v' }],
    ['a value of 200 kB (a multi-byte length)', { key: 'k', value: Buffer.alloc(200_000, 1), headers: { h: 'v' } }],
  ])('writes the bytes kafkajs writes: %s', (_name, record) => {
    expect(encodeRecord(record).buffer.equals(kafkajsRecord(record).buffer)).toBe(true);
  });

  it('writes the bytes kafkajs writes for random records', () => {
    const next = createRandom(2026);
    for (let round = 0; round < 300; round++) {
      const headers: Record<string, string | Buffer> = {};
      for (let index = Math.floor(next() * 9); index > 0; index--) headers[randomText(next, 1 + Math.floor(next() * 20))] = next() < 0.5 ? randomText(next, Math.floor(next() * 300)) : Buffer.from(randomText(next, Math.floor(next() * 40)));
      const record = {
        offsetDelta: Math.floor(next() * 100_000),
        timestampDelta: Math.floor((next() - 0.2) * 10 ** Math.floor(next() * 13)),
        key: next() < 0.2 ? null : randomText(next, Math.floor(next() * 60)),
        value: next() < 0.1 ? null : Buffer.from(randomText(next, Math.floor(next() * 5_000))),
        headers,
      };
      expect(encodeRecord(record).buffer.toString('hex'), JSON.stringify(record).slice(0, 200)).toBe(kafkajsRecord(record).buffer.toString('hex'));
    }
  });

  it('refuses a null header value, as kafkajs does', () => {
    const record = { key: 'k', value: 'v', headers: { h: null as unknown as string } };
    expect(() => kafkajsRecord(record)).toThrow(TypeError);
    expect(() => encodeRecord(record)).toThrow(TypeError);
  });

  it('is the record encoder kafkajs\'s produce request loads', async () => {
    await import('./kafkajs-replacements.ts');
    const loaded = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as RecordEncoder & Record<symbol, unknown>;
    expect(loaded[Symbol.for('skrya.kafkajs.recordEncoder')]).toBe(true);
    const record = { key: 'k', value: Buffer.from('v'), headers: SKRYA_HEADERS };
    expect(loaded(record).buffer.equals(kafkajsRecord(record).buffer)).toBe(true);
  });
});

describe('the batch checksum kafkajs loads', () => {
  it('is the native crc32c on this machine, with kafkajs\'s results', async () => {
    await import('./kafkajs-replacements.ts');
    const loaded = require('kafkajs/src/protocol/recordBatch/crc32C/index.js') as ((bytes: Buffer) => number) & Record<symbol, unknown>;
    expect(loaded[Symbol.for('skrya.kafkajs.batchChecksum')]).toBe(true);
    const next = createRandom(7);
    const bytes = Buffer.from(Array.from({ length: 70_001 }, () => Math.floor(next() * 256)));
    for (const length of [0, 1, 3, 8, 9, 4_096, 70_001]) expect(loaded(bytes.subarray(0, length))).toBe(kafkajsChecksum(bytes.subarray(0, length)));
  });
});
