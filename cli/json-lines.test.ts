import { describe, expect, it } from 'vitest';
import { jsonLines, lineBatches, type LineBatch } from './json-lines.ts';

/** The text's UTF-8 bytes cut at the given byte positions, as a stream would deliver them. */
async function* chunked(text: string, cuts: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(start, cut);
    start = cut;
  }
}

interface Line {
  text: string;
  line: number;
}

/** Every line of the batches (a batch's last line only in the last batch), with its number as the batch gives it. */
async function linesOf(batches: AsyncIterable<LineBatch>): Promise<{ lines: Line[]; batches: LineBatch[] }> {
  const lines: Line[] = [];
  const all: LineBatch[] = [];
  for await (const batch of batches) {
    all.push(batch);
    const bytes = Buffer.from(batch.bytes);
    const texts = bytes.toString('utf8').split('\n');
    if (!batch.last) expect(texts.pop()).toBe('');
    texts.forEach((text, index) => {
      lines.push({ text, line: batch.firstLine + index });
    });
  }
  return { lines, batches: all };
}

describe('lineBatches', () => {
  it.each([
    ['lines cut across chunks', '{"a":1}\n{"b":2}\n\n{"c":3}', [4, 18], 1],
    ['a chunk ending on the newline', '{"a":1}\n{"b":2}\n\n{"c":3}', [8], 1],
    ['one chunk', '{"a":1}\n{"b":2}\n\n{"c":3}', [], 1],
    ['a character cut across chunks', '{"t":"é"}\n{"u":"日本"}\n', [7, 20, 21], 1],
    ['a text ending on a newline', '{"a":1}\n', [], 1],
    ['batches larger than every chunk', '{"a":1}\n{"b":2}\n\n{"c":3}\n{"d":4}\n', [3, 9, 12, 20, 26], 12],
    ['an empty text', '', [], 1],
  ])('gives the same lines, numbered the same, as splitting the whole text (%s)', async (_name, text, cuts, batchBytes) => {
    const { lines, batches } = await linesOf(lineBatches(chunked(text, cuts), batchBytes));
    expect(lines.map((entry) => entry.text)).toEqual(text.split('\n'));
    expect(lines.map((entry) => entry.line)).toEqual(text.split('\n').map((_line, index) => index + 1));
    expect(batches.map((batch) => batch.last)).toEqual(batches.map((_batch, index) => index === batches.length - 1));
    // Each batch has a buffer of its own, so it can be handed to another thread.
    expect(new Set(batches.map((batch) => batch.bytes.buffer)).size).toBe(batches.length);
    for (const batch of batches) expect(batch.bytes.byteOffset).toBe(0);
  });

  it('gives the same lines from a stream that fills one buffer again for every chunk (as a file is read)', async () => {
    const text = Array.from({ length: 40 }, (_line, index) => `{"n":${index},"t":"${'é'.repeat(index % 7)}"}`).join('\n');
    async function* oneBuffer(): AsyncGenerator<Buffer> {
      const bytes = Buffer.from(text);
      const buffer = Buffer.alloc(9);
      for (let start = 0; start < bytes.length; start += buffer.length) {
        const length = bytes.copy(buffer, 0, start, start + buffer.length);
        yield buffer.subarray(0, length);
        // What the consumer did not copy before asking for the next chunk is lost.
        buffer.fill(0x21);
      }
    }
    const { lines } = await linesOf(lineBatches(oneBuffer(), 50));
    expect(lines.map((entry) => entry.text)).toEqual(text.split('\n'));
  });

  it('asks for a larger buffer when a line outgrows the one it was given, and keeps its bytes', async () => {
    const long = `{"t":"${'x'.repeat(200)}"}`;
    const text = `{"a":1}\n${long}\n{"b":2}`;
    const asked: number[] = [];
    const batches = lineBatches(chunked(text, [5, 30, 60, 120, 180]), 16, (size) => {
      asked.push(size);
      return new ArrayBuffer(size);
    });
    const { lines } = await linesOf(batches);
    expect(lines.map((entry) => entry.text)).toEqual(text.split('\n'));
    expect(Math.max(...asked)).toBeGreaterThanOrEqual(long.length);
  });

  it('cuts a batch once it reaches the batch size', async () => {
    const text = Array.from({ length: 20 }, (_line, index) => `{"n":${index}}`).join('\n');
    const { batches } = await linesOf(lineBatches(chunked(text, Array.from({ length: 40 }, (_cut, index) => index * 5 + 5)), 30));
    expect(batches.length).toBeGreaterThan(5);
    expect(batches.length).toBeLessThan(20);
  });

  it('numbers lines as jsonLines does, blank lines counted', async () => {
    const text = '{"a":1}\n{"b":2}\n\n{"c":3}';
    const { lines } = await linesOf(lineBatches(chunked(text, [3]), 4));
    expect(lines.filter((entry) => entry.text !== '').map((entry) => entry.line)).toEqual(jsonLines(text, 'f', 'x').map((entry) => entry.line));
  });
});
