/**
 * A string derived from a user's query that remembers, for each of its UTF-16 units, which range
 * of the original query it came from. Signals are matched on the derived text (normalised, typos
 * corrected) but reported with spans of the query the user actually typed.
 */
export interface MappedText {
  readonly text: string;
  /** origins[i] = [start, end) in the original query of the unit text[i]. */
  readonly origins: ReadonlyArray<readonly [number, number]>;
}

/** The original-query span [start, end) covered by derived span [start, end); empty spans stay empty. */
export function originalSpan(mapped: MappedText, start: number, end: number): [number, number] {
  const first = mapped.origins[start];
  const last = mapped.origins[end - 1];
  if (first === undefined || last === undefined || end <= start) {
    const at = mapped.origins[start]?.[0] ?? mapped.origins.at(-1)?.[1] ?? 0;
    return [at, at];
  }
  return [first[0], last[1]];
}

/** Builds a MappedText piece by piece; each appended piece is attributed to one original range. */
export function createMappedTextBuilder(): {
  append: (piece: string, origin: readonly [number, number]) => void;
  lastChar: () => string | undefined;
  build: () => MappedText;
} {
  let text = '';
  const origins: Array<readonly [number, number]> = [];
  return {
    append(piece, origin) {
      text += piece;
      for (let unit = 0; unit < piece.length; unit += 1) origins.push(origin);
    },
    lastChar: () => text.at(-1),
    build: () => ({ text, origins }),
  };
}
