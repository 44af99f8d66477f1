import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { candidateKey, candidatesOf, headingsOf, queryCandidates, queryLanguage, splitOfQueryFamily } from './extract-queries.ts';
import { QUERY_SOURCES, type QuerySource } from './query-sources.ts';
import { joinLabels, realQueries, REAL_QUERY_LABELS } from './real-queries.ts';

const faq: QuerySource = { name: 'faq-en', work: 'faq', package: 'p', version: '1', lang: 'en', under: '', files: /^(.+)\.en\.html$/, minLevel: 2 };

describe('headingsOf: question and task headings, numbering removed', () => {
  it('reads headings at or below the level, strips section numbers and markup, drops too short ones', () => {
    const html = `<h1 class="title">Chapter 5. Software</h1><p>text</p>
      <h2 class="title"><a id="x"></a>5.1. What types of <code>apps</code> are available?</h2>
      <h3>3.4: How do I turn off spelling correction?</h3><h2>A.2.1 Installing the Base System</h2>
      <h2>第 5 章 安装软件</h2><h2>安装</h2><h2>5.3. 我应该如何获得一份列表？</h2><h4>Q</h4>`;
    expect(headingsOf(html, 2).map((heading) => heading.text)).toEqual(['What types of apps are available?', 'How do I turn off spelling correction?', 'Installing the Base System', '安装软件', '我应该如何获得一份列表？']);
    expect(headingsOf(html, 2).map((heading) => heading.chapter)).toEqual(['5', '3', 'A', undefined, '5']);
    expect(headingsOf(html, 1)[0]?.text).toBe('Software');
  });

  it('keeps words that only look like numbering', () => {
    expect(headingsOf('<h2>A fast way to search</h2><h2>5 ways to boot</h2>', 2)).toEqual([{ text: 'A fast way to search' }, { text: '5 ways to boot' }]);
  });
});

describe('candidatesOf: keyed by document and text, a document and its translation in one split', () => {
  const zh: QuerySource = { ...faq, name: 'faq-zh', lang: 'zh', files: /^(.+)\.zh-cn\.html$/ };
  const en = candidatesOf(faq, [{ file: 'software.en.html', html: '<h2>What is X?</h2><h2>What is X?</h2>' }, { file: 'index.html', html: '<h2>Skipped file</h2>' }]);
  const translated = candidatesOf(zh, [{ file: 'software.zh-cn.html', html: '<h2>什么是 X？</h2>' }]);

  it('names each candidate by a hash of its document and text, once per document', () => {
    expect(en).toHaveLength(1);
    expect(en[0]).toMatchObject({ key: candidateKey('faq-en/software', 'What is X?'), document: 'faq-en/software', family: 'faq/software', lang: 'en' });
    expect(candidateKey('faq-en/software', 'What is X?')).not.toBe(candidateKey('faq-en/other', 'What is X?'));
  });

  it('gives a translation the family, and so the split, of its original', () => {
    expect(translated[0]?.family).toBe(en[0]?.family);
    expect(translated[0]?.split).toBe(en[0]?.split);
    expect(splitOfQueryFamily('faq/software')).toBe(en[0]?.split);
  });

  it('makes each numbered chapter of a single-file FAQ a document of its own', () => {
    const chapters = candidatesOf({ ...faq, chapters: true }, [{ file: 'R.en.html', html: '<h3>2.1 What is R?</h3><h3>7.31 Why does R crash?</h3><h3>Version 2022</h3><h3>G12. Is there a mailing list?</h3>' }]);
    expect(chapters.map((candidate) => candidate.document)).toEqual(['faq-en/R/2', 'faq-en/R/7', 'faq-en/R/front', 'faq-en/R/G']);
    expect(chapters[3]?.query).toBe('Is there a mailing list?');
  });

  it('keeps at most `cap` candidates, chosen by key', () => {
    const html = Array.from({ length: 10 }, (_, index) => `<h2>How do I do task ${index}?</h2>`).join('');
    const capped = candidatesOf({ ...faq, cap: 4 }, [{ file: 'a.en.html', html }]);
    const all = candidatesOf(faq, [{ file: 'a.en.html', html }]);
    const kept = new Set(all.map((candidate) => candidate.key).sort().slice(0, 4));
    expect(capped).toEqual(all.filter((candidate) => kept.has(candidate.key)));
  });

  it('labels Chinese-source queries by their share of CJK characters', () => {
    expect(queryLanguage('什么是虚拟软件包？', 'zh')).toBe('zh');
    expect(queryLanguage('Software in the Public Interest', 'zh')).toBe('en');
    expect(queryLanguage('The apt-cache 命令', 'zh')).toBe('mixed');
    expect(queryLanguage('安装 X', 'en')).toBe('en');
  });
});

describe('joinLabels: every candidate labelled, every label a candidate', () => {
  const candidates = candidatesOf(faq, [{ file: 'a.en.html', html: '<h2>What is X?</h2><h2>Authors</h2>' }]);
  const [what, authors] = candidates.map((candidate) => candidate.key) as [string, string];

  it('joins labels and leaves out headings labelled skip', () => {
    expect(joinLabels(candidates, { [what]: 'factual', [authors]: 'skip' })).toEqual([expect.objectContaining({ query: 'What is X?', intent: 'factual', lang: 'en', family: 'faq/a' })]);
  });

  it('fails naming an unlabelled candidate, a label without a candidate, or an unknown label', () => {
    const failure = (labels: Record<string, string>) => {
      try {
        joinLabels(candidates, labels);
      } catch (error) {
        return isSkryaError(error) ? error : undefined;
      }
      return undefined;
    };
    expect(failure({ [what]: 'factual' })?.details.unlabelled).toEqual([expect.stringContaining('Authors')]);
    expect(failure({ [what]: 'factual', [authors]: 'skip', deadbeefdeadbeef: 'news' })?.details.orphans).toEqual(['deadbeefdeadbeef']);
    expect(failure({ [what]: 'facts', [authors]: 'skip' })?.code).toBe('INVALID_INPUT');
  });
});

describe('the real-query set of the pinned packages (labels.json)', () => {
  const candidates = queryCandidates();
  const queries = realQueries();

  it('has a label for every extracted candidate and a candidate for every label', () => {
    expect(new Set(candidates.map((candidate) => candidate.key))).toEqual(new Set(Object.keys(REAL_QUERY_LABELS)));
    expect(new Set(candidates.map((candidate) => candidate.key)).size).toBe(candidates.length);
  });

  it('keeps each document, and its translation, in one split, with English and Chinese in every split', () => {
    const splitOf = new Map<string, string>();
    for (const query of queries) {
      expect(splitOf.get(query.family) ?? query.split, query.id).toBe(query.split);
      splitOf.set(query.family, query.split);
    }
    for (const split of ['train', 'validation', 'test'] as const) {
      const langs = new Set(queries.filter((query) => query.split === split).map((query) => query.lang));
      expect(langs, split).toContain('en');
      expect(langs, split).toContain('zh');
    }
  });

  it('pins only base versions of the release, never a point-release or security update', () => {
    for (const source of QUERY_SOURCES) expect(source.version, `${source.name}: ${source.package}`).not.toMatch(/[+~]deb\d/);
  });
});
