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

/**
 * Whole lines of a byte stream, in order: `bytes` (a buffer of its own, so it can be handed to
 * another thread) starts at line `firstLine` (1-based, numbered as `jsonLines` numbers them) and
 * ends with a '\n', except in the last batch, which holds
 * what follows the stream's last '\n' (maybe nothing) as its last line.
 */
export interface LineBatch {
  bytes: Uint8Array<ArrayBuffer>;
  firstLine: number;
  last: boolean;
}

const NEWLINE = 0x0a;

function countNewlines(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let count = 0;
  for (let at = buffer.indexOf(NEWLINE); at !== -1; at = buffer.indexOf(NEWLINE, at + 1)) count++;
  return count;
}

/**
 * A byte stream's lines in batches of about `batchBytes`: a batch ends at the last line end of the
 * chunk that brings it to that size. `space` gives each batch's bytes a place (a caller may reuse
 * the buffers of batches it is done with).
 */
export async function* lineBatches(chunks: AsyncIterable<Buffer>, batchBytes: number, space: (size: number) => Uint8Array<ArrayBuffer> = (size) => new Uint8Array(size)): AsyncGenerator<LineBatch> {
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  let firstLine = 1;
  const batch = (size: number, last: boolean): LineBatch => {
    const bytes = space(size);
    let at = 0;
    for (const part of gathered) {
      bytes.set(part, at);
      at += part.length;
    }
    const made = { bytes, firstLine, last };
    firstLine += countNewlines(bytes);
    return made;
  };
  for await (const chunk of chunks) {
    gathered.push(chunk);
    gatheredBytes += chunk.length;
    const lastNewline = gatheredBytes < batchBytes ? -1 : chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) continue;
    const rest = chunk.subarray(lastNewline + 1);
    gathered[gathered.length - 1] = chunk.subarray(0, lastNewline + 1);
    yield batch(gatheredBytes - rest.length, false);
    gathered = [rest];
    gatheredBytes = rest.length;
  }
  yield batch(gatheredBytes, true);
}
