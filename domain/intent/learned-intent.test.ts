import { describe, expect, it } from 'vitest';
import { INTENTS, type Intent } from '../../schemas/ingest.ts';
import { decideIntent, INTENT_DECISION } from './learned-intent.ts';

/** A model's prediction that is `confidence` sure of `intent`, the rest spread evenly. */
function prediction(intent: Intent, confidence: number) {
  const rest = (1 - confidence) / (INTENTS.length - 1);
  return { intent, probabilities: Object.fromEntries(INTENTS.map((name) => [name, name === intent ? confidence : rest])) as Record<Intent, number> };
}

describe('decideIntent: how rules and model decide together', () => {
  it('keeps a rule cue unless the model is at least overruleConfidence sure of another intent', () => {
    const cue = [{ strength: 2 as const }];
    expect(decideIntent('comparison', cue, prediction('tutorial', INTENT_DECISION.overruleConfidence - 0.01))).toBe('comparison');
    expect(decideIntent('comparison', cue, prediction('tutorial', INTENT_DECISION.overruleConfidence))).toBe('tutorial');
  });

  it('lets the model overrule hints alone ("or", "和") from hintOverruleConfidence on, but not a hint beside a cue', () => {
    const hints = [{ strength: 1 as const }, { strength: 1 as const }];
    expect(decideIntent('comparison', hints, prediction('tutorial', INTENT_DECISION.hintOverruleConfidence))).toBe('tutorial');
    expect(decideIntent('comparison', hints, prediction('tutorial', INTENT_DECISION.hintOverruleConfidence - 0.01))).toBe('comparison');
    expect(decideIntent('comparison', [...hints, { strength: 3 as const }], prediction('tutorial', INTENT_DECISION.hintOverruleConfidence))).toBe('comparison');
  });

  it('with no signal takes the model from minConfidence on, else keeps the rules\' fallback', () => {
    expect(decideIntent('exploratory', [], prediction('factual', INTENT_DECISION.minConfidence))).toBe('factual');
    expect(decideIntent('exploratory', [], prediction('factual', INTENT_DECISION.minConfidence - 0.01))).toBe('exploratory');
  });
});
