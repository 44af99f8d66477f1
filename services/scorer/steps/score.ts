/**
 * Step 4, score: keyword, freshness and authority by the request's intent (domain/ranking), with
 * the scoring model's weights, tiers and curves. The query is prepared once per request. The
 * verdict's factor is applied in the next step; a request without an intent scores nothing.
 */
import { RANKED_CAPABILITIES } from '../../../domain/ranking/fusion.ts';
import type { RankingModel } from '../../../domain/ranking/ranking-model.ts';
import { createItemScorer, type ItemScore } from '../../../domain/ranking/score-item.ts';
import type { ResponseMessage } from './normalize.ts';
import type { Screened } from './screen.ts';

export interface Scored extends Screened {
  /** The content score and its components, before the verdict's factor. */
  relevance: ItemScore;
}

export function createScoreStep(ranking: RankingModel): (message: ResponseMessage) => (item: Screened) => Scored {
  // The responses of a run arrive one after another with the same request: its queries are
  // prepared once for them all (preparing them took about 2 % of a replay's CPU).
  let prepared: { key: string; scoreOf: ReturnType<typeof createItemScorer> } | undefined;
  return ({ request, response }) => {
    const context = { intent: request.intent, subQueries: request.sub_queries.length > 0 ? request.sub_queries : request.queries, windowEnd: request.window_until, boostDomains: request.boost_domains };
    const key = JSON.stringify(context);
    if (prepared?.key !== key) prepared = { key, scoreOf: createItemScorer(context, ranking) };
    const { scoreOf } = prepared;
    const ranked = RANKED_CAPABILITIES.has(response.capability);
    return (item) => {
      const valid = item.validation.item;
      return {
        ...item,
        relevance: scoreOf({ url: item.url, title: item.text.title, snippet: item.result.snippet, summary: valid?.summary ?? null, content: valid?.content ?? null, published_at: valid?.published_at ?? null, providerRank: ranked ? item.position + 1 : null }),
      };
    };
  };
}
