import { SkryaError } from '../../runtime/errors.ts';
import type { Freshness, Intent } from '../../schemas/ingest.ts';
import { detectSignals, SHIPPED_SIGNAL_RULES, type SignalRuleSet, type Span } from './detect-signals.ts';
import { expandQuery, SHIPPED_VOCABULARY, type ExpansionVocabulary } from './expand-query.ts';
import { INTENT_PROFILES, type SearchMode } from './intent-profiles.ts';
import { tidyQuery } from './normalize-query.ts';
import { decideIntent, intentModel, predictIntent } from './learned-intent.ts';
import { pickIntent } from './pick-intent.ts';

export interface IntentSignal {
  intent: Intent;
  /** The family of phrasings matched ("what is X", "X 教程"). */
  signal: string;
  /** [start, end) of the matched words in the query as given (UTF-16 units). */
  span: Span;
}

export interface QueryClassification {
  intent: Intent;
  /** The rules' own pick (strongest signal, most specific on ties, exploratory without any). */
  ruleIntent: Intent;
  /** The learned model's probabilities and the features behind its pick; null when disabled. */
  model: { probabilities: Record<Intent, number>; features: Array<{ feature: string; weight: number }> } | null;
  /** Every signal found, of every intent, in order of position: the evidence for `intent`. */
  signals: IntentSignal[];
  mode: SearchMode;
  freshness: Freshness | null;
  subQueries: string[];
}

export interface ClassifyOptions {
  /** The date whose year goes into status and news expansions; default now. */
  now?: Date;
  rules?: SignalRuleSet;
  vocabulary?: ExpansionVocabulary;
  /** false: the rules alone pick the intent (as before the learned model). Default true. */
  useModel?: boolean;
}

/**
 * Spec 001 phases 1 and 2 for one query: its intent (the learned model's pick over n-grams and
 * the rule signals, learned-intent.ts; the rules' own pick is kept as `ruleIntent`), the search mode and freshness that intent calls for, and the
 * sub-queries to run. Pure and deterministic for a given `now`. A blank query is INVALID_INPUT.
 */
export function classifyQuery(query: string, options: ClassifyOptions = {}): QueryClassification {
  if (tidyQuery(query) === '') throw new SkryaError('INVALID_INPUT', 'the query is empty: give the words to classify');
  const detected = detectSignals(query, options.rules ?? SHIPPED_SIGNAL_RULES);
  const ruleIntent = pickIntent(detected);
  const prediction = options.useModel === false ? null : predictIntent(intentModel(detectSignals), query, detected);
  const intent = prediction === null ? ruleIntent : decideIntent(ruleIntent, detected, prediction);
  const profile = INTENT_PROFILES[intent];
  return {
    intent,
    ruleIntent,
    model: prediction === null ? null : { probabilities: prediction.probabilities, features: prediction.features },
    signals: detected.map(({ intent: signalIntent, signal, span }) => ({ intent: signalIntent, signal, span })),
    mode: profile.mode,
    freshness: profile.freshness,
    subQueries: expandQuery(query, intent, {
      signals: detected,
      now: options.now ?? new Date(),
      vocabulary: options.vocabulary ?? SHIPPED_VOCABULARY,
    }),
  };
}
