/**
 * Step 1, normalize: a provider response → its results, in the provider's order, and each result
 * as a candidate skrya.ingest.v1 item (candidatesOf). A response no parser can read is a failure
 * of the whole response (NORMALIZE_FAILED, dead-lettered by the handler); a retriable error is thrown.
 */
import { isSkryaError, type ErrorCode } from '../../../runtime/errors.ts';
import type { Capability, ProviderResult } from '../../../schemas/ingest.ts';
import type { RawResult } from '../../../schemas/messages.ts';
import { hostOf } from '../../../domain/ranking/score-item.ts';
import { normalizeResponse, type ResponseParser } from '../normalize-response.ts';

export type ResponseMessage = Extract<RawResult, { kind: 'RESPONSE' }>;

const EVIDENCE_TYPES: Record<Capability, string> = {
  rss_feed: 'news',
  news_search: 'news',
  web_search: 'web',
  site_search: 'web',
  social_search: 'social',
  document_fetch: 'document',
  local_file: 'note',
};

/** One result as spec 000 fields (not yet validated), with where it stood in the response. */
export interface Candidate {
  position: number;
  result: ProviderResult;
  fields: {
    /**
     * Provisional, so validation does not hash an id of its own (and report MISSING_ID) for every
     * result: the item's id is set after validation, from the validated fields (validate.ts).
     */
    id: string;
    title: string;
    url: string | null;
    source_name: string | null;
    published_at: string | null;
    fetched_at: string;
    language: string | null;
    content: string | null;
    summary: string | null;
    evidence_type: string;
    confidence: null;
  };
}

export type Normalized = { kind: 'normalized'; results: ProviderResult[] } | { kind: 'normalize-failed'; code: ErrorCode; message: string };

/** Provider results → candidates; the part of normalizing that needs no parser. */
export function candidatesOf(message: ResponseMessage, results: readonly ProviderResult[]): Candidate[] {
  const { response } = message;
  return results.map((result, position) => ({
    position,
    result,
    fields: {
      id: `result-${position}`,
      title: result.title,
      url: result.url || null,
      source_name: result.source || hostOf(result.url || null),
      published_at: result.published_date,
      fetched_at: response.fetched_at,
      language: result.language,
      content: result.content,
      summary: result.snippet || null,
      evidence_type: EVIDENCE_TYPES[response.capability],
      confidence: null,
    },
  }));
}

export function createNormalizeStep(parsers: ReadonlyMap<string, ResponseParser>): (message: ResponseMessage) => Normalized {
  return (message) => {
    let results;
    try {
      results = normalizeResponse(message, parsers);
    } catch (error) {
      if (!isSkryaError(error) || error.retriable) throw error;
      return { kind: 'normalize-failed', code: error.code, message: error.message };
    }
    return { kind: 'normalized', results };
  };
}
