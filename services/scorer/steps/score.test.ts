import { describe, expect, it } from 'vitest';
import type { Capability } from '../../../schemas/ingest.ts';
import { singleListRank } from '../../../domain/ranking/fusion.ts';
import { DEFAULT_SCORING_MODEL } from '../../../domain/scoring-model/default-model.ts';
import { responseMessage, screened } from '../testing/step-fixtures.ts';
import { createScoreStep } from './score.ts';

const score = createScoreStep(DEFAULT_SCORING_MODEL.ranking);

describe('score step', () => {
  it.each<[Capability, number, number]>([
    ['web_search', 0, singleListRank(1)],
    ['news_search', 3, singleListRank(4)],
    ['rss_feed', 0, DEFAULT_SCORING_MODEL.ranking.fusion.rankNeutral],
    ['document_fetch', 2, DEFAULT_SCORING_MODEL.ranking.fusion.rankNeutral],
  ])('a %s result at position %i has rank component %f', (capability, position, rank) => {
    const message = responseMessage({ capability });
    const { relevance } = score(message)({ ...screened({}, message), position });
    expect(relevance.components!.rank).toBeCloseTo(rank, 6);
  });

  it('scores nothing when the request has no intent', () => {
    const message = responseMessage({ request: { intent: null } });
    expect(score(message)(screened({}, message)).relevance).toEqual({ score: null, components: null });
  });

  it.each([
    ['status', 'freshness'],
    ['news', 'freshness'],
    ['factual', 'authority'],
  ] as const)('%s: a model that puts all content weight on %s scores with that weight', (intent, component) => {
    const message = responseMessage({ request: { intent } });
    const item = screened({}, message);
    const shipped = score(message)(item).relevance;
    const weights = { keyword: 0, freshness: 0, authority: 0, rank: 0.5, agreement: 0.5, [component]: 0.5 } as const;
    const ranking = { ...DEFAULT_SCORING_MODEL.ranking, weights: { ...DEFAULT_SCORING_MODEL.ranking.weights, [intent]: weights } };
    const other = createScoreStep(ranking)(message)(item).relevance;
    expect(other.components!.weights).toEqual(weights);
    // The content score is that one component alone.
    expect(other.score).toBe(other.components![component]);
    expect(other.score).not.toBe(shipped.score);
  });

  it('each response is scored with its own request\'s queries, also when consecutive responses alternate between requests', () => {
    const browsers = responseMessage({ request: { sub_queries: ['ai browser agent mode'] } });
    const databases = responseMessage({ request: { sub_queries: ['postgres vacuum tuning'] } });
    const item = screened({}, browsers);
    const keywordOf = (message: typeof browsers) => score(message)(item).relevance.components!.keyword;
    const fresh = (message: typeof browsers) => createScoreStep(DEFAULT_SCORING_MODEL.ranking)(message)(item).relevance.components!.keyword;
    expect(keywordOf(browsers)).toBeGreaterThan(keywordOf(databases));
    expect([keywordOf(browsers), keywordOf(databases), keywordOf(browsers)]).toEqual([fresh(browsers), fresh(databases), fresh(browsers)]);
  });
});
