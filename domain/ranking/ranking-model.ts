import type { Intent } from '../../schemas/ingest.ts';
import type { AuthorityIndex } from './authority.ts';
import { DOMAIN_BOOST, INTENT_BOOST_DOMAINS } from './domain-boost.ts';
import { SHIPPED_FRESHNESS, type FreshnessModel } from './freshness.ts';
import { SHIPPED_FUSION, type FusionModel } from './fusion.ts';
import { INTENT_WEIGHTS, type ScoreWeights } from './intent-weights.ts';
import { SHIPPED_AUTHORITY } from './shipped-authority.ts';

/**
 * Every parameter the ranking formulas read, as one value: the ranking part of a scoring model
 * (domain/scoring-model). The formulas take it as an argument, so a replay can rank with other
 * weights, tiers or curves without a code change; SHIPPED_RANKING is the constants of this folder.
 */
export interface RankingModel {
  weights: Readonly<Record<Intent, Readonly<ScoreWeights>>>;
  freshness: FreshnessModel;
  /** What a boosted domain adds to authority (capped at 1), and the domains each intent boosts. */
  boost: { amount: number; domains: Readonly<Record<Intent, readonly string[]>> };
  fusion: FusionModel;
  authority: AuthorityIndex;
}

export const SHIPPED_RANKING: RankingModel = {
  weights: INTENT_WEIGHTS,
  freshness: SHIPPED_FRESHNESS,
  boost: { amount: DOMAIN_BOOST, domains: INTENT_BOOST_DOMAINS },
  fusion: SHIPPED_FUSION,
  authority: SHIPPED_AUTHORITY,
};
