import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { kafkajsOriginal, SKRYA_HEADERS } from '../test/support/kafkajs-original.ts';
import { createRandom, randomText } from '../test/support/random-text.ts';
import { decodeRecord } from './kafkajs-record-decoding.ts';
import type { RecordInput } from './kafkajs-record-encoding.ts';

type Decoder = Parameters<typeof decodeRecord>[0];
type BatchContext = Parameters<typeof decodeRecord>[1];

const require = createRequire(import.meta.url);
const KafkajsDecoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => Decoder;
const kafkajsEncodeRecord = kafkajsOriginal<(record: RecordInput) => { buffer: Buffer }>('kafkajs/src/protocol/recordBatch/record/v0/index.js');
const kafkajsDecodeRecord = kafkajsOriginal<typeof decodeRecord>('kafkajs/src/protocol/recordBatch/record/v0/decoder.js');


const batch = (overrides: Partial<BatchContext> = {}): BatchContext => ({ firstOffset: '41', firstTimestamp: '1733443200000', maxTimestamp: '1733443200999', magicByte: 2, isControlBatch: false, timestampType: 0, ...overrides });

/** Both decoders over the bytes of `record` as kafkajs encodes it (its length in front, as a batch holds it): their records, and where each stopped. */
function decodeBoth(record: RecordInput, context: BatchContext) {
  const bytes = kafkajsEncodeRecord(record).buffer;
  const body = () => new KafkajsDecoder(bytes).readVarIntBytes()!;
  const ours = new KafkajsDecoder(body());
  const theirs = new KafkajsDecoder(body());
  return { ours: decodeRecord(ours, context), theirs: kafkajsDecodeRecord(theirs, context), oursAt: ours.offset, theirsAt: theirs.offset };
}

function expectSameRecord(record: RecordInput, context: BatchContext): void {
  const { ours, theirs, oursAt, theirsAt } = decodeBoth(record, context);
  expect(ours).toEqual(theirs);
  expect(Object.keys(ours)).toEqual(Object.keys(theirs));
  expect(Object.keys(ours.headers as object)).toEqual(Object.keys(theirs.headers as object));
  expect(ours.batchContext).toBe(context);
  expect(oursAt).toBe(theirsAt);
}

describe('decodeRecord (kafkajs record v0, offsets and timestamps as numbers where they fit)', () => {
  it.each([
    ['a scored item with Skrya\'s seven headers', { offsetDelta: 0, timestampDelta: 0, key: 'acme/kafka-news', value: Buffer.alloc(2_777, 0x61), headers: SKRYA_HEADERS }, batch()],
    ['a later record of the batch', { offsetDelta: 499, timestampDelta: 3, key: 'k', value: 'v', headers: SKRYA_HEADERS }, batch()],
    ['no key, no value, no headers', { key: null, value: null }, batch()],
    ['a header given several values, an empty name, many-byte text', { key: 'k', value: 'héllo 中文 🙂', headers: { many: ['1', '2', Buffer.from('3')], '': '', 'ünï': 'ç' } }, batch()],
    ['headers named after Object.prototype\'s members', { key: 'k', value: 'v', headers: { toString: 'a', constructor: ['b', 'c'], hasOwnProperty: 'd' } }, batch()],
    ['a negative timestamp delta', { timestampDelta: -5, key: 'k', value: 'v' }, batch()],
    ['a timestamp delta needing all seven exact varint bytes', { timestampDelta: 2 ** 47 + 3, key: 'k', value: 'v' }, batch()],
    ['a timestamp delta past them (kafkajs\'s Long reader)', { timestampDelta: 2 ** 52 + 1, key: 'k', value: 'v' }, batch()],
    ['offsets past 2^53 (Long arithmetic)', { offsetDelta: 7, key: 'k', value: 'v' }, batch({ firstOffset: '9007199254740990' })],
    ['the largest offsets an int64 holds', { offsetDelta: 0, key: 'k', value: 'v' }, batch({ firstOffset: '9223372036854775807' })],
    ['a negative first timestamp (none)', { timestampDelta: 0, key: 'k', value: 'v' }, batch({ firstTimestamp: '-1' })],
    ['the broker\'s append time', { timestampDelta: 12, key: 'k', value: 'v' }, batch({ timestampType: 1 })],
    ['a control batch', { key: Buffer.from([0, 0, 0, 1]), value: Buffer.from([0, 0, 0, 0, 0, 0]) }, batch({ isControlBatch: true })],
  ])('decodes what kafkajs decodes: %s', (_name, record, context) => {
    expectSameRecord(record, context);
  });

  it('gives a header named __proto__ as kafkajs does: an own property, the prototype untouched', () => {
    const { ours, theirs } = decodeBoth({ key: 'k', value: 'v', headers: JSON.parse('{"__proto__":"x","a":"y"}') as Record<string, string> }, batch());
    const [oursHeaders, theirsHeaders] = [ours.headers, theirs.headers] as Array<Record<string, unknown>>;
    for (const headers of [oursHeaders!, theirsHeaders!]) {
      expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
      expect(Object.keys(headers)).toEqual(['__proto__', 'a']);
    }
    // kafkajs reads the name's earlier value through the prototype, so the value it keeps is [Object.prototype, value]: kept as it is.
    expect(Object.getOwnPropertyDescriptor(oursHeaders, '__proto__')?.value).toEqual(Object.getOwnPropertyDescriptor(theirsHeaders, '__proto__')?.value);
  });

  it('decodes what kafkajs decodes for random records and batches', () => {
    const next = createRandom(2027);
    for (let round = 0; round < 300; round++) {
      const headers: Record<string, string | Buffer | string[]> = {};
      for (let index = Math.floor(next() * 9); index > 0; index--) {
        const name = randomText(next, Math.floor(next() * 12));
        headers[name] = next() < 0.2 ? [randomText(next, 5), randomText(next, 0)] : next() < 0.5 ? randomText(next, Math.floor(next() * 200)) : Buffer.from(randomText(next, Math.floor(next() * 40)));
      }
      const record = {
        offsetDelta: Math.floor(next() * 100_000),
        timestampDelta: Math.floor((next() - 0.3) * 10 ** Math.floor(next() * 17)),
        key: next() < 0.2 ? null : randomText(next, Math.floor(next() * 60)),
        value: next() < 0.1 ? null : Buffer.from(randomText(next, Math.floor(next() * 3_000))),
        headers,
      };
      const context = batch({
        firstOffset: String(Math.floor(next() * 10 ** Math.floor(next() * 16))),
        firstTimestamp: String(Math.floor((next() - 0.1) * 10 ** Math.floor(next() * 16))),
        timestampType: next() < 0.1 ? 1 : 0,
      });
      expectSameRecord(record, context);
    }
  });

  it('is the record decoder kafkajs\'s batch decoder loads', async () => {
    await import('./kafkajs-replacements.ts');
    const loaded = require('kafkajs/src/protocol/recordBatch/record/v0/decoder.js') as typeof decodeRecord & Record<symbol, unknown>;
    expect(loaded[Symbol.for('skrya.kafkajs.recordDecoder')]).toBe(true);
  });
});
