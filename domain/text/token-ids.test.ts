import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenIds } from './token-ids.ts';
import { tokenize } from './tokenize.ts';

function wordsOf(tokenIds: ReturnType<typeof createTokenIds>, text: string): string[] {
  const count = tokenIds.read(text);
  return Array.from(tokenIds.ids.subarray(0, count), (id) => tokenIds.word(id));
}

describe('createTokenIds', () => {
  it('gives tokenize\'s tokens, one id per distinct token, numbered in first-seen order', () => {
    const tokenIds = createTokenIds();
    expect(wordsOf(tokenIds, 'Kafka kafka KAFKA release')).toEqual(['kafka', 'kafka', 'kafka', 'release']);
    expect(Array.from(tokenIds.ids.subarray(0, 4))).toEqual([0, 0, 0, 1]);
    expect(wordsOf(tokenIds, 'Rust 异步编程教程 release')).toEqual(tokenize('Rust 异步编程教程 release'));
    expect(tokenIds.size).toBe(7);
  });

  it('agrees with tokenize on any text, ASCII or not, across many texts sharing one table', () => {
    const tokenIds = createTokenIds();
    const unit = fc.constantFrom(...'abcXYZ019 .-_\'’:,/\tÉé中文ＷＫｋ８İßΣς');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 40 }), { maxLength: 8 }), (texts) => {
        for (const text of texts) expect(wordsOf(tokenIds, text)).toEqual(tokenize(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps ids apart for thousands of distinct tokens (the table grows)', () => {
    const tokenIds = createTokenIds();
    const text = Array.from({ length: 20_000 }, (_unused, index) => `w${index.toString(36)}`).join(' ');
    const count = tokenIds.read(text);
    expect(count).toBe(20_000);
    expect(new Set(tokenIds.ids.subarray(0, count)).size).toBe(20_000);
    expect(wordsOf(tokenIds, 'W0 w1 wfff')).toEqual(['w0', 'w1', 'wfff']);
    expect(tokenIds.size).toBe(20_000);
  });

  it('tells apart tokens of the same length whose hashes collide, short ones (compared in the slot) and long ones', () => {
    // Pairs with the same 32-bit FNV-1a hash, found by a birthday search: only their characters differ.
    for (const [first, second] of [['nakmvxxv', 'tbdxatiq'], ['uqhbtzvavnsjzk', 'kwiksymrvcfmdf']] as const) {
      const tokenIds = createTokenIds();
      expect(wordsOf(tokenIds, `${first} ${second} ${second.toUpperCase()} ${first}`)).toEqual([first, second, second, first]);
      expect(Array.from(tokenIds.ids.subarray(0, 4))).toEqual([0, 1, 1, 0]);
    }
  });

  it('gives a token one id however often it comes back, at every length and in every script', () => {
    const tokenIds = createTokenIds();
    const unit = fc.constantFrom(...'abcxyz019éßİΣ中');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, minLength: 1, maxLength: 16 }), { minLength: 1, maxLength: 12 }), (texts) => {
        for (const text of texts) wordsOf(tokenIds, text);
        const words = Array.from({ length: tokenIds.size }, (_unused, id) => tokenIds.word(id));
        expect(new Set(words).size).toBe(words.length);
      }),
      { numRuns: 300 },
    );
  });
});
