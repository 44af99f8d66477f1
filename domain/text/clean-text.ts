/**
 * A whitespace run that is not already one plain space: in prose most runs are, and replacing only
 * the others gives the same text as replacing every `\s+`, about ten times faster on a feed entry.
 * Written as "not a lone space, then the run" rather than `\s{2,}|[^\S ]`: the same matches, and
 * V8's engine rejects the lone spaces of prose faster through the lookahead (0.7 against 1.4 µs for
 * a feed entry's text).
 */
export const UNCOLLAPSED_WHITESPACE = /(?! (?!\s))\s+/g;

/** Whitespace collapsed, trimmed. */
export function cleanText(value: unknown): string {
  return typeof value === 'string' ? value.replace(UNCOLLAPSED_WHITESPACE, ' ').trim() : '';
}

/** A snippet of at most `max` characters, cut at a word boundary. */
export function snippetOf(text: string, max = 300): string {
  const clean = cleanText(text);
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > max * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}

/** Host name without "www.", for the `source` of a result. */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, '');
  } catch {
    return '';
  }
}
