/**
 * kafkajs's record decoding, made cheaper before kafkajs loads (kafkajs-replacements.ts): the same
 * records at a fraction of the cost.
 *
 * kafkajs 2.2.4 (`src/protocol/recordBatch/record/v0/decoder.js`, unmaintained since 2023) works
 * out each record's offset and timestamp in 64-bit Long objects: the batch's first offset parsed
 * from its decimal string, the delta added, the sum printed again, and the timestamp delta's
 * varint read as a Long a byte at a time. It gathers the headers into an object by spreading the
 * object so far once per header. Every Skrya message carries seven headers: decoding records was a
 * tenth of the collector's event loop, most of it those two. Here the offset and timestamp are
 * added as numbers wherever both fit in 53 bits (Kafka's offsets and millisecond timestamps do;
 * anything larger takes kafkajs's Long arithmetic), and the headers are set one by one.
 */
import { createRequire } from 'node:module';
import { replaceKafkajsModule } from './kafkajs-module-cache.ts';

const require = createRequire(import.meta.url);

interface KafkajsLong {
  add(other: KafkajsLong): KafkajsLong;
  toString(): string;
}

/** What this reads of kafkajs's Decoder. */
interface KafkajsDecoder {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): KafkajsLong;
  readVarIntString(): string | null;
  readVarIntBytes(): Buffer | null;
  readVarIntArray<T>(reader: (decoder: KafkajsDecoder) => T): T[];
}

/** The batch's fields every record of it is decoded with (kafkajs's recordContext). */
interface BatchContext {
  firstOffset: string;
  firstTimestamp: string;
  maxTimestamp: string;
  magicByte: number;
  isControlBatch?: boolean;
  timestampType: number;
}

const Long = require('kafkajs/src/utils/long.js') as { fromValue(value: string): KafkajsLong; fromNumber(value: number): KafkajsLong };
const TimestampTypes = require('kafkajs/src/protocol/timestampTypes.js') as { LOG_APPEND_TIME: number };

/** Varint bytes whose value fits in a double exactly (7 × 7 = 49 bits). */
const EXACT_VARINT_BYTES = 7;

/**
 * The zig-zag varlong at the decoder's offset as a number, read past; null, with nothing read,
 * when it runs longer than EXACT_VARINT_BYTES (kafkajs's Long reader takes it then). A byte past
 * the buffer's end reads as 0, as kafkajs's reader has it.
 */
function readShortVarLong(decoder: KafkajsDecoder): number | null {
  const { buffer, offset } = decoder;
  let value = 0;
  let scale = 1;
  for (let index = 0; index < EXACT_VARINT_BYTES; index++) {
    const byte = buffer[offset + index] ?? 0;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      decoder.offset = offset + index + 1;
      return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
    }
    scale *= 0x80;
  }
  return null;
}

/** The decimal string `base` (an int64 as kafkajs prints it) plus `delta`, printed as kafkajs's Long prints it. */
function addToDecimal(base: string, delta: number | KafkajsLong): string {
  if (typeof delta === 'number') {
    const start = Number(base);
    const sum = start + delta;
    if (Number.isSafeInteger(start) && Number.isSafeInteger(sum)) return String(sum);
  }
  return Long.fromValue(base).add(typeof delta === 'number' ? Long.fromNumber(delta) : delta).toString();
}

const readHeader = (decoder: KafkajsDecoder) => ({ key: decoder.readVarIntString(), value: decoder.readVarIntBytes() });

/** kafkajs's record v0 decoder: the same record, its fields in the same order. */
export function decodeRecord(decoder: KafkajsDecoder, batchContext: BatchContext = {} as BatchContext): Record<string, unknown> {
  const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext;
  const attributes = decoder.readInt8();
  const timestampDelta = readShortVarLong(decoder) ?? decoder.readVarLong();
  const timestamp = timestampType === TimestampTypes.LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : addToDecimal(firstTimestamp, timestampDelta);
  const offset = addToDecimal(firstOffset, decoder.readVarInt());
  const key = decoder.readVarIntBytes();
  const value = decoder.readVarIntBytes();
  // A repeated header's values gather in an array, in order, as kafkajs gathers them.
  const headers: Record<string, unknown> = {};
  for (const header of decoder.readVarIntArray(readHeader)) {
    const name = String(header.key);
    const earlier = headers[name];
    const gathered = earlier === undefined ? header.value : Array.isArray(earlier) ? earlier.concat([header.value]) : [earlier, header.value];
    // A header named __proto__ is an own property, as kafkajs's object spread makes it, not the prototype.
    if (name === '__proto__') Object.defineProperty(headers, name, { value: gathered, writable: true, enumerable: true, configurable: true });
    else headers[name] = gathered;
  }
  return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord: isControlBatch, batchContext };
}

replaceKafkajsModule({
  file: 'kafkajs/src/protocol/recordBatch/record/v0/decoder.js',
  loadedBy: 'kafkajs/src/protocol/recordBatch/v0/decoder.js',
  replacement: decodeRecord.bind(null),
  marker: Symbol.for('skrya.kafkajs.recordDecoder'),
  replacedBy: 'runtime/kafkajs-record-decoding.ts',
});
