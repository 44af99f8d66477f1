import { SkryaError } from '../runtime/errors.ts';

/** One non-empty input line parsed as JSON, and where it stands (for messages). */
export interface JsonLine {
  json: unknown;
  where: string;
  line: number;
}

/** Each non-empty line of `text` as JSON; a line that is not JSON is INVALID_INPUT naming it and the shape every line must have. */
export function jsonLines(text: string, sourceLabel: string, expectedShape: string): JsonLine[] {
  const lines: JsonLine[] = [];
  text.split('\n').forEach((content, index) => {
    if (content.trim() === '') return;
    const where = `${sourceLabel} line ${index + 1}`;
    try {
      lines.push({ json: JSON.parse(content), where, line: index + 1 });
    } catch (error) {
      throw new SkryaError('INVALID_INPUT', `${where} is not JSON (${error instanceof Error ? error.message : String(error)}): each line must be ${expectedShape}`, { details: { line: index + 1 } });
    }
  });
  return lines;
}
