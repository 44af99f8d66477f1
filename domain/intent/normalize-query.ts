import { createMappedTextBuilder, type MappedText } from './mapped-text.ts';

// Built on first use: creating a grapheme segmenter loads ICU's break rules, a good part of a
// classify run's start-up, and most queries never need it (graphemesOf).
let segmenter: Intl.Segmenter | undefined;

/**
 * Characters that are always a grapheme of their own (Grapheme_Cluster_Break Other or Control: no
 * combining marks, joiners, Hangul jamo or regional indicators): ASCII and Latin-1, general
 * punctuation, CJK symbols (but not the tone marks U+302A-F) and ideographs, full-width forms.
 */
const STANDALONE_RANGES: ReadonlyArray<readonly [number, number]> = [[0x0000, 0x00ff], [0x2010, 0x2027], [0x3000, 0x3029], [0x3030, 0x303f], [0x3400, 0x4dbf], [0x4e00, 0x9fff], [0xff01, 0xff5e]];

function standaloneOnly(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (!STANDALONE_RANGES.some(([first, last]) => code >= first && code <= last)) return false;
  }
  return true;
}

/**
 * The graphemes of a text with their offsets, as Intl.Segmenter gives them: a text of standalone
 * characters alone is split without it, one character a grapheme but CR LF, which is one.
 */
export function graphemesOf(text: string): Iterable<{ segment: string; index: number }> {
  if (!standaloneOnly(text)) return (segmenter ??= new Intl.Segmenter('und', { granularity: 'grapheme' })).segment(text);
  const graphemes: Array<{ segment: string; index: number }> = [];
  for (let index = 0; index < text.length; ) {
    const segment = text.startsWith('\r\n', index) ? '\r\n' : text.charAt(index);
    graphemes.push({ segment, index });
    index += segment.length;
  }
  return graphemes;
}

const APOSTROPHES = /[\u2018\u2019\u02bc\u0060\u00b4]/gu;

/**
 * The text signals are matched on: NFKC (full-width letters, digits and punctuation become ASCII),
 * lower case unless `keepCase`, typographic apostrophes as ', runs of whitespace as one space,
 * trimmed. Each grapheme is normalised on its own so every derived unit maps back to the typed query.
 */
export function normalizeQuery(query: string, options: { keepCase?: boolean } = {}): MappedText {
  const builder = createMappedTextBuilder();
  for (const { segment, index } of graphemesOf(query)) {
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
