import { describe, expect, it } from 'vitest';
import { originalSpan } from './mapped-text.ts';
import { graphemesOf, normalizeQuery, tidyQuery } from './normalize-query.ts';

describe('normalizeQuery', () => {
  it.each<[string, string]>([
    ['What IS Rust', 'what is rust'],
    ['ｗｈａｔ　ｉｓ　ｋ８ｓ？', 'what is k8s?'],
    ['what’s new', "what's new"],
    ['  rust   vs\tgo  ', 'rust vs go'],
    ['Rust 异步编程', 'rust 异步编程'],
  ])('%j → %j', (query, expected) => {
    expect(normalizeQuery(query).text).toBe(expected);
  });

  it('keeps letter case when asked', () => {
    expect(normalizeQuery('ＷＡＬ in databases', { keepCase: true }).text).toBe('WAL in databases');
  });

  it('maps every normalised unit back to the typed query', () => {
    const query = '  Ｒｕｓｔ　最新进展';
    const mapped = normalizeQuery(query);
    const start = mapped.text.indexOf('最新进展');
    expect(query.slice(...originalSpan(mapped, start, start + 4))).toBe('最新进展');
    expect(query.slice(...originalSpan(mapped, 0, 4))).toBe('Ｒｕｓｔ');
  });
});

describe('tidyQuery', () => {
  it('keeps case, folds width and whitespace', () => {
    expect(tidyQuery('  Ｋａｆｋａ   4.0\n発表 ')).toBe('Kafka 4.0 発表');
  });
});

describe('graphemesOf', () => {
  const segmenter = new Intl.Segmenter('und', { granularity: 'grapheme' });
  const bySegmenter = (text: string) => [...segmenter.segment(text)].map(({ segment, index }) => ({ segment, index }));
  const byGraphemesOf = (text: string) => [...graphemesOf(text)].map(({ segment, index }) => ({ segment, index }));

  it('splits every character of the Basic Multilingual Plane, alone, doubled and between letters, as Intl.Segmenter does', () => {
    const differing: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const text = `a${String.fromCharCode(code)}${String.fromCharCode(code)}b`;
      if (JSON.stringify(byGraphemesOf(text)) !== JSON.stringify(bySegmenter(text))) differing.push(code.toString(16));
    }
    expect(differing).toEqual([]);
  });

  it.each(['how to\r\nadd swap', 'a\r\rb\n\nc', 'Rust 异步编程，怎么学？', 'e\u0301 combining', 'café 👍🏽 flags 🇫🇷', '한국어 질문', 'ｗｈａｔ　ｉｓ　ｋ８ｓ？'])('matches Intl.Segmenter on %j', (text) => {
    expect(byGraphemesOf(text)).toEqual(bySegmenter(text));
  });
});
