import { createMappedTextBuilder, type MappedText } from './mapped-text.ts';

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/gu;

/**
 * The text signals are matched on: NFKC (full-width letters, digits and punctuation become ASCII),
 * lower case unless `keepCase`, typographic apostrophes as ', runs of whitespace as one space,
 * trimmed. Each grapheme is normalised on its own so every derived unit maps back to the typed query.
 */
export function normalizeQuery(query: string, options: { keepCase?: boolean } = {}): MappedText {
  const builder = createMappedTextBuilder();
  for (const { segment, index } of graphemes.segment(query)) {
    const compatible = segment.normalize('NFKC');
    const normalized = (options.keepCase === true ? compatible : compatible.toLowerCase()).replace(APOSTROPHES, "'");
    const origin = [index, index + segment.length] as const;
    if (/^\s+$/u.test(normalized)) {
      const previous = builder.lastChar();
      if (previous !== undefined && previous !== ' ') builder.append(' ', origin);
      continue;
    }
    builder.append(normalized, origin);
  }
  const mapped = builder.build();
  if (!mapped.text.endsWith(' ')) return mapped;
  return { text: mapped.text.slice(0, -1), origins: mapped.origins.slice(0, -1) };
}

/** The query as it is searched: NFKC, whitespace collapsed, case kept. */
export function tidyQuery(query: string): string {
  return query.normalize('NFKC').replace(APOSTROPHES, "'").replace(/\s+/gu, ' ').trim();
}
