import type { Intent } from '../../../schemas/ingest.ts';

/**
 * Freshness (0–1) relative to the end of the request's time window, never the wall clock, so a
 * replay scores exactly as the original run did. It halves every `half-life` days of age:
 * freshness = 0.5 ^ (age / half-life). The half-life follows how fast each intent's answers go
 * stale (spec 001 phase 1: news wants the last day, status the last weeks, tutorials and
 * comparisons stay useful for a year or more).
 */
export const FRESHNESS_HALF_LIFE_DAYS: Readonly<Record<Intent, number>> = {
  news: 1,
  status: 7,
  exploratory: 180,
  comparison: 365,
  tutorial: 365,
  resource: 365,
  factual: 730,
};

/** Spec 001: an item without a usable date is neither fresh nor stale. */
export const UNDATED_FRESHNESS = 0.5;

/**
 * A date up to this far after the window end counts as "at the window end" (time zones, clock
 * skew). A date further in the future is not believed: it is scored like an undated item,
 * so a wrong or gamed date can never beat a real fresh one.
 */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;
const EXPLICIT_ZONE = /(?:\b(?:GMT|UTC|UT|Z)\b|[+-]\d{4}\b|\b[ECMP][SD]T\b)/;

/**
 * Milliseconds since the epoch, or null when the date is missing or ambiguous. ISO dates without
 * an offset are read as UTC; other formats (RFC 2822 from feeds) are accepted only with an explicit
 * zone, because `Date.parse` would otherwise use the local zone of whichever machine replays the run.
 */
export function parsePublishedAt(value: string | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (text === '') return null;
  const iso = ISO_DATE.exec(text);
  if (iso) {
    const [, time, zone] = iso;
    const normalized = time === undefined ? `${text.slice(0, 10)}T00:00:00Z` : zone === undefined ? `${text.replace(' ', 'T')}Z` : text.replace(' ', 'T');
    const parsed = Date.parse(normalized);
    return Number.isNaN(parsed) ? null : parsed;
  }
  if (!EXPLICIT_ZONE.test(text)) return null;
  const parsed = Date.parse(text);
  return Number.isNaN(parsed) ? null : parsed;
}

export function freshnessScore(publishedAt: string | null | undefined, windowEndMs: number, intent: Intent): number {
  const published = parsePublishedAt(publishedAt);
  if (published === null) return UNDATED_FRESHNESS;
  const ageMs = windowEndMs - published;
  if (ageMs < -FUTURE_TOLERANCE_MS) return UNDATED_FRESHNESS;
  const ageDays = Math.max(0, ageMs) / DAY_MS;
  return 0.5 ** (ageDays / FRESHNESS_HALF_LIFE_DAYS[intent]);
}

export type FreshnessBasis = 'published' | 'estimated' | 'undated';

export interface Freshness {
  score: number;
  basis: FreshnessBasis;
  /** The date measured from (ISO 8601), null when undated. */
  date: string | null;
}

/** Freshness with what it was measured from. */
export function freshnessOf(item: { published_at: string | null }, windowEndMs: number, intent: Intent): Freshness {
  const published = parsePublishedAt(item.published_at);
  if (published === null || windowEndMs - published < -FUTURE_TOLERANCE_MS) return { score: UNDATED_FRESHNESS, basis: 'undated', date: null };
  return { score: freshnessScore(item.published_at, windowEndMs, intent), basis: 'published', date: new Date(published).toISOString() };
}
