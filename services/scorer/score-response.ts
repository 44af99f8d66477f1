/**
 * One provider response → its scored items, or the reason it cannot be normalized. Pure and
 * self-contained, so it runs the same on the event loop and in a scoring worker thread.
 */
import { isSkryaError, type ErrorCode } from '../../runtime/errors.ts';
import type { RawResult, ScoredItem } from '../../schemas/messages.ts';
import { normalizeResponse, type ResponseParser } from './normalize-response.ts';
import { scoreResults } from './score-results.ts';

export type ResponseMessage = Extract<RawResult, { kind: 'RESPONSE' }>;

export type ScoredResponse =
  | { kind: 'scored'; items: ScoredItem[] }
  | { kind: 'normalize-failed'; code: ErrorCode; message: string };

export function scoreResponse(message: ResponseMessage, parsers: ReadonlyMap<string, ResponseParser>): ScoredResponse {
  let results;
  try {
    results = normalizeResponse(message, parsers);
  } catch (error) {
    if (!isSkryaError(error) || error.retriable) throw error;
    return { kind: 'normalize-failed', code: error.code, message: error.message };
  }
  return { kind: 'scored', items: scoreResults(message, results) };
}
