import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { JUDGED_SET_DIR, loadJudgedSet } from './judged-set.ts';
import { evaluateNearDuplicates } from './near-duplicates.ts';
import baseline from './quality-baseline.json' with { type: 'json' };

describe('near-duplicate detection on the judged set\'s labelled pairs', () => {
  const pools = loadJudgedSet(fileURLToPath(JUDGED_SET_DIR));

  it.each(['dev', 'test'] as const)('%s: recall at or above the baseline, no merge across versions, false merges at most the baseline', (split) => {
    const report = evaluateNearDuplicates(pools.filter((pool) => pool.split === split));
    const expected = baseline.nearDuplicates[split];
    expect(report.crossVersionPairs).toBeGreaterThan(0);
    expect(report.crossVersionFalseMerges, JSON.stringify(report.wrongMerges)).toBe(0);
    expect(report.recall, JSON.stringify(report.misses)).toBeGreaterThanOrEqual(expected.recall);
    expect(report.falseMerges, JSON.stringify(report.wrongMerges)).toBeLessThanOrEqual(expected.falseMerges);
  });
});
