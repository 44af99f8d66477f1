import { describe, expect, it } from 'vitest';
import { bootstrapMean, ndcgAt, precisionAt, seededShuffle } from './metrics.ts';

const grades = new Map([['a', 3], ['b', 2], ['c', 0], ['d', 1]]);

describe('ranking measures', () => {
  it.each([
    ['the ideal order', ['a', 'b', 'd', 'c'], 1],
    ['nothing relevant first', ['c'], 0],
    ['an empty ranking', [], 0],
  ])('nDCG of %s', (_name, ranking, expected) => {
    expect(ndcgAt(ranking, grades)).toBeCloseTo(expected, 10);
  });

  it('scores a swapped top pair below the ideal, and a repeated document as nothing', () => {
    const swapped = ndcgAt(['b', 'a', 'd', 'c'], grades);
    expect(swapped).toBeLessThan(1);
    expect(swapped).toBeGreaterThan(0.5);
    expect(ndcgAt(['a', 'a', 'b'], grades)).toBeLessThan(ndcgAt(['a', 'b'], grades));
  });

  it('counts precision over new documents graded 2 or better', () => {
    expect(precisionAt(['a', 'b', 'c', 'd', 'a'], grades)).toBeCloseTo(2 / 5);
    expect(precisionAt(['a', 'a', 'a'], grades)).toBeCloseTo(1 / 5);
  });

  it('gives a bootstrap interval around the mean, the same for the same seed', () => {
    const values = [0.2, 0.4, 0.6, 0.8, 1];
    const interval = bootstrapMean(values);
    expect(interval.mean).toBeCloseTo(0.6);
    expect(interval.low).toBeLessThan(0.6);
    expect(interval.high).toBeGreaterThan(0.6);
    expect(bootstrapMean(values)).toEqual(interval);
    expect(bootstrapMean([0.5, 0.5])).toEqual({ mean: 0.5, low: 0.5, high: 0.5 });
  });

  it('shuffles reproducibly by seed', () => {
    const items = Array.from({ length: 20 }, (_unused, index) => index);
    expect(seededShuffle(items, 7)).toEqual(seededShuffle(items, 7));
    expect(seededShuffle(items, 7)).not.toEqual(items);
    expect([...seededShuffle(items, 7)].sort((a, b) => a - b)).toEqual(items);
  });
});
