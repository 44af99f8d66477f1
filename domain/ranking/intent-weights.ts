import type { Intent } from '../../schemas/ingest.ts';

export interface ScoreWeights {
  keyword: number;
  freshness: number;
  authority: number;
  /** The providers' own order, fused across providers and sub-queries (reciprocal-rank fusion). */
  rank: number;
  /** Independent sources carrying the same document. */
  agreement: number;
}

/**
 * How much each component counts, per intent; each row sums to 1. Spec 001 phase 1 / BLUEPRINT §5
 * set keyword/freshness/authority (factual .4/.1/.5, status .3/.5/.2, comparison .4/.2/.4,
 * tutorial .4/.1/.5, exploratory .3/.2/.5, news .3/.6/.1, resource .5/.1/.4: SPEC_001_WEIGHTS);
 * issue 21 adds the providers' rank and agreement as components of their own, because the
 * engines' order was the strongest signal a run receives and the original formula ignored it.
 * The split was chosen on the judged set's dev pools (docs/relevance-rubric.md), keeping each
 * intent's emphasis from spec 001 (news and status lean on freshness, resource on keywords).
 * Factual was re-tuned on six dev pools (grid search, a point inside the plateau of best gains):
 * host authority misleads look-ups (a Stack Overflow question, a repository, a normative RFC sit
 * on tier-1 hosts but rarely define the term, while vendor explainers sit on the default tier),
 * so it weighs 0.1 instead of spec 001's 0.5, and the engines' order, which puts definitions
 * first, carries more of the score than authority.
 * Resource was re-tuned the same way on four dev pools: a request for a named resource is
 * navigational, the engines find the official site (react.dev, cn.vuejs.org, spec.openapis.org)
 * while a host tier cannot tell which site is official for this name and lifts GitHub, Stack
 * Overflow and npm pages above it; authority 0 was best across the grid's plateau, so the
 * engines' rank carries half the score.
 */
export const INTENT_WEIGHTS: Readonly<Record<Intent, Readonly<ScoreWeights>>> = {
  factual: { keyword: 0.4, freshness: 0.15, authority: 0.1, rank: 0.3, agreement: 0.05 },
  status: { keyword: 0.2, freshness: 0.35, authority: 0.1, rank: 0.25, agreement: 0.1 },
  comparison: { keyword: 0.3, freshness: 0.15, authority: 0.2, rank: 0.25, agreement: 0.1 },
  tutorial: { keyword: 0.25, freshness: 0.15, authority: 0.25, rank: 0.25, agreement: 0.1 },
  exploratory: { keyword: 0.25, freshness: 0.15, authority: 0.25, rank: 0.25, agreement: 0.1 },
  news: { keyword: 0.2, freshness: 0.35, authority: 0.1, rank: 0.25, agreement: 0.1 },
  resource: { keyword: 0.25, freshness: 0.15, authority: 0, rank: 0.5, agreement: 0.1 },
};

/** The original spec 001 weights (no rank, no agreement), kept for comparison and tests. */
export const SPEC_001_WEIGHTS: Readonly<Record<Intent, Readonly<ScoreWeights>>> = {
  factual: { keyword: 0.4, freshness: 0.1, authority: 0.5, rank: 0, agreement: 0 },
  status: { keyword: 0.3, freshness: 0.5, authority: 0.2, rank: 0, agreement: 0 },
  comparison: { keyword: 0.4, freshness: 0.2, authority: 0.4, rank: 0, agreement: 0 },
  tutorial: { keyword: 0.4, freshness: 0.1, authority: 0.5, rank: 0, agreement: 0 },
  exploratory: { keyword: 0.3, freshness: 0.2, authority: 0.5, rank: 0, agreement: 0 },
  news: { keyword: 0.3, freshness: 0.6, authority: 0.1, rank: 0, agreement: 0 },
  resource: { keyword: 0.5, freshness: 0.1, authority: 0.4, rank: 0, agreement: 0 },
};

/** The weight of the components the scorer computes alone (keyword, freshness, authority). */
export function contentWeight(weights: ScoreWeights): number {
  return weights.keyword + weights.freshness + weights.authority;
}
