import { STOP_WORDS } from './stop-words.ts';

/**
 * Word tokens for matching: NFKC + lower-case folded, split into words by `Intl.Segmenter` so
 * Chinese and Japanese are segmented, then cut at any character that is not a letter, digit or
 * mark ("node.js" → node, js; "v1.30" → v1, 30; "snake_case" → snake, case) so every path agrees
 * on the same tokens. Text whose letters and digits are all ASCII skips the segmenter: for such text the
 * segmenter's word boundaries reduce to the same ASCII runs, at a tenth of the cost.
 */
const WORD_SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });
const ASCII_WORD = /[a-z0-9]+/g;
const NOT_WORD_CHARACTER = /[^\p{L}\p{N}\p{M}]+/u;
const NON_ASCII_WORD_CHARACTER = /(?!\p{ASCII})[\p{L}\p{N}\p{M}]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

// eslint-disable-next-line no-control-regex -- the class is all of ASCII, its control characters included
const NON_ASCII = /[^\x00-\x7f]/;
/** Up to this length a text is checked by counting its UTF-8 bytes; a longer one by searching for a non-ASCII character. */
const BYTE_COUNT_MAX_LENGTH = 1024;

/**
 * ASCII is its own NFKC form, and a scan for it costs far less than ICU's normalization (most text
 * here is ASCII). A short text (a title, a snippet: most calls) is ASCII when each character is one
 * byte of UTF-8, which Node counts with SIMD at less than half the cost of a regular expression; a
 * long one is searched for a non-ASCII character instead, which stops at the first (counting the
 * bytes of a 100k-character Chinese page took 100 µs, the search 1 µs).
 */
export function isAsciiText(text: string): boolean {
  return text.length <= BYTE_COUNT_MAX_LENGTH ? Buffer.byteLength(text, 'utf8') === text.length : !NON_ASCII.test(text);
}

export function foldText(text: string): string {
  return (isAsciiText(text) ? text : text.normalize('NFKC')).toLowerCase();
}

/** Whether the tokens of a folded text are its [a-z0-9] runs: no letter, digit or mark in it lies outside ASCII. */
export function tokenizesAsAscii(folded: string): boolean {
  return isAsciiText(folded) || !NON_ASCII_WORD_CHARACTER.test(folded);
}

function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * Whether `token` is one of the tokens of a folded text that tokenizesAsAscii: an occurrence not
 * inside a longer [a-z0-9] run. Finds it without splitting the text into a string a token.
 */
export function hasAsciiToken(folded: string, token: string): boolean {
  for (let at = folded.indexOf(token); at !== -1; at = folded.indexOf(token, at + 1)) {
    if (!isAsciiWordCode(folded.charCodeAt(at - 1)) && !isAsciiWordCode(folded.charCodeAt(at + token.length))) return true;
  }
  return false;
}

/** Tokens of text that is already folded (see `foldText`), stop words included. */
export function tokenizeFolded(folded: string): string[] {
  if (tokenizesAsAscii(folded)) return folded.match(ASCII_WORD) ?? [];
  const tokens: string[] = [];
  for (const segment of WORD_SEGMENTER.segment(folded)) {
    if (!segment.isWordLike) continue;
    for (const part of segment.segment.split(NOT_WORD_CHARACTER)) if (part !== '') tokens.push(part);
  }
  return tokens;
}

/** Tokens of any text, stop words included. */
export function tokenize(text: string): string[] {
  return tokenizeFolded(foldText(text));
}

export function isStopWord(token: string): boolean {
  return STOP_WORDS.has(token);
}

/** True for Han, kana and Hangul tokens, which are matched as substrings (segmentation varies with context). */
export function isCjkTerm(term: string): boolean {
  return CJK.test(term);
}

/**
 * The distinct content terms of a query: tokens without stop words, where runs of single CJK
 * characters that stood next to each other are joined again (the segmenter cuts "官网" into
 * 官 | 网 out of context; "官网" as one substring is the meaningful term).
 */
export function queryTerms(query: string): string[] {
  const folded = foldText(query);
  const terms: string[] = [];
  let pendingCjkRun = '';
  let pendingEnd = -1;
  const flushRun = () => {
    if (pendingCjkRun !== '' && !isStopWord(pendingCjkRun)) terms.push(pendingCjkRun);
    pendingCjkRun = '';
  };
  for (const segment of WORD_SEGMENTER.segment(folded)) {
    if (!segment.isWordLike) {
      flushRun();
      continue;
    }
    const isSingleCjk = [...segment.segment].length === 1 && isCjkTerm(segment.segment) && !isStopWord(segment.segment);
    if (isSingleCjk) {
      if (segment.index !== pendingEnd) flushRun();
      pendingCjkRun += segment.segment;
      pendingEnd = segment.index + segment.segment.length;
      continue;
    }
    flushRun();
    for (const part of segment.segment.split(NOT_WORD_CHARACTER)) {
      if (part !== '' && !isStopWord(part)) terms.push(part);
    }
  }
  flushRun();
  return [...new Set(terms)];
}
