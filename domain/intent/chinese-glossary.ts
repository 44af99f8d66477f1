import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';

const glossaryFileSchema = z.object({
  version: z.literal(1),
  description: z.string(),
  dropped: z.array(z.string().min(1)),
  terms: z.record(z.string().min(1), z.string().min(1)),
}).strict();

export interface Glossary {
  terms: ReadonlyMap<string, string>;
  dropped: ReadonlySet<string>;
  longestKey: number;
}

/** Validates the glossary data file; a broken file is CONFIG_INVALID. */
export function buildGlossary(raw: unknown): Glossary {
  const parsed = glossaryFileSchema.safeParse(raw);
  if (!parsed.success) throw new SkryaError('CONFIG_INVALID', `Chinese–English glossary is invalid: ${parsed.error.message}`);
  const terms = new Map(Object.entries(parsed.data.terms));
  const dropped = new Set(parsed.data.dropped);
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
