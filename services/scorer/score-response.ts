/**
 * One provider response → its scored items, or the reason it cannot be normalized: the normalize
 * step, then the item steps (score-results.ts). Self-contained, so it runs the same on the event
 * loop and in a scoring worker thread.
 */
import type { ErrorCode } from '../../runtime/errors.ts';
import type { ScoredItem } from '../../schemas/messages.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import type { ResponseParser } from './normalize-response.ts';
import { createResultsScorer } from './score-results.ts';
import { createNormalizeStep, type Candidate, type ResponseMessage } from './steps/normalize.ts';

export type { ResponseMessage } from './steps/normalize.ts';

export type ScoredResponse =
  | { kind: 'scored'; items: ScoredItem[] }
  | { kind: 'normalize-failed'; code: ErrorCode; message: string };

/** The response's result; `candidates`, when given, are its normalized results (normalized elsewhere, as a scoring pool may). */
export function createResponseScorer(options: { parsers: ReadonlyMap<string, ResponseParser>; model: ScoringModel }): (message: ResponseMessage, candidates?: readonly Candidate[] | null) => ScoredResponse {
  const normalize = createNormalizeStep(options.parsers);
  const scoreResults = createResultsScorer(options.model);
  return (message, candidates = null) => {
    const normalized = candidates === null ? normalize(message) : { kind: 'normalized' as const, candidates };
    if (normalized.kind === 'normalize-failed') return normalized;
    return { kind: 'scored', items: scoreResults(message, normalized.candidates) };
  };
}
