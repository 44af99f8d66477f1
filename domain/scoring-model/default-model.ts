/**
 * The shipped scoring model, assembled from the constants beside the formulas (domain/ranking,
 * domain/screening), so tuning a constant there tunes the default model. Its version is a
 * fingerprint of its parameters: any change to a weight, tier, curve or threshold gives a new tag,
 * and a model file written against the old default (`base`) is refused until it is checked again.
 */
import shippedTiers from '../ranking/authority-tiers.json' with { type: 'json' };
import { SHIPPED_RANKING } from '../ranking/ranking-model.ts';
import { VERDICT_FACTORS } from '../ranking/fusion.ts';
import { COMBINE_STRATEGIES, SCORING_MODEL, type CombineStrategy } from '../screening/scoring-model.ts';
import { inputHash } from '../skills/canonical-json.ts';
import { compileScoringModel, scoringModelSchema, type ScoringModel } from './scoring-model.ts';

export const DEFAULT_MODEL_ID = 'skrya-default';

const combine = (Object.keys(COMBINE_STRATEGIES) as CombineStrategy[]).find((name) => COMBINE_STRATEGIES[name] === SCORING_MODEL.combine);
if (combine === undefined) throw new Error('the shipped screening combine function is not one of COMBINE_STRATEGIES');

const { weights, freshness, boost, fusion } = SHIPPED_RANKING;
const parameters = {
  ranking: { weights, freshness, boost, fusion, authority: shippedTiers },
  verdictFactors: VERDICT_FACTORS,
  screening: { thresholds: SCORING_MODEL.thresholds, learnedModel: SCORING_MODEL.useModel, combine },
};

/** Parsed like any model file: shipped constants that break a rule (weights not summing to 1) fail every process at start-up. */
export const DEFAULT_SCORING_MODEL: ScoringModel = compileScoringModel(
  scoringModelSchema.parse({
    id: DEFAULT_MODEL_ID,
    version: inputHash(parameters).slice(0, 12),
    description: 'The weights, authority tiers, freshness curves and thresholds shipped with Skrya.',
    ...parameters,
  }),
);
