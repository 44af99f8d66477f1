import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { kafkajsOriginal } from '../test/support/kafkajs-original.ts';
import { createRandom, randomText } from '../test/support/random-text.ts';
import { frameRequest } from './kafkajs-request-encoding.ts';

const require = createRequire(import.meta.url);

interface Encoder {
  buf: Buffer;
  offset: number;
  ensureAvailable(length: number): void;
  writeInt8(value: number): Encoder;
  writeInt32(value: number): Encoder;
  writeInt64(value: number): Encoder;
  writeString(value: string | null): Encoder;
  writeBytes(value: Buffer): Encoder;
  writeVarIntString(value: string): Encoder;
  writeEncoder(value: Encoder): Encoder;
  readonly buffer: Buffer;
}
type EncoderClass = new (initialSize?: number) => Encoder;
type Framing = (options: { correlationId: number; clientId: string | null; request: { apiKey: number; apiVersion: number; encode(): Promise<Encoder> } }) => Promise<Encoder>;

const OriginalEncoder = kafkajsOriginal<EncoderClass>('kafkajs/src/protocol/encoder.js');
const kafkajsFraming = kafkajsOriginal<Framing>('kafkajs/src/protocol/request.js');

/** The same writes, of every kind and size, into an Encoder of the given class. */
function writeRandomly(EncoderOf: EncoderClass, seed: number): Buffer {
  const next = createRandom(seed);
  const encoder = new EncoderOf();
  for (let write = 0; write < 400; write++) {
    const kind = Math.floor(next() * 6);
    if (kind === 0) encoder.writeInt8(Math.floor(next() * 256) - 128);
    else if (kind === 1) encoder.writeInt32(Math.floor(next() * 2 ** 31));
    else if (kind === 2) encoder.writeInt64(Math.floor(next() * 2 ** 40));
    else if (kind === 3) encoder.writeString(next() < 0.1 ? null : randomText(next, Math.floor(next() * 300)));
    else if (kind === 4) encoder.writeBytes(Buffer.alloc(Math.floor(next() * 5_000), Math.floor(next() * 256)));
    else encoder.writeVarIntString(randomText(next, Math.floor(next() * 50)));
  }
  return encoder.buffer;
}

describe('kafkajs\'s Encoder, growing into uninitialized buffers', () => {
  it('holds the bytes kafkajs\'s own holds after the same writes, across many growths', async () => {
    await import('./kafkajs-replacements.ts');
    const Encoder = require('kafkajs/src/protocol/encoder.js') as EncoderClass;
    expect((Encoder.prototype as unknown as { ensureAvailable: Record<symbol, unknown> }).ensureAvailable[Symbol.for('skrya.kafkajs.encoderGrowth')]).toBe(true);
    for (const seed of [1, 2, 3, 2026]) {
      const ours = writeRandomly(Encoder, seed);
      expect(ours.length).toBeGreaterThan(100_000);
      expect(ours.equals(writeRandomly(OriginalEncoder, seed))).toBe(true);
    }
  });
});

describe('frameRequest (kafkajs\'s request framing, in one buffer)', () => {
  async function bothFramings(clientId: string | null, payloadBytes: number) {
    const request = {
      apiKey: 0,
      apiVersion: 3,
      encode: async () => new OriginalEncoder().writeString('skrya-scorer-0').writeBytes(Buffer.alloc(payloadBytes, 0x61)),
    };
    const ours = await frameRequest({ correlationId: 77_001, clientId, request });
    const theirs = await kafkajsFraming({ correlationId: 77_001, clientId, request });
    return { ours: ours.buffer, theirs: theirs.buffer };
  }

  it.each([
    ['a produce-sized request', 'skrya', 600_000],
    ['an empty payload', 'skrya', 0],
    ['a client id of many-byte characters', 'skrya-中文-🙂', 1_000],
    ['an empty client id', '', 10],
    ['no client id', null, 10],
  ])('writes the bytes kafkajs writes: %s', async (_name, clientId, payloadBytes) => {
    const { ours, theirs } = await bothFramings(clientId, payloadBytes);
    expect(ours.length).toBe(theirs.length);
    expect(ours.equals(theirs)).toBe(true);
  });

  it('is the framing kafkajs\'s connection loads', async () => {
    await import('./kafkajs-replacements.ts');
    const loaded = require('kafkajs/src/protocol/request.js') as Framing & Record<symbol, unknown>;
    expect(loaded[Symbol.for('skrya.kafkajs.requestFraming')]).toBe(true);
    const request = { apiKey: 18, apiVersion: 2, encode: async () => new OriginalEncoder().writeInt32(5) };
    expect((await loaded({ correlationId: 3, clientId: 'skrya', request })).buffer.equals((await kafkajsFraming({ correlationId: 3, clientId: 'skrya', request })).buffer)).toBe(true);
  });
});
