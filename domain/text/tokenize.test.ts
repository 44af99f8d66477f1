import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldText, hasAsciiToken, isAsciiText, isCjkTerm, queryTerms, tokenize, tokenizeFolded, tokenizesAsAscii } from './tokenize.ts';

describe('tokenize', () => {
  it.each([
    ['English words, lower-cased', 'Kubernetes Release Notes', ['kubernetes', 'release', 'notes']],
    ['punctuation inside words splits them', 'node.js v1.30 stop-words', ['node', 'js', 'v1', '30', 'stop', 'words']],
    ['full-width letters are NFKC-folded', 'ＷｅｂＴｒａｎｓｐｏｒｔ ｋ８ｓ', ['webtransport', 'k8s']],
    ['Chinese is segmented into words', 'Rust 异步编程教程', ['rust', '异步', '编', '程', '教程']],
    ['accented Latin stays whole', 'Café crème', ['café', 'crème']],
    ['curly apostrophes split like straight ones', 'it’s here', ['it', 's', 'here']],
  ])('%s', (_name, text, expected) => {
    expect(tokenize(text)).toEqual(expected);
  });

  it('gives the same tokens for ASCII words whether or not the text also holds non-ASCII words', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'abcXYZ019 .-_\'’:,/'), maxLength: 60 }), (ascii) => {
        const withChinese = tokenize(`${ascii} 中文`);
        expect(withChinese.slice(0, -1)).toEqual(tokenize(ascii));
      }),
    );
  });
});

describe('isAsciiText', () => {
  it('is true exactly when every character is ASCII, lone surrogates and NUL included', () => {
    const unit = fc.oneof(fc.constantFrom('a', 'Z', '0', ' ', '\u0000', '\u007f', '\u0080', 'é', '中', '\ud83d', '\ude00', '😀'), fc.string({ unit: 'binary', maxLength: 3 }));
    fc.assert(fc.property(fc.array(unit, { maxLength: 20 }).map((parts) => parts.join('')), (text) => {
      expect(isAsciiText(text)).toBe(/^\p{ASCII}*$/u.test(text));
    }), { numRuns: 2000 });
  });

  it('answers the same for long texts, whichever way it checks them', () => {
    const ascii = 'Kafka release notes, v4.1: '.repeat(200);
    for (const [text, expected] of [[ascii, true], [`${ascii}é`, false], [`é${ascii}`, false], ['中文'.repeat(3000), false], [`${ascii}\ud83d`, false], [ascii.slice(0, 1024), true], [`${ascii.slice(0, 1023)}é`, false]] as const) {
      expect(isAsciiText(text), text.slice(-20)).toBe(expected);
      expect(isAsciiText(text)).toBe(/^\p{ASCII}*$/u.test(text));
    }
  });
});

describe('hasAsciiToken', () => {
  it('answers what tokenizeFolded would for text whose tokens are ASCII runs', () => {
    const unit = fc.constantFrom(...'abk019 .-_\'’—:,/\tAK');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 40 }), fc.constantFrom('a', 'ab', 'k0', 'b1', '0', 'kab', 'ba'), (text, token) => {
        const folded = foldText(text);
        expect(tokenizesAsAscii(folded)).toBe(true);
        expect(hasAsciiToken(folded, token)).toBe(tokenizeFolded(folded).includes(token));
      }),
      { numRuns: 2000 },
    );
  });

  it('finds a token next to non-ASCII punctuation but not inside a longer word', () => {
    expect(hasAsciiToken('kafka—release', 'release')).toBe(true);
    expect(hasAsciiToken('prerelease release2', 'release')).toBe(false);
  });
});

describe('queryTerms', () => {
  it.each([
    ['stop words and question framing are dropped', 'What is the WebTransport API?', ['webtransport', 'api']],
    ['Chinese question framing is dropped', '什么是 WebTransport', ['webtransport']],
    ['single CJK characters cut apart by the segmenter are joined again', 'Anthropic MCP 官网 文档', ['anthropic', 'mcp', '官网', '文档']],
    ['repeated terms count once', 'Bun vs Deno vs Bun', ['bun', 'deno']],
    ['only stop words → no terms', 'what is the', []],
  ])('%s', (_name, query, expected) => {
    expect(queryTerms(query)).toEqual(expected);
  });

  it.each([
    ['异步', true],
    ['カタカナ', true],
    ['한국어', true],
    ['rust', false],
    ['café', false],
  ])('isCjkTerm(%s) = %s', (term, expected) => {
    expect(isCjkTerm(term)).toBe(expected);
  });
});
