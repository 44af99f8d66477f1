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
 * The lines of a text stream as they arrive (split on '\n' like `jsonLines`, so line numbers
 * agree), holding one chunk at a time instead of the whole file.
 */
export async function* streamLines(chunks: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const chunk of chunks) {
    const text = pending + chunk;
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield text.slice(start, end);
      start = end + 1;
    }
    pending = text.slice(start);
  }
  yield pending;
}
