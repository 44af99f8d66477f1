import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { DEBIAN_SOURCES } from './debian-sources.ts';
import { ensureDebianPackage } from './fetch-debian.ts';
import { pagesOf, realTextCorpus, REAL_TEXT_LIMITS } from './real-text-corpus.ts';

describe('real-text corpus: documentation by other people, from pinned Debian packages', () => {
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
    const chapter = corpus.find((item) => item.kind === 'real:debian-reference-zh');
    expect(corpus.some((item) => item.kind === 'real:debian-reference-en' && item.family === chapter?.family)).toBe(true);
  });

  it('is the same on every build', () => {
    expect(realTextCorpus()).toBe(corpus);
    expect(corpus.slice(0, 3).map((item) => item.id)).toEqual([...corpus].sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, 3).map((item) => item.id));
  });
});

describe('DEBIAN_SOURCES: pins that stay fetchable', () => {
  // The archive keeps a release's base versions for its whole life but drops a point-release or
  // security version (+debNuM, ~debNuM) once the next one ships: such a pin would make the model
  // build fail with CORPUS_UNAVAILABLE on a fresh machine (CI) some day without any change here.
  it('pins only base versions of the release, never a point-release or security update', () => {
    for (const source of DEBIAN_SOURCES) expect(source.version, `${source.name}: ${source.package}`).not.toMatch(/[+~]deb\d/);
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

describe('ensureDebianPackage', () => {
  it('reads a fully unpacked package from the cache without asking apt', () => {
    const cache = mkdtempSync(join(tmpdir(), 'skrya-debian-'));
    try {
      mkdirSync(join(cache, 'example-1.0'));
      writeFileSync(join(cache, 'example-1.0', '.complete'), 'example 1.0\n');
      expect(ensureDebianPackage('example', '1.0', cache)).toBe(join(cache, 'example-1.0'));
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('fails with CORPUS_UNAVAILABLE, naming the package and what to do, when apt cannot deliver the pinned version', () => {
    const cache = mkdtempSync(join(tmpdir(), 'skrya-debian-'));
    try {
      let caught: unknown;
      try {
        ensureDebianPackage('manpages', '0.0-no-such-version', cache);
      } catch (error) {
        caught = error;
      }
      expect(isSkryaError(caught) && caught.code).toBe('CORPUS_UNAVAILABLE');
      expect(isSkryaError(caught) && caught.retriable).toBe(true);
      expect(String((caught as Error).message)).toContain('manpages 0.0-no-such-version');
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });
});
