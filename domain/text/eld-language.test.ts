import { eld } from 'eld/small';
import { describe, expect, it } from 'vitest';
import { createRandom, pick } from '../learned/random.ts';
import { generateInjectionCorpus } from '../screening/corpus/generate-corpus.ts';
import { eldLanguage } from './eld-language.ts';

/** Every kind of character ELD's byte encoding and cuts treat apart: ASCII, 2-, 3- and 4-byte UTF-8, lone surrogates, separators. */
const PIECES = [
  'the', 'release', 'Kafka', 'broker', 'des', 'über', 'prüfen', 'été', 'ça', 'ñandú', 'Ωμέγα', 'кластер', 'Этот', 'שלום', 'مرحبا', 'हिन्दी',
  '集群', '模式', 'ゾーキーパー', '카프카', 'ไทย', '😀', '\uD83D', '\uDE00', "don't", 'it’s', '`x`', '4.0', '2026-12-02', 'https://example.com/a?b=c',
  ' ', ' ', ' ', '  ', '\n', '\t', ', ', '. ', '—', '-', '_', '…', '\u00A0', '\u200B', 'x'.repeat(80), 'é'.repeat(40), '字'.repeat(30),
];

function randomText(random: () => number): string {
  const parts: string[] = [];
  const count = Math.floor(random() * 160);
  for (let index = 0; index < count; index++) parts.push(pick(random, PIECES));
  return parts.join(random() < 0.5 ? ' ' : '');
}

/** The texts on which the two disagree (one expect for all: an expect a text costs more than the detection). */
function disagreements(texts: Iterable<string>): string[] {
  const differing: string[] = [];
  for (const text of texts) if (eldLanguage(text) !== eld.detect(text).language) differing.push(text);
  return differing;
}

describe('eldLanguage is eld.detect(text).language', () => {
  it('on every generated corpus page, whole and at the samples language detection takes', () => {
    const texts = generateInjectionCorpus().flatMap((item) => [item.title, item.content, item.content.slice(0, 200), item.content.slice(0, 400)]);
    expect(texts.length).toBeGreaterThan(1_000);
    expect(disagreements(texts)).toEqual([]);
  });

  it('on random text mixing scripts, separators and words past the byte cuts', () => {
    const random = createRandom(41);
    expect(disagreements(Array.from({ length: 5_000 }, () => randomText(random)))).toEqual([]);
  });

  it.each(['', ' ', '1234 5678', '...'])('nothing to score (%j) → no language, as ELD says', (text) => {
    expect(eldLanguage(text)).toBe('');
    expect(eld.detect(text).language).toBe('');
  });
});
