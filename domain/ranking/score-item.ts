import type { Intent } from '../../schemas/ingest.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { createBoostMatcher } from './domain-boost.ts';
import { freshnessOf, parsePublishedAt, staleAuthority, type FreshnessBasis } from './freshness.ts';
import { singleListRank } from './fusion.ts';
import { contentWeight, type ScoreWeights } from './intent-weights.ts';
import { keywordCoverage, prepareQueries, type PreparedQueries } from './keyword-coverage.ts';
import { SHIPPED_RANKING, type RankingModel } from './ranking-model.ts';
import { parseUrl } from '../urls/parse-url.ts';

/**
 * The content score: (w_keyword·keyword + w_freshness·freshness + w_authority·authority) over the
 * sum of those three weights (spec 001 phase 4, weights per intent). The collector fuses it with
 * the providers' rank and agreement (fusion.ts), which need the whole run. Every component is
 * returned so the item carries why it ranked where it did.
 * Without an intent nothing is scored (spec 001 "向后兼容"): score and components are null and
 * the caller keeps provider order.
 */
export interface ScorableItem {
  url: string | null;
  title: string;
  snippet?: string | null;
  summary?: string | null;
  content?: string | null;
  published_at: string | null;
  /** 1-based rank in the provider's list, when the item came from a ranked list. */
  providerRank?: number | null;
}

export interface ScoringContext {
  intent: Intent | null;
  /** The query and its expansions; keyword coverage is measured over all of them. */
  subQueries: readonly string[];
  /** End of the request's time window (ISO 8601); freshness is measured from here, never from the clock. */
  windowEnd: string;
  /** Extra domains to boost, on top of the intent's defaults. */
  boostDomains?: readonly string[];
}

export interface ScoreComponents {
  keyword: number;
  freshness: number;
  /** Tier score plus the domain boost, capped at 1, shrunk for a stale page where answers go stale (staleAuthority). */
  authority: number;
  /** The providers' order: here the item's own list only (the collector fuses all lists); RANK_NEUTRAL when unranked. */
  rank: number;
  authorityTier: number;
  /** What freshness was measured from: the published date, a date estimated from the URL or text, or nothing. */
  freshnessBasis: FreshnessBasis;
  /** That date (ISO 8601), null when undated. */
  freshnessDate: string | null;
  /** The tiers-file rule that set the tier (null: default tier), and the file's version. */
  authorityRule: string | null;
  authorityVersion: string;
  boosted: boolean;
  weights: ScoreWeights;
}

export interface ItemScore {
  score: number | null;
  components: ScoreComponents | null;
}

/** Keyword text beyond the snippet: when only full content exists, its opening stands in for a snippet. */
export const KEYWORD_CONTENT_CHARS = 1000;

const UNSCORED: ItemScore = Object.freeze({ score: null, components: null });

/** Six decimals: stored components read cleanly and compare equal across runs. */
export function roundScore(value: number): number {
  return Math.round(Math.min(1, Math.max(0, value)) * 1e6) / 1e6;
}

export function hostOf(url: string | null): string | null {
  const parsed = url === null ? null : parseUrl(url);
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.hostname : null;
}

/** The rank component of an item at `providerRank` in its provider's list (RANK_NEUTRAL when unranked). */
export function listRankComponent(providerRank: number | null | undefined, model: RankingModel = SHIPPED_RANKING): number {
  return providerRank === undefined || providerRank === null ? model.fusion.rankNeutral : roundScore(singleListRank(providerRank, model.fusion.rrfK));
}

export function keywordText(item: ScorableItem): string {
  const body = item.snippet || item.summary || (item.content ? item.content.slice(0, KEYWORD_CONTENT_CHARS) : '');
  return `${item.title} ${body}`;
}

/** Sub-query lists remembered before the memo starts over. */
const PREPARED_QUERIES_LIMIT = 256;
const preparedQueries = new Map<string, PreparedQueries>();

/**
 * The prepared form of a request's sub-queries, shared by requests asking the same ones: a topic's
 * runs ask the same sub-queries run after run, and preparing them (the alias table read whole)
 * cost as much as matching them against all twenty items of a bench run. Prepared queries are
 * never changed once made.
 */
function preparedQueriesOf(subQueries: readonly string[]): PreparedQueries {
  const key = JSON.stringify(subQueries);
  let prepared = preparedQueries.get(key);
  if (prepared === undefined) {
    if (preparedQueries.size >= PREPARED_QUERIES_LIMIT) preparedQueries.clear();
    prepared = prepareQueries(subQueries);
    preparedQueries.set(key, prepared);
  }
  return prepared;
}

/**
 * Prepares one request's scoring (query terms, boost rules, window end) once, and returns the
 * per-item scorer. Use this for bulk scoring; `scoreItem` is the one-off form.
 */
export function createItemScorer(context: ScoringContext, model: RankingModel = SHIPPED_RANKING): (item: ScorableItem) => ItemScore {
  const { intent } = context;
  if (intent === null) return () => UNSCORED;
  const windowEndMs = parsePublishedAt(context.windowEnd);
  if (windowEndMs === null) {
    throw new SkryaError('INVALID_INPUT', `window end ${JSON.stringify(context.windowEnd)} is not an ISO 8601 date-time`);
  }
  const { authority } = model;
  const weights = model.weights[intent];
  const queries = preparedQueriesOf(context.subQueries);
  const boost = createBoostMatcher([...model.boost.domains[intent], ...(context.boostDomains ?? [])]);

  return (item) => {
    const keyword = roundScore(keywordCoverage(queries, keywordText(item)));
    const fresh = freshnessOf(item, windowEndMs, intent, model.freshness);
    const freshness = roundScore(fresh.score);
    const host = hostOf(item.url);
    const tier = host === null ? authority.classifyHost('') : authority.classifyHost(host);
    const boosted = host !== null && boost.matches(host);
    const authorityScore = roundScore(staleAuthority(Math.min(1, tier.score + (boosted ? model.boost.amount : 0)), fresh, intent, model.freshness));
    const score = roundScore((weights.keyword * keyword + weights.freshness * freshness + weights.authority * authorityScore) / contentWeight(weights));
    const rank = listRankComponent(item.providerRank, model);
    return {
      score,
      components: {
        keyword,
        freshness,
        authority: authorityScore,
        rank,
        authorityTier: tier.tier,
        freshnessBasis: fresh.basis,
        freshnessDate: fresh.date,
        authorityRule: tier.rule,
        authorityVersion: authority.version,
        boosted,
        weights: { ...weights },
      },
    };
  };
}

export function scoreItem(item: ScorableItem, context: ScoringContext, model: RankingModel = SHIPPED_RANKING): ItemScore {
  return createItemScorer(context, model)(item);
}
