import { SkryaError } from '../../runtime/errors.ts';
import { isNonEmptyString, isRecord, nonEmptyStrings, versionedFileProblem } from './data-file-checks.ts';

export interface Glossary {
  terms: ReadonlyMap<string, string>;
  dropped: ReadonlySet<string>;
  longestKey: number;
}

/** What is wrong with a glossary file ({version: 1, description, dropped: [phrase], terms: {phrase: English}}), or null. */
function glossaryFileProblem(raw: unknown): string | null {
  if (!isRecord(raw)) return 'not a JSON object';
  const envelope = versionedFileProblem(raw, ['dropped', 'terms']);
  if (envelope !== null) return envelope;
  if (!nonEmptyStrings(raw.dropped)) return 'dropped must be a list of non-empty strings';
  if (!isRecord(raw.terms) || Object.entries(raw.terms).some(([chinese, english]) => chinese === '' || !isNonEmptyString(english))) return 'terms must map non-empty phrases to non-empty English';
  return null;
}

/** Validates the glossary data file; a broken file is CONFIG_INVALID. */
export function buildGlossary(raw: unknown): Glossary {
  const problem = glossaryFileProblem(raw);
  if (problem !== null) throw new SkryaError('CONFIG_INVALID', `Chinese–English glossary is invalid: ${problem}`);
  const file = raw as { dropped: string[]; terms: Record<string, string> };
  const terms = new Map(Object.entries(file.terms));
  const dropped = new Set(file.dropped);
  const longestKey = Math.max(1, ...[...terms.keys(), ...dropped].map((key) => key.length));
  return { terms, dropped, longestKey };
}

export interface Translation {
  text: string;
  /** How many glossary terms were put into English; 0 means there is no English variant. */
  translatedTerms: number;
}

const HAN = /\p{Script=Han}/u;

/**
 * The English variant of a (partly) Chinese query: glossary terms, longest match first, become
 * their English phrase; particles are dropped; anything unknown stays as typed, so nothing the
 * user asked for is lost. "Rust 异步编程" → "Rust async programming".
 */
export function translateChinese(text: string, glossary: Glossary): Translation {
  const pieces: string[] = [];
  let translatedTerms = 0;
  let position = 0;
  while (position < text.length) {
    const character = text.charAt(position);
    if (!HAN.test(character)) {
      pieces.push(character);
      position += 1;
      continue;
    }
    let matched = false;
    for (let length = Math.min(glossary.longestKey, text.length - position); length > 0; length -= 1) {
      const candidate = text.slice(position, position + length);
      const english = glossary.terms.get(candidate);
      if (english !== undefined || glossary.dropped.has(candidate)) {
        if (english !== undefined) {
          pieces.push(` ${english} `);
          translatedTerms += 1;
        } else {
          pieces.push(' ');
        }
        position += length;
        matched = true;
        break;
      }
    }
    if (!matched) {
      pieces.push(character);
      position += 1;
    }
  }
  const joined = pieces.join('').replace(/[，。、；：！？]/gu, ' ').replace(/\s+/gu, ' ').trim();
  return { text: joined, translatedTerms };
}
