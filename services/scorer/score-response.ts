/**
 * One provider response → its scored items, or the reason it cannot be normalized: the normalize
 * step, then the item steps (score-results.ts). Self-contained, so it runs the same on the event
 * loop and in a scoring worker thread.
 */
import type { ErrorCode } from '../../runtime/errors.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';
import type { ScoredItem } from '../../schemas/messages.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import type { ResponseParser } from './normalize-response.ts';
import { createResultsScorer } from './score-results.ts';
import { candidatesOf, createNormalizeStep, type ResponseMessage } from './steps/normalize.ts';

export type { ResponseMessage } from './steps/normalize.ts';

export type ScoredResponse =
  | { kind: 'scored'; items: ScoredItem[] }
  | { kind: 'normalize-failed'; code: ErrorCode; message: string };

/**
 * The response's result; `results`, when given, are its provider results, normalized elsewhere (as
 * a scoring pool's caller may, which then leaves the payload out of `message`).
 */
export function createResponseScorer(options: { parsers: ReadonlyMap<string, ResponseParser>; model: ScoringModel }): (message: ResponseMessage, results?: readonly ProviderResult[] | null) => ScoredResponse {
  const normalize = createNormalizeStep(options.parsers);
  const scoreResults = createResultsScorer(options.model);
  return (message, results = null) => {
    const normalized = results === null ? normalize(message) : { kind: 'normalized' as const, results };
    if (normalized.kind === 'normalize-failed') return normalized;
    return { kind: 'scored', items: scoreResults(message, candidatesOf(message, normalized.results)) };
  };
}
