/**
 * kafkajs's record encoding, made cheaper before kafkajs loads (kafkajs-replacements.ts): the same
 * bytes at a fraction of the cost.
 *
 * kafkajs 2.2.4 (`src/protocol/recordBatch/record/v0`, unmaintained since 2023) encodes each header
 * into an Encoder of its own (a zero-filled 512-byte buffer) and copies it into the record's, which
 * starts at 512 bytes and is re-allocated to fit the value; every varint it writes is a Buffer of
 * its own as well. Every Skrya message carries seven headers: a scored item (2.8 kB) cost 28 µs to
 * encode against 6 µs without headers, and the scorer produces ten records for each input. Here
 * the record's size is worked out first and the record written into one buffer.
 *
 * Its batch checksum (`src/protocol/recordBatch/crc32C`, CRC-32C a byte at a time in JavaScript)
 * took another 10 µs a scored item; @node-rs/crc32's native crc32c takes a twelfth of that. Where
 * its prebuilt binary does not load (a platform it has none for), kafkajs's own stays.
 */
import { createRequire } from 'node:module';
import { replaceKafkajsModule } from './kafkajs-module-cache.ts';

const require = createRequire(import.meta.url);

/** What kafkajs's batch encoder reads of a record: an Encoder's buffer and the bytes written to it. */
interface KafkajsEncoder {
  buf: Buffer;
  offset: number;
  writeVarLong(value: unknown): KafkajsEncoder;
  readonly buffer: Buffer;
}

const Encoder = require('kafkajs/src/protocol/encoder.js') as { new (): KafkajsEncoder; prototype: KafkajsEncoder };

type Bytes = string | Buffer;

/** A record as kafkajs's produce request hands it to the record encoder. */
export interface RecordInput {
  offsetDelta?: number;
  timestampDelta?: number;
  key?: Bytes | null;
  value?: Bytes | null;
  headers?: Record<string, Bytes | Bytes[]>;
}

/** Zig-zag, as kafkajs's Encoder.encodeZigZag (32-bit). */
const zigZag = (value: number) => (value << 1) ^ (value >> 31);

function sizeOfUnsignedVarInt(value: number): number {
  let bytes = 1;
  for (let rest = value; (rest & 0xffffff80) !== 0; rest >>>= 7) bytes++;
  return bytes;
}

function writeUnsignedVarInt(buffer: Buffer, at: number, value: number): number {
  let position = at;
  let rest = value;
  while ((rest & 0xffffff80) !== 0) {
    buffer[position++] = (rest & 0x7f) | 0x80;
    rest >>>= 7;
  }
  buffer[position++] = rest & 0x7f;
  return position;
}

/**
 * The timestamp delta's varlong: for a 32-bit integer the 32-bit zig-zag, read unsigned, is the
 * 64-bit one; any other delta (a message with a timestamp of its own 25 days or more from the
 * batch's first) is encoded by kafkajs's own writer.
 */
function varLongBytes(value: number): Buffer | number {
  return (value | 0) === value ? zigZag(value) >>> 0 : new Encoder().writeVarLong(value).buffer;
}

function byteLengthOf(bytes: Bytes | null | undefined): number {
  return bytes === null || bytes === undefined ? -1 : Buffer.byteLength(bytes);
}

/** A field kafkajs writes as a varint length then the bytes, null as length -1. */
function sizeOfLengthPrefixed(length: number): number {
  return length < 0 ? 1 : sizeOfUnsignedVarInt(zigZag(length)) + length;
}

function writeLengthPrefixed(buffer: Buffer, at: number, bytes: Bytes | null | undefined, length: number): number {
  const position = writeUnsignedVarInt(buffer, at, zigZag(length));
  if (length < 0) return position;
  if (typeof bytes === 'string') buffer.write(bytes, position, length, 'utf8');
  else bytes!.copy(buffer, position);
  return position + length;
}

/** A record (kafkajs's record v0 layout): body length, attributes, deltas, key, value, headers. */
export function encodeRecord({ offsetDelta = 0, timestampDelta = 0, key, value, headers = {} }: RecordInput): KafkajsEncoder {
  const headerKeys: string[] = [];
  const headerValues: Bytes[] = [];
  for (const name of Object.keys(headers)) {
    const entry = headers[name]!;
    for (const item of Array.isArray(entry) ? entry : [entry]) {
      headerKeys.push(name);
      headerValues.push(item);
    }
  }
  const keyLength = byteLengthOf(key);
  const valueLength = byteLengthOf(value);
  const timestamp = varLongBytes(timestampDelta);
  const headerKeyLengths = headerKeys.map((name) => Buffer.byteLength(name));
  // A null or missing header value throws here, as it does in kafkajs.
  const headerValueLengths = headerValues.map((headerValue) => Buffer.byteLength(headerValue));
  let bodySize = 1 + (typeof timestamp === 'number' ? sizeOfUnsignedVarInt(timestamp) : timestamp.length) + sizeOfUnsignedVarInt(zigZag(offsetDelta));
  bodySize += sizeOfLengthPrefixed(keyLength) + sizeOfLengthPrefixed(valueLength) + sizeOfUnsignedVarInt(zigZag(headerKeys.length));
  for (let index = 0; index < headerKeys.length; index++) bodySize += sizeOfLengthPrefixed(headerKeyLengths[index]!) + sizeOfLengthPrefixed(headerValueLengths[index]!);

  const buffer = Buffer.allocUnsafe(sizeOfUnsignedVarInt(zigZag(bodySize)) + bodySize);
  let position = writeUnsignedVarInt(buffer, 0, zigZag(bodySize));
  // No record attributes are used.
  buffer[position++] = 0;
  if (typeof timestamp === 'number') position = writeUnsignedVarInt(buffer, position, timestamp);
  else position += timestamp.copy(buffer, position);
  position = writeUnsignedVarInt(buffer, position, zigZag(offsetDelta));
  position = writeLengthPrefixed(buffer, position, key, keyLength);
  position = writeLengthPrefixed(buffer, position, value, valueLength);
  position = writeUnsignedVarInt(buffer, position, zigZag(headerKeys.length));
  for (let index = 0; index < headerKeys.length; index++) {
    position = writeLengthPrefixed(buffer, position, headerKeys[index], headerKeyLengths[index]!);
    position = writeLengthPrefixed(buffer, position, headerValues[index], headerValueLengths[index]!);
  }
  // An Encoder holding the record, as kafkajs's batch encoder takes it.
  return Object.assign(Object.create(Encoder.prototype) as KafkajsEncoder, { buf: buffer, offset: position });
}

replaceKafkajsModule({
  file: 'kafkajs/src/protocol/recordBatch/record/v0/index.js',
  loadedBy: 'kafkajs/src/protocol/requests/produce/v3/request.js',
  replacement: encodeRecord.bind(null),
  marker: Symbol.for('skrya.kafkajs.recordEncoder'),
  replacedBy: 'runtime/kafkajs-record-encoding.ts',
});

/** @node-rs/crc32's crc32c, or null where its native binary cannot be loaded. */
function nativeCrc32c(): ((bytes: Buffer) => number) | null {
  try {
    return (require('@node-rs/crc32') as { crc32c(bytes: Buffer): number }).crc32c;
  } catch {
    return null;
  }
}

const crc32c = nativeCrc32c();
if (crc32c !== null) {
  replaceKafkajsModule({
    file: 'kafkajs/src/protocol/recordBatch/crc32C/index.js',
    loadedBy: 'kafkajs/src/protocol/recordBatch/v0/index.js',
    // kafkajs's checksum takes one argument and returns it unsigned, as crc32c does with no initial state.
    replacement: (bytes: Buffer) => crc32c(bytes),
    marker: Symbol.for('skrya.kafkajs.batchChecksum'),
    replacedBy: 'runtime/kafkajs-record-encoding.ts',
  });
}
