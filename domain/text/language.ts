/**
 * Language of a text with ELD (Efficient Language Detector, n-grams over 60 languages), as an
 * ISO 639-1 code. It replaced franc: on the scorer's items it is about four times faster
 * (~60 µs for a 400-character sample over all its languages, against ~210 µs for franc over
 * eight) and it knows the scripts itself, so no per-script candidate lists are needed.
 * The small database: same answers as the larger ones on our tests, a third of their load time.
 */
import type { eld as Eld } from 'eld/small';
import { eldModule } from './eld-database.ts';
import { ELD_LANGUAGES, eldLanguage } from './eld-language.ts';

let library: typeof Eld | undefined;

/**
 * ELD itself, for its reliability and scores when the text and the declared language disagree:
 * loaded on first need, since evaluating its database module takes over half a second of CPU (a
 * process that never needs it never pays; eld-language.ts reads a packed copy of the database).
 */
function eldLibrary(): typeof Eld {
  library ??= eldModule<{ eld: typeof Eld }>('entries/static.small.js').eld;
  return library;
}

/**
 * Below this many letters the text says too little to tell (a four-word English page scores as
 * Tagalog); the declared language, if any, is taken. A CJK character carries about as much as a
 * word, so it counts for three.
 */
const MIN_LETTERS = 40;
const WIDE_LETTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const LETTER = /\p{L}/u;

function letterWeight(text: string): number {
  let weight = 0;
  for (const char of text) {
    // ASCII without the regular expressions: only A-Z and a-z are letters there.
    const code = char.charCodeAt(0);
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) weight += 1;
    } else if (WIDE_LETTER.test(char)) weight += 3;
    else if (LETTER.test(char)) weight += 1;
    if (weight >= MIN_LETTERS) break;
  }
  return weight;
}
/** The start of a text decides its language; more only costs time. */
const SAMPLE_CHARS = 400;
/**
 * With a declared language and a sample in Latin script alone, this much of its start is read
 * first: when it reads as declared, that is the answer (the full sample costs twice as much). A
 * sample mixing scripts is read whole: Chinese pages open with English code or names (man pages,
 * manuals), and their start would read as a wrongly declared English.
 */
const DECLARED_SAMPLE_CHARS = 200;

/** Latin letters, digits, punctuation and symbols only (emoji too): no letter of another script. */
function latinScriptOnly(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // Basic Latin to IPA, Latin Extended Additional, punctuation and symbols, surrogates (emoji).
    if (code < 0x370 || (code >= 0x1e00 && code < 0x1f00) || (code >= 0x2000 && code < 0x2c00) || (code >= 0xd800 && code < 0xe000)) continue;
    return false;
  }
  return true;
}
/** Candidates this close to the best score are treated as ties. */
const TIE_RATIO = 0.95;

const KNOWN_LANGUAGES: ReadonlySet<string> = new Set(ELD_LANGUAGES);

/**
 * The start of `text` the detection reads: of a list of texts, the start of them joined by spaces,
 * made without joining them whole (a feed entry's title, summary and body are thousands of
 * characters, of which the first 400 are read).
 */
export function languageSample(text: string | readonly string[]): string {
  if (typeof text === 'string') return text.slice(0, SAMPLE_CHARS);
  let sample = '';
  for (let index = 0; index < text.length && sample.length < SAMPLE_CHARS; index++) {
    if (index > 0) sample += ' ';
    sample += text[index]!.slice(0, SAMPLE_CHARS - sample.length);
  }
  return sample;
}

/**
 * Detected language of a text (or of several, as if joined by spaces), or the declared one
 * (`<html lang>`, a feed's `<language>`, front matter) when the start of the text reads as
 * declared, when the text is too short, when it is among the near-best candidates, when the
 * detector is unsure, or when it names a language the detector does not know (it cannot contradict
 * it); null when neither says. Scores of related languages are close (Danish vs Norwegian, Russian
 * vs Ukrainian), so among near ties the declared language wins.
 */
export function detectLanguage(text: string | readonly string[], declared: string | null = null): string | null {
  const primary = declared?.trim().toLowerCase().split(/[-_]/)[0];
  const declaredCode = primary && /^[a-z]{2,3}$/.test(primary) ? primary : null;
  const sample = languageSample(text);
  if (letterWeight(sample) < MIN_LETTERS) return declaredCode;
  if (declaredCode && !KNOWN_LANGUAGES.has(declaredCode)) return declaredCode;
  if (declaredCode !== null && sample.length > DECLARED_SAMPLE_CHARS && latinScriptOnly(sample) && eldLanguage(sample.slice(0, DECLARED_SAMPLE_CHARS)) === declaredCode) return declaredCode;
  // ELD's answer, worked out without the library's per-call costs (eld-language.ts); the library
  // itself only when its reliability and scores decide.
  const language = eldLanguage(sample);
  if (!language) return declaredCode;
  if (declaredCode === null) return language;
  // Detected as declared: the answer is the same whatever the reliability and scores say, and
  // working those out (a sort over every language's score) cost a fifth of the detection.
  if (declaredCode === language) return declaredCode;
  const result = eldLibrary().detect(sample);
  if (!result.isReliable()) return declaredCode;
  const scores = result.getScores();
  const best = scores[result.language] ?? 0;
  return (scores[declaredCode] ?? 0) >= best * TIE_RATIO ? declaredCode : result.language;
}
