import { describe, expect, it } from 'vitest';
import { RANK_NEUTRAL, RRF_K, agreementComponent, fuseRun, fuseScore, rankComponents, reciprocalRankSum, singleListRank } from './fusion.ts';
import { INTENT_WEIGHTS } from './intent-weights.ts';

describe('reciprocal-rank fusion', () => {
  it.each([
    ['one list, rank 1', [{ list: 'brave/0', rank: 1 }], 1 / (RRF_K + 1)],
    ['two lists', [{ list: 'brave/0', rank: 1 }, { list: 'exa/0', rank: 3 }], 1 / (RRF_K + 1) + 1 / (RRF_K + 3)],
    ['the same list twice counts its best rank once', [{ list: 'brave/0', rank: 4 }, { list: 'brave/0', rank: 2 }], 1 / (RRF_K + 2)],
    ['unranked copies add nothing', [{ list: null, rank: null }, { list: 'feed', rank: null }], 0],
    ['a rank below 1 is ignored', [{ list: 'brave/0', rank: 0 }], 0],
  ])('%s', (_name, places, expected) => {
    expect(reciprocalRankSum(places)).toBeCloseTo(expected, 12);
  });

  it('scales to the run\'s best and gives unranked items the neutral value', () => {
    expect(rankComponents([0.2, 0.1, 0])).toEqual([1, 0.5, RANK_NEUTRAL]);
    expect(rankComponents([0, 0])).toEqual([RANK_NEUTRAL, RANK_NEUTRAL]);
  });

  it('scores one list alone from 1 at rank 1 downwards', () => {
    expect(singleListRank(1)).toBe(1);
    expect(singleListRank(10)).toBeCloseTo((RRF_K + 1) / (RRF_K + 10), 12);
  });
});

describe('agreement and the fused score', () => {
  it.each([[1, 0], [2, 1 / 3], [3, 2 / 3], [4, 1], [9, 1]])('%i independent sources → %f', (sources, expected) => {
    expect(agreementComponent(sources)).toBeCloseTo(expected, 12);
  });

  it('weighs content, rank and agreement by intent, and scales the run signals by the verdict factor too', () => {
    const weights = INTENT_WEIGHTS.news;
    const contentShare = weights.keyword + weights.freshness + weights.authority;
    expect(fuseScore(0.8, 1, 0, weights, 1)).toBeCloseTo(0.8 * contentShare + weights.rank, 12);
    // A downweighted item: its stored content score is already halved; rank and agreement are halved here.
    expect(fuseScore(0.4, 1, 1, weights, 0.5)).toBeCloseTo(0.4 * contentShare + 0.5 * (weights.rank + weights.agreement), 12);
  });

  it('fuses a run: no score without an intent, rank relative to the best list place', () => {
    const weights = INTENT_WEIGHTS.status;
    const fused = fuseRun([
      { contentScore: 0.5, weights, verdictFactor: 1, places: [{ list: 'a', rank: 1 }, { list: 'b', rank: 1 }], independentSources: 2 },
      { contentScore: 0.5, weights, verdictFactor: 1, places: [{ list: 'a', rank: 2 }], independentSources: 1 },
      { contentScore: null, weights: null, verdictFactor: 1, places: [], independentSources: 1 },
    ]);
    expect(fused.map((entry) => entry.rank)).toEqual([1, Math.round(((1 / (RRF_K + 2)) / (2 / (RRF_K + 1))) * 1e6) / 1e6, RANK_NEUTRAL]);
    expect(fused[0]!.score!).toBeGreaterThan(fused[1]!.score!);
    expect(fused[2]!.score).toBeNull();
  });
});
