import type { Intent } from '../../schemas/ingest.ts';
import { instantOfIsoText, isoTextOf } from '../dates/instant-text.ts';
import { parseUrl } from '../urls/parse-url.ts';

/**
 * Freshness (0–1) relative to the end of the request's time window, never the wall clock, so a
 * replay scores exactly as the original run did. Each intent has a log-logistic curve
 * freshness = 1 / (1 + (age / midpoint)^steepness): 1 at age 0, 0.5 at the midpoint, and a tail
 * that decays gently instead of falling off a cliff. Spec 001's exponential half-lives (news 1 day,
 * status 7) put a 3-day-old report at 0.09 and a 7-day-old one at 0.01, below an undated page's
 * neutral 0.5; on the judged set (issue 21) people still want last week's reports for news.
 * Midpoints were chosen on the judged set's dev pools: news 4 days, status 30 days, the
 * evergreen intents a year or more.
 */
export interface FreshnessCurve {
  midpointDays: number;
  steepness: number;
}

export const FRESHNESS_CURVES: Readonly<Record<Intent, FreshnessCurve>> = {
  news: { midpointDays: 4, steepness: 2 },
  status: { midpointDays: 30, steepness: 1.5 },
  exploratory: { midpointDays: 365, steepness: 1.5 },
  comparison: { midpointDays: 365, steepness: 2 },
  tutorial: { midpointDays: 540, steepness: 2 },
  resource: { midpointDays: 1095, steepness: 1.5 },
  factual: { midpointDays: 1095, steepness: 1.5 },
};

/** Spec 001's neutral value for an item without a date; kept for intents where age matters little. */
export const UNDATED_FRESHNESS = 0.5;

/**
 * An item with no date and none that can be estimated: for news and status "no date" mostly means
 * an evergreen page (an encyclopedia article, a product home page), which must not outrank dated
 * reports, so it gets a penalty; evergreen intents keep close to neutral.
 */
export const UNDATED_FRESHNESS_BY_INTENT: Readonly<Record<Intent, number>> = {
  news: 0.05,
  status: 0.15,
  comparison: 0.35,
  tutorial: 0.4,
  exploratory: 0.4,
  factual: 0.5,
  resource: 0.5,
};

/** Intents whose answers go stale: for them a strong domain cannot carry a stale page (see staleAuthority). */
export const FRESHNESS_SENSITIVE: ReadonlySet<Intent> = new Set(['news', 'status', 'comparison', 'tutorial', 'exploratory']);

/**
 * A date up to this far after the window end counts as "at the window end" (time zones, clock
 * skew). A date further in the future is not believed: it is scored like an undated item,
 * so a wrong or gamed date can never beat a real fresh one.
 */
export const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

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
  const instant = instantOfIsoText(text);
  if (instant !== null) return instant;
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

const DAY_MS_CURVE = 24 * 60 * 60 * 1000;

/** The intent's curve at an age in days (negative ages count as 0). */
export function curveFreshness(ageDays: number, intent: Intent, curves: FreshnessModel['curves'] = FRESHNESS_CURVES): number {
  const { midpointDays, steepness } = curves[intent];
  return 1 / (1 + (Math.max(0, ageDays) / midpointDays) ** steepness);
}

/** Freshness of a published date; an undated or unbelievable one gets the intent's undated value. */
export function freshnessScore(publishedAt: string | null | undefined, windowEndMs: number, intent: Intent, model: FreshnessModel = SHIPPED_FRESHNESS): number {
  const published = parsePublishedAt(publishedAt);
  if (published === null) return model.undated[intent];
  const ageMs = windowEndMs - published;
  if (ageMs < -FUTURE_TOLERANCE_MS) return model.undated[intent];
  return curveFreshness(ageMs / DAY_MS_CURVE, intent, model.curves);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_NAME = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const monthOf = (name: string) => MONTHS.findIndex((month) => month.startsWith(name.slice(0, 3).toLowerCase())) + 1;

interface DatePattern {
  pattern: RegExp;
  /** Year, month, day from a match; day null means "some day that month" (taken as the 15th, or the window end if that is earlier). */
  read: (match: RegExpExecArray) => [number, number, number | null];
}

/** Dates in URL paths: /2026/11/18/, /2026-11-18-, /20261118.txt, /2026/11/ (month only). */
const URL_DATES: readonly DatePattern[] = [
  { pattern: /[/_-](20\d{2})[/_-](0?[1-9]|1[0-2])[/_-](0?[1-9]|[12]\d|3[01])(?=[/_.-]|$)/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { pattern: /[/_-](20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=[/_.-]|$)/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { pattern: /\/(20\d{2})\/(0[1-9]|1[0-2])\//, read: (m) => [Number(m[1]), Number(m[2]), null] },
];

/** Dates written in text: 2026-11-18, November 18, 2026, 18 November 2026, 2026 年 11 月 18 日. */
const TEXT_DATES: readonly DatePattern[] = [
  { pattern: /\b(20\d{2})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])\b/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
  { pattern: new RegExp(`\\b${MONTH_NAME}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(20\\d{2})\\b`, 'i'), read: (m) => [Number(m[3]), monthOf(m[1]!), Number(m[2])] },
  { pattern: new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH_NAME}\\s+(20\\d{2})\\b`, 'i'), read: (m) => [Number(m[3]), monthOf(m[2]!), Number(m[1])] },
  { pattern: /(20\d{2})\s*年\s*(1[0-2]|0?[1-9])\s*月\s*(3[01]|[12]\d|0?[1-9])\s*日/, read: (m) => [Number(m[1]), Number(m[2]), Number(m[3])] },
];

function dateFrom(patterns: readonly DatePattern[], text: string, windowEndMs: number): number | null {
  for (const { pattern, read } of patterns) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const [year, month, day] = read(match);
    if (month < 1 || month > 12) continue;
    const ms = Date.UTC(year, month - 1, day ?? 15);
    const date = new Date(ms);
    if (date.getUTCMonth() !== month - 1) continue;
    // A month-only date counts as its 15th, or as the window end when the window ends earlier that month.
    const earliest = day === null ? Date.UTC(year, month - 1, 1) : ms;
    if (earliest - windowEndMs > FUTURE_TOLERANCE_MS) continue;
    return day === null ? Math.min(ms, windowEndMs) : ms;
  }
  return null;
}

/** Text read for a date when the item has none: title, snippet and the opening of the page. */
export const ESTIMATE_TEXT_CHARS = 600;

/**
 * A publication date for an undated item, from its URL (/2026/11/18/) or, failing that, the
 * first date written in its title, snippet or the opening of its content. Null when neither has one
 * (or it lies after the window end). Only for items without a published date.
 */
export function estimatePublishedAt(item: { url?: string | null; title?: string; snippet?: string | null; summary?: string | null; content?: string | null }, windowEndMs: number): number | null {
  const path = item.url ? (parseUrl(item.url)?.pathname ?? '') : '';
  const fromUrl = path === '' ? null : dateFrom(URL_DATES, path, windowEndMs);
  if (fromUrl !== null) return fromUrl;
  const text = `${item.title ?? ''}\n${item.snippet ?? item.summary ?? ''}\n${(item.content ?? '').slice(0, ESTIMATE_TEXT_CHARS)}`;
  return dateFrom(TEXT_DATES, text, windowEndMs);
}

export type FreshnessBasis = 'published' | 'estimated' | 'undated';

export interface Freshness {
  score: number;
  basis: FreshnessBasis;
  /** The date measured from (ISO 8601), null when undated. */
  date: string | null;
}

/** Freshness with what it was measured from: the published date, else an estimate, else the intent's undated value. */
export function freshnessOf(item: { published_at: string | null; url?: string | null; title?: string; snippet?: string | null; summary?: string | null; content?: string | null }, windowEndMs: number, intent: Intent, model: FreshnessModel = SHIPPED_FRESHNESS): Freshness {
  const published = parsePublishedAt(item.published_at);
  if (published !== null && windowEndMs - published >= -FUTURE_TOLERANCE_MS) {
    return { score: curveFreshness((windowEndMs - published) / DAY_MS_CURVE, intent, model.curves), basis: 'published', date: isoTextOf(published, item.published_at?.trim()) };
  }
  const estimated = estimatePublishedAt(item, windowEndMs);
  if (estimated !== null) return { score: curveFreshness((windowEndMs - estimated) / DAY_MS_CURVE, intent, model.curves), basis: 'estimated', date: isoTextOf(estimated) };
  return { score: model.undated[intent], basis: 'undated', date: null };
}

/**
 * Stale but authoritative, handled explicitly: for intents whose answers go stale, authority counts
 * in full only while the page is reasonably fresh; below STALE_FRESHNESS it shrinks in proportion,
 * down to STALE_AUTHORITY_FLOOR of itself, so a 2021 article on a strong domain cannot sit at the
 * top of a tutorial query on its domain alone. Undated items keep their authority (their freshness
 * is already the intent's undated value). Factual and resource answers do not go stale this way.
 */
export const STALE_FRESHNESS = 0.3;
export const STALE_AUTHORITY_FLOOR = 0.4;

export function staleAuthority(authority: number, freshness: Freshness, intent: Intent, model: FreshnessModel = SHIPPED_FRESHNESS): number {
  if (!model.staleIntents.includes(intent) || freshness.basis === 'undated' || freshness.score >= model.staleFreshness) return authority;
  return authority * Math.max(model.staleAuthorityFloor, freshness.score / model.staleFreshness);
}

/**
 * The freshness part of a scoring model (domain/scoring-model): the constants above are the
 * shipped values; a replay may score with others.
 */
export interface FreshnessModel {
  curves: Readonly<Record<Intent, FreshnessCurve>>;
  /** Freshness of an item with no date and none that can be estimated. */
  undated: Readonly<Record<Intent, number>>;
  /** Intents whose answers go stale (staleAuthority). */
  staleIntents: readonly Intent[];
  staleFreshness: number;
  staleAuthorityFloor: number;
}

export const SHIPPED_FRESHNESS: FreshnessModel = {
  curves: FRESHNESS_CURVES,
  undated: UNDATED_FRESHNESS_BY_INTENT,
  staleIntents: [...FRESHNESS_SENSITIVE],
  staleFreshness: STALE_FRESHNESS,
  staleAuthorityFloor: STALE_AUTHORITY_FLOOR,
};
