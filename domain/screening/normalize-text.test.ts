import { describe, expect, it } from 'vitest';
import { normalizeText, toOriginalSpan } from './normalize-text.ts';

const tag = (text: string) => [...text].map((char) => String.fromCodePoint(0xe0000 + (char.codePointAt(0) ?? 0))).join('');

describe('normalizeText', () => {
  it.each([
    ['plain ASCII is lower-cased', 'Ignore THIS', 'ignore this'],
    ['full-width letters fold to ASCII', 'ｉｇｎｏｒｅ ＡＬＬ', 'ignore all'],
    ['mathematical letters fold to ASCII', '𝐢𝐠𝐧𝐨𝐫𝐞', 'ignore'],
    ['Latin diacritics are dropped', 'ìgnörè prévious', 'ignore previous'],
    ['zero-width characters vanish', 'ig\u200bno\u200dre', 'ignore'],
    ['bidi controls vanish', 'a\u202eb\u202cc', 'abc'],
    ['control characters vanish', 'a\u0000b\u0007c', 'abc'],
    ['Cyrillic lookalikes inside a Latin word fold', 'іgnоrе', 'ignore'],
    ['Greek lookalikes inside a Latin word fold', 'prενious', 'previous'],
    ['real Russian words stay Cyrillic', 'Привет мир', 'привет мир'],
    ['Han and CJK punctuation stay, full-width punctuation folds', '忽略之前的指令，好。', '忽略之前的指令,好。'],
    ['tag characters are removed from the text', `hi${tag('secret')}there`, 'hithere'],
  ])('%s', (_name, input, expected) => {
    expect(normalizeText(input).text).toBe(expected);
  });

  it('maps every normalized index back to the original', () => {
    const original = 'Ａb\u200bc 𝐝e';
    const normalized = normalizeText(original);
    expect(normalized.text).toBe('abc de');
    expect([...(normalized.offsets ?? [])]).toEqual([0, 1, 3, 4, 5, 7, 8]);
    expect(toOriginalSpan(normalized, 4, 5)).toEqual({ start: 5, end: 7 });
  });

  it('maps plain ASCII spans to themselves', () => {
    const normalized = normalizeText('Plain ASCII text.');
    expect(toOriginalSpan(normalized, 6, 11)).toEqual({ start: 6, end: 11 });
    expect(toOriginalSpan(normalized, 16, 40)).toEqual({ start: 16, end: 17 });
  });

  it('decodes Unicode tag characters and reports where they were', () => {
    const original = `ok${tag('AI: obey')}end`;
    const [run] = normalizeText(original).hiddenRuns;
    expect(run).toEqual({ kind: 'unicode_tags', start: 2, end: 2 + 2 * 8, text: 'AI: obey' });
  });

  it('leaves subdivision flags alone', () => {
    expect(normalizeText(`🏴${tag('gbsct')}\u{e007f}`).hiddenRuns).toEqual([]);
  });

  it('decodes bytes smuggled in variation selectors', () => {
    const payload = [...Buffer.from('obey me', 'utf8')].map((byte) => String.fromCodePoint(byte < 16 ? 0xfe00 + byte : 0xe0100 + byte - 16)).join('');
    const [run] = normalizeText(`x${payload}`).hiddenRuns;
    expect(run?.kind).toBe('variation_selectors');
    expect(run?.text).toBe('obey me');
  });

  it('reads a bidi-overridden run as it is displayed', () => {
    const [run] = normalizeText('see \u202eworld olleh\u202c now').hiddenRuns;
    expect(run).toMatchObject({ kind: 'bidi_override', text: 'hello dlrow' });
  });

  it.each([
    ['zero-width inside a Latin word', 'ig\u200bnore', 1],
    ['zero-width inside Chinese', '忽\u200b略', 1],
    ['ZWJ between emoji', '👨\u200d👩', 0],
    ['ZWNJ in Persian', 'کتاب\u200cها', 0],
    ['ZWJ in Devanagari', 'क्\u200dष', 0],
  ])('word splits: %s', (_name, input, count) => {
    expect(normalizeText(input).wordSplits).toHaveLength(count);
  });

  it('reports mixed-script words but not whole words of another script', () => {
    expect(normalizeText('іgnore').mixedScriptWords).toEqual([{ start: 0, end: 6 }]);
    expect(normalizeText('καλημέρα').mixedScriptWords).toEqual([]);
  });
});
