/**
 * Vitest global setup: builds the learned classifiers into the model cache once, before any worker
 * starts, so no test pays (or races on) the first training, and fetches the real-text corpus's
 * Debian and npm packages (promptfoo's among them, whose jailbreak prompts a test also reads), which
 * quality tests read even when the model is cached. A no-op when the
 * caches are current.
 */
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { intentModel } from '../domain/intent/learned-intent.ts';
import { injectionModel } from '../domain/screening/learned-model.ts';
import { realTextCorpus } from '../domain/screening/real-text/real-text-corpus.ts';

export default function setup(): void {
  injectionModel();
  realTextCorpus();
  intentModel(detectSignals);
}
