/**
 * The scoring model of injection screening, in one place: how the rules' risk and the learned
 * model's calibrated risk combine, and the verdict thresholds on the result. The learned model's
 * own operating point is not a constant here: training picks it on the validation split and stores
 * it with the weights as a shift that puts it exactly on `thresholds.quarantine`.
 *
 * Combination: the larger of the two risks. The rules stay explainable, high-precision evidence
 * (a strong rule hit quarantines whatever the model says); the model adds recall on wording no
 * rule names. On the first corpus's validation split: model alone recall 0.45 (FPR 0.03, hard
 * 0.06), rules alone 0.12 (FPR 0.015), the larger of both 0.50 (FPR 0.05, hard 0.10). The shipped
 * model's own out-of-family figures at its operating point are stored with its weights
 * (`npm run train:injection` prints them); held-out figures are in README "Quality".
 */
import { DEFAULT_THRESHOLDS, type Thresholds } from './score.ts';

export interface ScoringModel {
  thresholds: Thresholds;
  useModel: boolean;
  combine: (ruleScore: number, modelRisk: number) => number;
}

/** The ways to combine the two risks, by the name a scoring model file uses (domain/scoring-model). */
export const COMBINE_STRATEGIES = {
  max: (ruleScore: number, modelRisk: number) => Math.max(ruleScore, modelRisk),
} as const satisfies Record<string, ScoringModel['combine']>;
export type CombineStrategy = keyof typeof COMBINE_STRATEGIES;

export const SCORING_MODEL: ScoringModel = {
  thresholds: DEFAULT_THRESHOLDS,
  useModel: true,
  combine: COMBINE_STRATEGIES.max,
};

/** Rules only: the screener as it was before the learned model (for comparisons and rule tests). */
export const RULES_ONLY: ScoringModel = { ...SCORING_MODEL, useModel: false };
