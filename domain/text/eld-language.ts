/**
 * ELD's detected language (`eld.detect(text).language`, the small database) without the library's
 * per-call costs: it collects a text's byte n-grams as keys of a plain object and walks each
 * n-gram's per-language scores with `for…in` over integer keys, which allocates a string per
 * language: that was most of the detection's time, and detection over a third of parsing the stage
 * bench's feeds. Here the same n-grams go into a Set and each n-gram's scores are one typed array
 * (eld-database.ts), about four times faster on a 200-character sample.
 *
 * The answer is the library's, not an approximation: the same regular expression and byte
 * dictionary (ELD's own modules), the same word cut and n-grams, and a language's score is a sum
 * of integers (every database score is one), exact in any order, so the same scores and the same
 * winner (the first language with the highest positive score). Scores, reliability and the
 * library's other options are not reproduced: callers needing them call ELD.
 *
 * Port of eld 2.1.0 src/languageDetector.js (textProcessor, strToUtf8Bytes, getByteNgrams,
 * calculateScores, getMaxLang), Copyright 2023 Nito T.M., Apache-2.0. eld-language.test.ts holds
 * it to eld.detect on every corpus text and on random text, so an upgrade that changes them fails.
 */
import { eldModule, loadEldDatabase } from './eld-database.ts';

const { separators } = eldModule<{ separators: RegExp }>('regexPatterns.js');
const { dictionary } = eldModule<{ dictionary: readonly string[] }>('dictionary.js');
const database = loadEldDatabase();

/** The languages ELD knows (`eld.info().Languages`), as ISO 639-1 codes. */
export const ELD_LANGUAGES: readonly string[] = database.languages;
const LANGUAGE_COUNT = database.languages.length;
/** ELD reads no more of a text. */
const MAX_TEXT = 1_000;
/** Cut at the first space after this many UTF-8 bytes, or after any character past the next limit. */
const CUT_AFTER_BYTES = 350;
const ENFORCE_CUT_AFTER_BYTES = 380;
/** Longer words are read up to this many bytes. */
const MAX_WORD_BYTES = 70;

const { pairStarts, pairs } = database;
const scores = new Float64Array(LANGUAGE_COUNT);

/** A word's n-grams: four bytes at a stride of three, the first marked by a leading space, the last by a trailing one. */
function addNgrams(word: string, into: Set<string>): void {
  const length = word.length > MAX_WORD_BYTES ? MAX_WORD_BYTES : word.length;
  let at = 0;
  for (; at + 4 < length; at += 3) into.add((at === 0 ? ' ' : '') + word.substring(at, at + 4));
  into.add((at === 0 ? ' ' : '') + word.substring(length !== 3 ? length - 4 : 0) + ' ');
}

/** The distinct n-grams ELD scores a text by: its words as UTF-8 bytes (one dictionary character each), cut as ELD cuts them. */
function ngramsOf(text: string): Set<string> {
  const normalized = text.substring(0, MAX_TEXT).replace(separators, ' ').trim().toLowerCase();
  const ngrams = new Set<string>();
  let word = '';
  // ASCII characters stand for themselves: a run of them is appended as one slice.
  let asciiFrom = -1;
  let bytes = 0;
  let index = 0;
  for (; index < normalized.length; index++) {
    let code = normalized.charCodeAt(index);
    if (code < 0x80) {
      if (code === 32) {
        if (asciiFrom >= 0) word += normalized.slice(asciiFrom, index);
        asciiFrom = -1;
        if (word !== '') addNgrams(word, ngrams);
        word = '';
        if (bytes > CUT_AFTER_BYTES) break;
      } else if (asciiFrom < 0) asciiFrom = index;
      bytes += 1;
    } else {
      if (asciiFrom >= 0) word += normalized.slice(asciiFrom, index);
      asciiFrom = -1;
      if (code < 0x800) {
        word += dictionary[0xc0 | (code >> 6)]! + dictionary[0x80 | (code & 0x3f)]!;
        bytes += 2;
      } else if (code < 0xd800 || code >= 0xe000) {
        word += dictionary[0xe0 | (code >> 12)]! + dictionary[0x80 | ((code >> 6) & 0x3f)]! + dictionary[0x80 | (code & 0x3f)]!;
        bytes += 3;
      } else {
        index++;
        code = 0x10000 + (((code & 0x3ff) << 10) | (normalized.charCodeAt(index) & 0x3ff));
        word += dictionary[0xf0 | (code >> 18)]! + dictionary[0x80 | ((code >> 12) & 0x3f)]! + dictionary[0x80 | ((code >> 6) & 0x3f)]! + dictionary[0x80 | (code & 0x3f)]!;
        bytes += 4;
      }
    }
    if (bytes > ENFORCE_CUT_AFTER_BYTES) {
      index++;
      break;
    }
  }
  if (asciiFrom >= 0) word += normalized.slice(asciiFrom, index);
  if (word !== '') addNgrams(word, ngrams);
  return ngrams;
}

/** `eld.detect(text).language` of the small database: an ISO 639-1 code, '' when nothing scores. */
export function eldLanguage(text: string): string {
  scores.fill(0);
  for (const ngram of ngramsOf(text)) {
    const index = database.indexOf(ngram);
    if (index < 0) continue;
    for (let at = pairStarts[index]!; at < pairStarts[index + 1]!; at += 2) scores[pairs[at]!]! += pairs[at + 1]!;
  }
  let best = -1;
  let bestScore = 0;
  for (let language = 0; language < LANGUAGE_COUNT; language++) {
    if (scores[language]! > bestScore) {
      bestScore = scores[language]!;
      best = language;
    }
  }
  return best < 0 ? '' : (database.languages[best] ?? '');
}
