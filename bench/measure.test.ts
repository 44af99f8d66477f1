import { describe, expect, it } from 'vitest';
import { measureRatesByTurns, median, percentile } from './measure.ts';

describe('measureRatesByTurns', () => {
  it('warms every work, then times each once a repetition, by turns', () => {
    const calls: string[] = [];
    const samples = measureRatesByTurns({ a: () => calls.push('a'), b: () => calls.push('b') }, { operations: 10, warmups: 2, repetitions: 3 });
    expect(calls).toEqual(['a', 'b', 'a', 'b', 'a', 'b', 'a', 'b', 'a', 'b']);
    expect(samples.a.repetitions).toHaveLength(3);
    expect(samples.b.repetitions).toHaveLength(3);
  });

  it('reports operations a second for each work, its median over its own repetitions', () => {
    // A work that takes a measurable time: a busy loop until the clock has moved.
    const busy = (ms: number) => () => {
      const until = performance.now() + ms;
      while (performance.now() < until);
    };
    const samples = measureRatesByTurns({ quick: busy(2), slow: busy(8) }, { operations: 100, warmups: 0, repetitions: 3 });
    for (const sample of Object.values(samples)) {
      expect(sample.median).toBe(median(sample.repetitions));
      expect(Number.isFinite(sample.median)).toBe(true);
    }
    // Each repetition of the slow work took at least 8 ms: at most 100 operations / 0.008 s.
    expect(Math.max(...samples.slow.repetitions)).toBeLessThanOrEqual(100 / 0.008);
    expect(Math.max(...samples.quick.repetitions)).toBeLessThanOrEqual(100 / 0.002);
  });
});

describe('percentile', () => {
  it('takes the nearest rank, and NaN for no values', () => {
    expect(percentile([5, 1, 3, 2, 4], 50)).toBe(3);
    expect(percentile([5, 1, 3, 2, 4], 100)).toBe(5);
    expect(percentile([], 50)).toBeNaN();
  });
});
