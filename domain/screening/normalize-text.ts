/**
 * One pass over a field's text that produces the string every rule matches against:
 * NFKC, lower case, Latin diacritics folded, invisible characters removed, Cyrillic and Greek
 * lookalikes folded to Latin inside words that mix scripts. Whatever was invisible but carried
 * text (Unicode tag characters, variation-selector bytes, bidi-overridden runs) is decoded and
 * reported, and `offsets` maps every normalized index back to the original string, so evidence
 * always points at what the author actually wrote.
 */

export type HiddenRunKind = 'unicode_tags' | 'variation_selectors' | 'bidi_override';

export interface HiddenRun {
  kind: HiddenRunKind;
  /** Span in the original string (UTF-16 indices, end exclusive). */
  start: number;
  end: number;
  /** The decoded text: tag characters as ASCII, selector bytes as UTF-8, a bidi run as displayed. */
  text: string;
}

export interface Span {
  start: number;
  end: number;
}

export interface NormalizedText {
  original: string;
  text: string;
  /**
   * offsets[i] is the original index of text[i]; offsets[text.length] is original.length. Null when
   * every index maps to itself, which spares most pages an array as long as the text: exactly when
   * the original is plain ASCII (printable characters, tabs and line breaks; sanitizeField relies on it).
   */
  offsets: Int32Array | null;
  hiddenRuns: HiddenRun[];
  /** Original spans of zero-width characters sitting between two letters of one word. */
  wordSplits: Span[];
  /** Original spans of words that mix Latin with Cyrillic or Greek lookalikes. */
  mixedScriptWords: Span[];
}

const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad, 0x034f, 0x2061, 0x2062, 0x2063, 0x2064, 0x115f, 0x1160, 0x3164, 0xffa0]);
const BIDI_OVERRIDE_START = new Set([0x202d, 0x202e]);
const BIDI_CONTROL = new Set([0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]);
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/** Lookalikes that render as a Latin letter; keys are the original code points (both cases). */
const LOOKALIKES: ReadonlyMap<number, string> = new Map(
  Object.entries({
    // Cyrillic
    а: 'a', А: 'a', в: 'b', В: 'b', е: 'e', Е: 'e', ё: 'e', ѕ: 's', Ѕ: 's', і: 'i', І: 'i', ї: 'i', ј: 'j', Ј: 'j', о: 'o', О: 'o',
    р: 'p', Р: 'p', с: 'c', С: 'c', у: 'y', У: 'y', х: 'x', Х: 'x', һ: 'h', Һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w', Ԝ: 'w', ӏ: 'l', Ӏ: 'l',
    к: 'k', К: 'k', м: 'm', М: 'm', н: 'h', Н: 'h', т: 't', Т: 't', ү: 'y', ɡ: 'g', ı: 'i',
    // Greek
    α: 'a', Α: 'a', β: 'b', Β: 'b', ε: 'e', Ε: 'e', ζ: 'z', Ζ: 'z', η: 'n', Η: 'h', ι: 'i', Ι: 'i', κ: 'k', Κ: 'k', Μ: 'm', ν: 'v', Ν: 'n',
    ο: 'o', Ο: 'o', ρ: 'p', Ρ: 'p', τ: 't', Τ: 't', υ: 'u', Υ: 'y', χ: 'x', Χ: 'x', ϲ: 'c', Ϲ: 'c', ϳ: 'j',
  }).map(([char, latin]) => [char.codePointAt(0) ?? 0, latin]),
);

function isLatinLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

function isHan(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf);
}

/** Letters whose words a zero-width character has no business splitting (Persian and Indic need ZWNJ/ZWJ). */
function isSplittableLetter(code: number): boolean {
  return isLatinLetter(code) || isHan(code) || (code >= 0x30 && code <= 0x39);
}

function isWordCode(code: number): boolean {
  return isLatinLetter(code) || (code >= 0x30 && code <= 0x39) || code === 0x27 || code > 0x7f && !isSeparatorLike(code);
}

function isSeparatorLike(code: number): boolean {
  return (code >= 0x2000 && code <= 0x206f) || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xff0f) || code === 0xa0;
}

// Printable ASCII needs nothing but lower-casing; most English pages take this path.
const ONLY_PLAIN_ASCII = /^[\t\n\r\x20-\x7e]*$/;
const UTF16 = new TextDecoder('utf-16le');

export function normalizeText(original: string): NormalizedText {
  if (ONLY_PLAIN_ASCII.test(original)) {
    return { original, text: original.toLowerCase(), offsets: null, hiddenRuns: [], wordSplits: [], mixedScriptWords: [] };
  }
  return normalizeUnicode(original);
}

function normalizeUnicode(original: string): NormalizedText {
  // Output code units and, for each, the original index it came from. NFKC rarely expands a
  // character; the buffers grow when it does.
  let out = new Uint16Array(original.length + 16);
  let map = new Int32Array(original.length + 16);
  let length = 0;
  const hiddenRuns: HiddenRun[] = [];
  const wordSplits: Span[] = [];
  // Output positions of Cyrillic/Greek lookalikes; whole words are judged after the pass.
  const lookalikes: number[] = [];
  const foldCache = new Map<number, string>();

  let tagStart = -1;
  let tagText = '';
  let selectorStart = -1;
  let selectorBytes: number[] = [];
  let zeroWidthStart = -1;
  let overrideStart = -1;
  let overrideDepth = 0;

  const flushTags = (end: number) => {
    const precededByFlag = tagStart >= 2 && original.codePointAt(tagStart - 2) === BLACK_FLAG;
    // Subdivision flags (England, Scotland, Wales) are the one legitimate use of tag characters.
    if (!(precededByFlag && tagText.length <= 7)) hiddenRuns.push({ kind: 'unicode_tags', start: tagStart, end, text: tagText });
    tagStart = -1;
    tagText = '';
  };
  const flushSelectors = (end: number) => {
    // One selector picks an emoji or CJK glyph variant; a run of them is bytes smuggled past the eye.
    if (selectorBytes.length >= 4) hiddenRuns.push({ kind: 'variation_selectors', start: selectorStart, end, text: Buffer.from(selectorBytes).toString('utf8') });
    selectorStart = -1;
    selectorBytes = [];
  };
  const closeOverride = (end: number) => {
    const inner = original.slice(overrideStart, end).replace(/[\u202a-\u202e\u2066-\u2069]/g, '');
    hiddenRuns.push({ kind: 'bidi_override', start: overrideStart, end, text: [...inner].reverse().join('') });
    overrideStart = -1;
    overrideDepth = 0;
  };
  const grow = () => {
    const grownOut = new Uint16Array(out.length * 2);
    grownOut.set(out);
    out = grownOut;
    const grownMap = new Int32Array(map.length * 2);
    grownMap.set(map);
    map = grownMap;
  };
  /** A zero-width run between two letters of one word splits it: remembered as evidence. */
  const settleZeroWidth = (at: number, code: number) => {
    const previous = length > 0 ? (out[length - 1] ?? 0) : 0;
    if (isSplittableLetter(previous) && isSplittableLetter(code)) wordSplits.push({ start: zeroWidthStart, end: at });
    zeroWidthStart = -1;
  };

  for (let i = 0; i < original.length; ) {
    const code = original.charCodeAt(i);
    // The hot path: printable ASCII, copied lower-cased.
    if (code < 0x7f && (code >= 0x20 || code === 0x0a || code === 0x09 || code === 0x0d)) {
      if (tagStart >= 0) flushTags(i);
      if (selectorStart >= 0) flushSelectors(i);
      if (zeroWidthStart >= 0) settleZeroWidth(i, code);
      if (code === 0x0a && overrideStart >= 0) closeOverride(i);
      if (length >= out.length) grow();
      out[length] = code >= 0x41 && code <= 0x5a ? code + 32 : code;
      map[length++] = i++;
      continue;
    }
    // Next hottest: Han characters and CJK punctuation are NFKC-stable; full-width ASCII folds by offset.
    const cjk = (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3001 && code <= 0x303f) || (code >= 0x3400 && code <= 0x4dbf);
    if (cjk || (code >= 0xff01 && code <= 0xff5e)) {
      if (tagStart >= 0) flushTags(i);
      if (selectorStart >= 0) flushSelectors(i);
      const unit = cjk ? code : code - 0xfee0 >= 0x41 && code - 0xfee0 <= 0x5a ? code - 0xfee0 + 32 : code - 0xfee0;
      if (zeroWidthStart >= 0) settleZeroWidth(i, unit);
      if (length >= out.length) grow();
      out[length] = unit;
      map[length++] = i++;
      continue;
    }
    const point = original.codePointAt(i) ?? code;
    const next = i + (point > 0xffff ? 2 : 1);
    if (point >= 0xe0000 && point <= 0xe007f) {
      if (selectorStart >= 0) flushSelectors(i);
      if (tagStart < 0) tagStart = i;
      if (point >= 0xe0020 && point <= 0xe007e) tagText += String.fromCharCode(point - 0xe0000);
      i = next;
      if (point === CANCEL_TAG) flushTags(i);
      continue;
    }
    if (tagStart >= 0) flushTags(i);
    if ((point >= 0xfe00 && point <= 0xfe0f) || (point >= 0xe0100 && point <= 0xe01ef)) {
      if (selectorStart < 0) selectorStart = i;
      selectorBytes.push(point <= 0xfe0f ? point - 0xfe00 : point - 0xe0100 + 16);
      i = next;
      continue;
    }
    if (selectorStart >= 0) flushSelectors(i);
    if (ZERO_WIDTH.has(point)) {
      if (zeroWidthStart < 0) zeroWidthStart = i;
      i = next;
      continue;
    }
    if (BIDI_CONTROL.has(point)) {
      if (BIDI_OVERRIDE_START.has(point)) {
        if (overrideStart < 0) overrideStart = next;
        overrideDepth++;
      } else if (point === 0x202c && overrideStart >= 0 && --overrideDepth <= 0) {
        closeOverride(i);
      }
      i = next;
      continue;
    }
    // Remaining C0 and C1 controls carry nothing readable.
    if (point < 0x20 || (point >= 0x7f && point <= 0x9f)) {
      i = next;
      continue;
    }
    let folded: string;
    if (isHan(point)) {
      // Han characters are NFKC-stable and never lookalikes: copied as they are.
      folded = String.fromCharCode(point);
    } else {
      const cached = foldCache.get(point);
      folded = cached ?? foldCharacter(point);
      if (cached === undefined) foldCache.set(point, folded);
    }
    // Combining marks after a Latin letter are decoration (or Zalgo noise), not letters.
    if (folded.length > 0) {
      if (zeroWidthStart >= 0) settleZeroWidth(i, folded.charCodeAt(0));
      if (LOOKALIKES.has(point)) lookalikes.push(length);
      for (let k = 0; k < folded.length; k++) {
        if (length >= out.length) grow();
        out[length] = folded.charCodeAt(k);
        map[length++] = i;
      }
    }
    i = next;
  }
  if (tagStart >= 0) flushTags(original.length);
  if (selectorStart >= 0) flushSelectors(original.length);
  if (overrideStart >= 0) closeOverride(original.length);

  const mixedScriptWords = foldLookalikeWords(original, out, map, length, lookalikes);
  const offsets = new Int32Array(length + 1);
  offsets.set(map.subarray(0, length));
  offsets[length] = original.length;
  const text = UTF16.decode(out.subarray(0, length));
  return { original, text, offsets, hiddenRuns, wordSplits, mixedScriptWords };
}

/**
 * Folds lookalikes to Latin inside words that mix them with Latin letters ("іgnоre") or consist
 * only of lookalikes, and reports the mixed words. Words of real Greek or Cyrillic (which always
 * contain letters with no Latin twin) are left alone.
 */
function foldLookalikeWords(original: string, out: Uint16Array, map: Int32Array, length: number, lookalikes: readonly number[]): Span[] {
  const mixed: Span[] = [];
  let doneUntil = -1;
  for (const position of lookalikes) {
    if (position < doneUntil) continue;
    let start = position;
    while (start > 0 && isWordCode(out[start - 1] ?? 0)) start--;
    let end = position;
    while (end < length && isWordCode(out[end] ?? 0)) end++;
    doneUntil = end;
    let latin = 0;
    let lookalike = 0;
    for (let k = start; k < end; k++) {
      if (isLatinLetter(out[k] ?? 0)) latin++;
      else if (LOOKALIKES.has(original.codePointAt(map[k] ?? 0) ?? 0)) lookalike++;
    }
    if (!(latin > 0 || (lookalike === end - start && lookalike >= 2))) continue;
    for (let k = start; k < end; k++) {
      const folded = LOOKALIKES.get(original.codePointAt(map[k] ?? 0) ?? 0);
      if (folded !== undefined) out[k] = folded.charCodeAt(0);
    }
    if (latin > 0) mixed.push({ start: map[start] ?? 0, end: (map[end - 1] ?? 0) + 1 });
  }
  return mixed;
}

/** NFKC, lower case, and Latin letters stripped of diacritics (so "ìgnörè" reads as "ignore"). */
function foldCharacter(code: number): string {
  if (isHan(code) || (code >= 0x3040 && code <= 0x30ff) || (code >= 0xac00 && code <= 0xd7af)) return String.fromCodePoint(code);
  if (code >= 0x0300 && code <= 0x036f) return '';
  // Lookalikes stay as they are here; whole words decide whether they are folded.
  if (LOOKALIKES.has(code)) return String.fromCodePoint(code).toLowerCase();
  let text = String.fromCodePoint(code).normalize('NFKC');
  if ((code >= 0x00c0 && code <= 0x024f) || (code >= 0x1e00 && code <= 0x1eff)) text = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text;
}

/** Maps a normalized span back to the original string. */
export function toOriginalSpan(normalized: NormalizedText, start: number, end: number): Span {
  const from = originalIndex(normalized, Math.min(start, normalized.text.length)) ?? 0;
  const lastIndex = Math.max(start, end - 1);
  const lastOriginal = originalIndex(normalized, Math.min(lastIndex, normalized.text.length)) ?? normalized.original.length;
  const lastCode = normalized.original.codePointAt(lastOriginal) ?? 0;
  const to = end <= start ? from : Math.min(normalized.original.length, lastOriginal + (lastCode > 0xffff ? 2 : 1));
  return { start: from, end: to };
}

function originalIndex(normalized: NormalizedText, index: number): number | undefined {
  if (normalized.offsets !== null) return normalized.offsets[index];
  return Number.isInteger(index) && index >= 0 && index <= normalized.text.length ? index : undefined;
}
