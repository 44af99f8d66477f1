/**
 * Vitest global setup: builds the learned classifiers into the model cache once, before any worker
 * starts, so no test pays (or races on) the first training. A no-op when the cache is current.
 */
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { intentModel } from '../domain/intent/learned-intent.ts';
import { injectionModel } from '../domain/screening/learned-model.ts';

export default function setup(): void {
  injectionModel();
  intentModel(detectSignals);
}
