import { describe, expect, it } from 'vitest';
import { jsonLines, streamLineSpans, type LineSpan } from './json-lines.ts';

/** The text's UTF-8 bytes cut at the given byte positions, as a stream would deliver them. */
async function* chunked(text: string, cuts: number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(start, cut);
    start = cut;
  }
}

async function collect(batches: AsyncIterable<LineSpan[]>): Promise<LineSpan[]> {
  const result: LineSpan[] = [];
  for await (const spans of batches) result.push(...spans);
  return result;
}

describe('streamLineSpans', () => {
  it.each([
    ['lines cut across chunks', '{"a":1}\n{"b":2}\n\n{"c":3}', [4, 18]],
    ['a chunk ending on the newline', '{"a":1}\n{"b":2}\n\n{"c":3}', [8]],
    ['one chunk', '{"a":1}\n{"b":2}\n\n{"c":3}', []],
    ['a character cut across chunks', '{"t":"é"}\n{"u":"日本"}\n', [7, 20, 21]],
    ['a text ending on a newline', '{"a":1}\n', []],
  ])('gives the same lines, numbered the same, as splitting the whole text, and where each one\'s bytes are (%s)', async (_name, text, cuts) => {
    const bytes = Buffer.from(text);
    const spans = await collect(streamLineSpans(chunked(text, cuts)));
    expect(spans.map((span) => span.text)).toEqual(text.split('\n'));
    expect(spans.map((span) => span.line)).toEqual(text.split('\n').map((_line, index) => index + 1));
    expect(spans.map((span) => bytes.toString('utf8', span.offset, span.offset + span.length))).toEqual(text.split('\n'));
  });

  it('numbers lines as jsonLines does, blank lines counted', async () => {
    const text = '{"a":1}\n{"b":2}\n\n{"c":3}';
    const spans = await collect(streamLineSpans(chunked(text, [3])));
    expect(spans.filter((span) => span.text !== '').map((span) => span.line)).toEqual(jsonLines(text, 'f', 'x').map((entry) => entry.line));
  });
});
