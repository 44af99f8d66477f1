import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseLabelledCorpus } from '../evaluate.ts';
import { familySplits, generateInjectionCorpus } from './generate-corpus.ts';

const corpus = generateInjectionCorpus();
const digest = (items: unknown) => createHash('sha256').update(JSON.stringify(items)).digest('hex');

describe('generated screening corpus', () => {
  it('is the same, byte for byte, on every run with the same seed, and different with another', () => {
    expect(digest(generateInjectionCorpus())).toBe(digest(corpus));
    expect(digest(generateInjectionCorpus(1))).not.toBe(digest(corpus));
  });

  it('has the size and mix issue 13 asks for: >= 4,000 items, >= 40 % benign, half of them hard, >= 20 techniques, en/zh/mixed', () => {
    const benign = corpus.filter((item) => item.label === 'benign');
    expect(corpus.length).toBeGreaterThanOrEqual(4000);
    expect(benign.length / corpus.length).toBeGreaterThanOrEqual(0.4);
    expect(benign.filter((item) => item.difficulty === 'hard').length / benign.length).toBeGreaterThanOrEqual(0.5);
    const techniques = new Set(corpus.filter((item) => item.label === 'injection').flatMap((item) => [item.kind, item.carrier]));
    techniques.delete('plain');
    expect(techniques.size).toBeGreaterThanOrEqual(20);
    expect(new Set(corpus.map((item) => item.lang))).toEqual(new Set(['en', 'zh', 'mixed']));
  });

  it('never lets a family straddle splits: every item of a family sits in that family\'s split', () => {
    const splits = familySplits();
    const all = [...splits.train, ...splits.validation, ...splits.test];
    expect(new Set(all).size).toBe(all.length);
    for (const item of corpus) expect(splits[item.split], `${item.id} ${item.family}`).toContain(item.family);
    // Carriers too: a wrapper seen in training never shows up in the test split.
    for (const item of corpus.filter((entry) => entry.carrier !== 'plain' && entry.carrier !== 'none')) expect(splits[item.split]).toContain(item.carrier);
  });

  it('marks where each payload sits, and reads as a labelled corpus for the eval tools', () => {
    for (const item of corpus.filter((entry) => entry.label === 'injection' && !entry.titleIsPayload)) {
      expect(item.spans.length, item.id).toBeGreaterThan(0);
      for (const [start, end] of item.spans) {
        expect(end).toBeLessThanOrEqual(item.content.length);
        expect(start).toBeLessThan(end);
      }
    }
    expect(parseLabelledCorpus(corpus.slice(0, 50).map((item) => JSON.stringify(item)).join('\n'))).toHaveLength(50);
  });
});
