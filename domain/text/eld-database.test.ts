import { describe, expect, it } from 'vitest';
import { eldSource, packEldDatabase, unpackEldDatabase, type EldDatabase } from './eld-database.ts';

/** An n-gram's pairs as ELD's module gives them: language index and score, the stored score plus 53. */
function sourcePairs(entry: Record<number, number>): number[] {
  return Object.entries(entry).flatMap(([language, score]) => [Number(language), score + 53]);
}

function packedPairs(database: EldDatabase, ngram: string): number[] | null {
  const index = database.indexOf(ngram);
  return index < 0 ? null : [...database.pairs.subarray(database.pairStarts[index]!, database.pairStarts[index + 1]!)];
}

describe('the packed ELD database', () => {
  const source = eldSource();
  const database = unpackEldDatabase(packEldDatabase(source));

  it('holds every n-gram of ELD\'s module with the same scores, and the languages in index order', () => {
    const differing = Object.entries(source.ngrams).filter(([ngram, entry]) => JSON.stringify(packedPairs(database, ngram)) !== JSON.stringify(sourcePairs(entry!)));
    expect(Object.keys(source.ngrams).length).toBeGreaterThan(80_000);
    expect(differing).toEqual([]);
    expect(database.languages).toEqual(Object.keys(source.languages).map((index) => source.languages[Number(index)]));
  });

  it('finds nothing for n-grams the module lacks, including ones that differ from a held one by a unit', () => {
    const held = Object.keys(source.ngrams).find((ngram) => ngram.length === 4)!;
    for (const absent of ['', 'zzzzzzzz', `${held}x`, held.slice(0, 3), `${held.slice(0, 3)}\uFFFF`, '\uD83D']) {
      if (absent in source.ngrams) continue;
      expect(database.indexOf(absent), JSON.stringify(absent)).toBe(-1);
    }
  });

  it('keeps any string exactly, lone surrogates and characters past U+00FF included', () => {
    const ngrams = { ' \uD83D ': { 3: 1 }, 'ab\u00FFé': { 0: 2, 7: 0 }, 'é字': { 1: -53 } };
    const small = unpackEldDatabase(packEldDatabase({ languages: { 0: 'aa', 1: 'bb', 2: 'cc', 3: 'dd', 4: 'ee', 5: 'ff', 6: 'gg', 7: 'hh' }, ngrams }));
    expect(Object.keys(ngrams).map((ngram) => packedPairs(small, ngram))).toEqual([[3, 54], [0, 55, 7, 53], [1, 0]]);
    expect(packedPairs(small, ' \uD83D\uDE00 ')).toBeNull();
  });

  it('refuses a file packed in another layout rather than misreading it', () => {
    const packed = packEldDatabase({ languages: { 0: 'en' }, ngrams: { ' the': { 0: 1 } } });
    const header = packed.toString('utf8', 4, 4 + packed.readUInt32LE(0));
    const other = Buffer.from(packed);
    other.write(header.replace('"format":1', '"format":0'), 4, 'utf8');
    expect(() => unpackEldDatabase(other)).toThrow(/format 0, expected 1/);
  });
});

describe('the languages the packed database names', () => {
  it('are the ones ELD itself knows, in its order', async () => {
    const { eld } = await import('eld/small');
    const { ELD_LANGUAGES } = await import('./eld-language.ts');
    expect(ELD_LANGUAGES).toEqual(Object.values(eld.info().Languages));
  });
});
