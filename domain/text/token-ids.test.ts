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
    // An emoji and lone surrogates too: the ASCII check counts the text's UTF-8 bytes.
    const unit = fc.constantFrom(...'abcXYZ019 .-_\'’:,/\tÉé中文ＷＫｋ８İßΣς😀', '\ud83d', '\ude00');
    fc.assert(
      fc.property(fc.array(fc.string({ unit, maxLength: 40 }), { maxLength: 8 }), (texts) => {
        for (const text of texts) expect(wordsOf(tokenIds, text)).toEqual(tokenize(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads a long ASCII text, and a long one whose only non-ASCII character comes last, as tokenize does', () => {
    const tokenIds = createTokenIds();
    const long = Array.from({ length: 3000 }, (_unused, index) => `w${index % 700}`).join(' ');
    expect(wordsOf(tokenIds, long)).toEqual(tokenize(long));
    expect(wordsOf(tokenIds, `${long} Zürich`)).toEqual(tokenize(`${long} Zürich`));
    expect(wordsOf(tokenIds, 'short again')).toEqual(['short', 'again']);
    // Texts longer in UTF-8 than in characters, short ones and ones past the first scratch buffer: none may pass for ASCII.
    for (const text of ['é中', 'ab€', 'x😀y', 'Ωmega 中文', 'é'.repeat(5000), `${'e'.repeat(4999)}é`]) expect(wordsOf(createTokenIds(), text)).toEqual(tokenize(text));
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
