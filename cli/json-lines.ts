import { SkryaError } from '../runtime/errors.ts';

/** One non-empty input line parsed as JSON, and where it stands (for messages). */
export interface JsonLine {
  json: unknown;
  where: string;
  line: number;
}

/** One line as JSON (null for a blank line); a line that is not JSON is INVALID_INPUT naming it and the shape every line must have. */
export function parseJsonLine(content: string, lineNumber: number, sourceLabel: string, expectedShape: string): JsonLine | null {
  if (content.trim() === '') return null;
  const where = `${sourceLabel} line ${lineNumber}`;
  try {
    return { json: JSON.parse(content), where, line: lineNumber };
  } catch (error) {
    throw new SkryaError('INVALID_INPUT', `${where} is not JSON (${error instanceof Error ? error.message : String(error)}): each line must be ${expectedShape}`, { details: { line: lineNumber } });
  }
}

/** Each non-empty line of `text` as JSON (see parseJsonLine). */
export function jsonLines(text: string, sourceLabel: string, expectedShape: string): JsonLine[] {
  const lines: JsonLine[] = [];
  text.split('\n').forEach((content, index) => {
    const parsed = parseJsonLine(content, index + 1, sourceLabel, expectedShape);
    if (parsed !== null) lines.push(parsed);
  });
  return lines;
}

/** One line of a byte stream: its text, its 1-based number and where its bytes are (to read it again later instead of holding it). */
export interface LineSpan {
  text: string;
  line: number;
  offset: number;
  length: number;
}

const NEWLINE = 0x0a;

/**
 * The lines of a byte stream as they arrive, a chunk's worth at a time, split on '\n' like
 * `jsonLines` (so line numbers agree) and each decoded alone: a '\n' byte is never inside a UTF-8
 * sequence, so that gives the text decoding the whole stream would. Only a line cut across
 * chunks is copied.
 */
export async function* streamLineSpans(chunks: AsyncIterable<Buffer>): AsyncGenerator<LineSpan[]> {
  let carried: Buffer = Buffer.alloc(0);
  let carriedOffset = 0;
  let position = 0;
  let line = 0;
  for await (const chunk of chunks) {
    const spans: LineSpan[] = [];
    let start = 0;
    for (let end = chunk.indexOf(NEWLINE); end !== -1; end = chunk.indexOf(NEWLINE, start)) {
      const bytes = carried.length === 0 ? chunk.subarray(start, end) : Buffer.concat([carried, chunk.subarray(start, end)]);
      spans.push({ text: bytes.toString('utf8'), line: ++line, offset: carried.length === 0 ? position + start : carriedOffset, length: bytes.length });
      carried = Buffer.alloc(0);
      start = end + 1;
    }
    if (start < chunk.length) {
      if (carried.length === 0) carriedOffset = position + start;
      carried = Buffer.concat([carried, chunk.subarray(start)]);
    }
    position += chunk.length;
    yield spans;
  }
  yield [{ text: carried.toString('utf8'), line: line + 1, offset: carried.length === 0 ? position : carriedOffset, length: carried.length }];
}
