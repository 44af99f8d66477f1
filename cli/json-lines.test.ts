import { describe, expect, it } from 'vitest';
import { jsonLines, streamLines } from './json-lines.ts';

async function* chunked(parts: string[]): AsyncGenerator<string> {
  for (const part of parts) yield part;
}

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const result: string[] = [];
  for await (const line of lines) result.push(line);
  return result;
}

describe('streamLines', () => {
  it.each([
    ['lines cut across chunks', ['{"a"', ':1}\n{"b":2}\n', '\n{"c"', ':3}']],
    ['a chunk ending on the newline', ['{"a":1}\n', '{"b":2}\n\n{"c":3}']],
    ['one chunk', ['{"a":1}\n{"b":2}\n\n{"c":3}']],
  ])('gives the same lines, numbered the same, as splitting the whole text (%s)', async (_name, parts) => {
    const whole = parts.join('');
    expect(await collect(streamLines(chunked(parts)))).toEqual(whole.split('\n'));
    expect(jsonLines(whole, 'f', 'x').map((entry) => entry.line)).toEqual([1, 2, 4]);
  });
});
