import type { Intent } from '../../schemas/ingest.ts';
import { correctTypos } from './correct-typos.ts';
import { originalSpan } from './mapped-text.ts';
import { normalizeQuery } from './normalize-query.ts';
import { SIGNAL_RULES, SIGNAL_VOCABULARY, type SignalRole, type SignalRule, type SignalStrength } from './signal-rules.ts';

export type Span = [number, number];

export interface DetectedSignal {
  intent: Intent;
  signal: string;
  strength: SignalStrength;
  role: SignalRole;
  /** [start, end) in the query as typed (UTF-16 units). */
  span: Span;
  /** The parts of the span that are framing, not topic (the whole span unless the rule has groups). */
  framing: Span[];
}

export interface SignalRuleSet {
  rules: readonly SignalRule[];
  /** English signal words a misspelt word may be corrected to. */
  vocabulary: ReadonlySet<string>;
}

export const SHIPPED_SIGNAL_RULES: SignalRuleSet = { rules: SIGNAL_RULES, vocabulary: SIGNAL_VOCABULARY };

/** Every signal of every intent found in the query, in order of position (stronger first on ties). */
export function detectSignals(query: string, ruleSet: SignalRuleSet = SHIPPED_SIGNAL_RULES): DetectedSignal[] {
  const folded = correctTypos(normalizeQuery(query), ruleSet.vocabulary);
  const cased = normalizeQuery(query, { keepCase: true });
  const found: DetectedSignal[] = [];
  for (const rule of ruleSet.rules) {
    const matchable = rule.caseSensitive ? cased : folded;
    for (const match of matchable.text.matchAll(rule.pattern)) {
      if (match[0].length === 0) continue;
      const groups = (match.indices ?? []).slice(1).filter((range): range is [number, number] => range !== undefined && range[1] > range[0]);
      const framingInText = groups.length > 0 ? groups : [[match.index, match.index + match[0].length] as [number, number]];
      found.push({
        intent: rule.intent,
        signal: rule.signal,
        strength: rule.strength,
        role: rule.role,
        span: originalSpan(matchable, match.index, match.index + match[0].length),
        framing: framingInText.map(([start, end]) => originalSpan(matchable, start, end)),
      });
    }
  }
  return found.sort((left, right) => left.span[0] - right.span[0] || right.strength - left.strength || left.span[1] - right.span[1]);
}
