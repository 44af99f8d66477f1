import type { Intent } from '../../schemas/ingest.ts';
import type { DetectedSignal } from './detect-signals.ts';
import { DEFAULT_INTENT, SPECIFICITY_ORDER } from './intent-profiles.ts';

/**
 * The winning intent: the one with the strongest single signal; among equally strong ones the
 * most specific (SPECIFICITY_ORDER); no signal at all means exploratory.
 * Strength beats specificity so that an explicit phrasing ("教程", "what's new") outranks a hint
 * of a more specific intent (a stray "or", "和").
 */
export function pickIntent(signals: readonly Pick<DetectedSignal, 'intent' | 'strength'>[]): Intent {
  const strongest = new Map<Intent, number>();
  for (const { intent, strength } of signals) strongest.set(intent, Math.max(strongest.get(intent) ?? 0, strength));
  let winner: Intent = DEFAULT_INTENT;
  let winnerStrength = 0;
  for (const intent of SPECIFICITY_ORDER) {
    const strength = strongest.get(intent) ?? 0;
    if (strength > winnerStrength) {
      winner = intent;
      winnerStrength = strength;
    }
  }
  return winner;
}
