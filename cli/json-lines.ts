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
 * chunk that brings it to that size. Each chunk is copied into its batch as it comes, so a stream
 * may fill a chunk's buffer again once the next chunk is asked for. `space` gives a batch a buffer
 * of at least the bytes asked for (a caller may hand out again the buffers of batches it is done
 * with); a batch's `bytes` are a view of the start of it.
 */
export async function* lineBatches(chunks: AsyncIterable<Buffer>, batchBytes: number, space: (size: number) => ArrayBuffer = (size) => new ArrayBuffer(size)): AsyncGenerator<LineBatch> {
  let bytes = new Uint8Array(space(batchBytes));
  let used = 0;
  let firstLine = 1;
  for await (const chunk of chunks) {
    if (used + chunk.length > bytes.length) {
      // A line longer than a batch (or a chunk larger than the room left): a larger buffer, the bytes so far copied over.
      const larger = new Uint8Array(space(Math.max(used + chunk.length, 2 * bytes.length)));
      larger.set(bytes.subarray(0, used));
      bytes = larger;
    }
    bytes.set(chunk, used);
    used += chunk.length;
    const lastNewline = used < batchBytes ? -1 : chunk.lastIndexOf(NEWLINE);
    if (lastNewline === -1) continue;
    const end = used - chunk.length + lastNewline + 1;
    // What follows the batch's last line end starts the next batch.
    const next = new Uint8Array(space(Math.max(batchBytes, used - end)));
    next.set(bytes.subarray(end, used));
    const batch = { bytes: bytes.subarray(0, end), firstLine, last: false };
    firstLine += countNewlines(batch.bytes);
    bytes = next;
    used -= end;
    yield batch;
  }
  yield { bytes: bytes.subarray(0, used), firstLine, last: true };
}
