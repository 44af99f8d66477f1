import type { Intent } from '../../../schemas/ingest.ts';

export interface ScoreWeights {
  keyword: number;
  freshness: number;
  authority: number;
}

/** Spec 001 phase 1 / BLUEPRINT §5: how much each component counts, per intent. Each row sums to 1. */
export const INTENT_WEIGHTS: Readonly<Record<Intent, Readonly<ScoreWeights>>> = {
  factual: { keyword: 0.4, freshness: 0.1, authority: 0.5 },
  status: { keyword: 0.3, freshness: 0.5, authority: 0.2 },
  comparison: { keyword: 0.4, freshness: 0.2, authority: 0.4 },
  tutorial: { keyword: 0.4, freshness: 0.1, authority: 0.5 },
  exploratory: { keyword: 0.3, freshness: 0.2, authority: 0.5 },
  news: { keyword: 0.3, freshness: 0.6, authority: 0.1 },
  resource: { keyword: 0.5, freshness: 0.1, authority: 0.4 },
};
