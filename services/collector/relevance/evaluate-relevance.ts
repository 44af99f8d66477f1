/**
 * Ranking quality on the judged set: nDCG@10 and P@5 for Skrya's ranking (rankItems, the
 * function the collector and `skrya rank` share), the order the providers returned (their lists
 * interleaved rank by rank, exact-URL copies dropped, as a client showing the engines' order
 * would) and random order (seeded, averaged over RANDOM_SEEDS shuffles), per intent, per
 * language and overall, with 95 % bootstrap intervals over queries.
 */
import { INTENTS, type Intent } from '../../../schemas/ingest.ts';
import { canonicalUrl } from '../../../domain/urls/canonical-url.ts';
import { rankItems, type RankableItem, type RankOptions } from '../../../domain/dedupe/rank-items.ts';
import type { JudgedPool, JudgedResult, Language, Split } from './judged-set.ts';
import { bootstrapMean, ndcgAt, precisionAt, seededShuffle, type Interval } from './metrics.ts';

export const RANKERS = ['skrya', 'provider', 'random'] as const;
export type Ranker = (typeof RANKERS)[number];
export const RANDOM_SEEDS = 20;

export interface PoolScores {
  pool: JudgedPool;
  ndcg: Record<Ranker, number>;
  precision: Record<Ranker, number>;
  /** Skrya's ranking as document ids, best first (for reading a pool's result). */
  skryaRanking: string[];
}

export interface SliceReport {
  name: string;
  pools: number;
  ndcg: Record<Ranker, Interval>;
  precision: Record<Ranker, Interval>;
  /** Skrya − provider order, per query, with its interval. */
  ndcgGainOverProvider: Interval;
  /** Queries where Skrya's nDCG@10 is above / equal to / below the provider order's. */
  wins: number;
  ties: number;
  losses: number;
}

function itemOf(pool: JudgedPool, result: JudgedResult): RankableItem & { doc: string } {
  return {
    id: `${pool.id}-r${String(result.row).padStart(2, '0')}`,
    url: result.url,
    title: result.title,
    snippet: result.snippet,
    published_at: result.publishedDate,
    provider: result.provider,
    providerRank: result.providerRank,
    resultList: `${result.provider}/${result.subQuery}`,
    doc: result.doc,
  };
}

export function skryaRanking(pool: JudgedPool, options: RankOptions = {}): string[] {
  const items = pool.results.map((result) => itemOf(pool, result));
  const ranked = rankItems(items, { intent: pool.intent, subQueries: pool.subQueries, windowEnd: pool.windowEnd }, options);
  return ranked.map((entry) => entry.item.doc);
}

/** Exact-URL copies dropped, first occurrence kept. */
function distinctByUrl(results: readonly JudgedResult[]): JudgedResult[] {
  const seen = new Set<string>();
  return results.filter((result) => {
    const key = canonicalUrl(result.url) ?? result.url;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The engines' own order: every list's rank 1, then every list's rank 2, … (lists in file order). */
export function providerRanking(pool: JudgedPool): string[] {
  const listOrder = new Map<string, number>();
  for (const result of pool.results) {
    const list = `${result.provider}/${result.subQuery}`;
    if (!listOrder.has(list)) listOrder.set(list, listOrder.size);
  }
  const ordered = [...pool.results].sort((a, b) => a.providerRank - b.providerRank || listOrder.get(`${a.provider}/${a.subQuery}`)! - listOrder.get(`${b.provider}/${b.subQuery}`)!);
  return distinctByUrl(ordered).map((result) => result.doc);
}

function poolSeed(pool: JudgedPool, round: number): number {
  let hash = 2166136261;
  for (const character of pool.id) hash = Math.imul(hash ^ character.charCodeAt(0), 16777619);
  return (hash + round * 7919) >>> 0;
}

export function randomRankings(pool: JudgedPool, seeds = RANDOM_SEEDS): string[][] {
  const distinct = distinctByUrl(pool.results);
  return Array.from({ length: seeds }, (_unused, round) => seededShuffle(distinct, poolSeed(pool, round)).map((result) => result.doc));
}

const average = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

export function scorePool(pool: JudgedPool, options: RankOptions = {}): PoolScores {
  const skrya = skryaRanking(pool, options);
  const provider = providerRanking(pool);
  const randoms = randomRankings(pool);
  return {
    pool,
    skryaRanking: skrya,
    ndcg: { skrya: ndcgAt(skrya, pool.grades), provider: ndcgAt(provider, pool.grades), random: average(randoms.map((ranking) => ndcgAt(ranking, pool.grades))) },
    precision: { skrya: precisionAt(skrya, pool.grades), provider: precisionAt(provider, pool.grades), random: average(randoms.map((ranking) => precisionAt(ranking, pool.grades))) },
  };
}

export function summarize(name: string, scores: readonly PoolScores[]): SliceReport {
  const per = <K extends 'ndcg' | 'precision'>(kind: K) =>
    Object.fromEntries(RANKERS.map((ranker) => [ranker, bootstrapMean(scores.map((score) => score[kind][ranker]))])) as Record<Ranker, Interval>;
  const gains = scores.map((score) => score.ndcg.skrya - score.ndcg.provider);
  const EPSILON = 1e-9;
  return {
    name,
    pools: scores.length,
    ndcg: per('ndcg'),
    precision: per('precision'),
    ndcgGainOverProvider: bootstrapMean(gains),
    wins: gains.filter((gain) => gain > EPSILON).length,
    ties: gains.filter((gain) => Math.abs(gain) <= EPSILON).length,
    losses: gains.filter((gain) => gain < -EPSILON).length,
  };
}

export interface RelevanceReport {
  split: Split | 'all';
  overall: SliceReport;
  byLanguage: Record<Language, SliceReport>;
  byIntent: Record<Intent, SliceReport>;
  pools: PoolScores[];
}

export function evaluateRelevance(pools: readonly JudgedPool[], split: Split | 'all', options: RankOptions = {}): RelevanceReport {
  const scores = pools.filter((pool) => split === 'all' || pool.split === split).map((pool) => scorePool(pool, options));
  const slice = (name: string, keep: (pool: JudgedPool) => boolean) => summarize(name, scores.filter((score) => keep(score.pool)));
  return {
    split,
    overall: slice('overall', () => true),
    byLanguage: { en: slice('en', (pool) => pool.language === 'en'), zh: slice('zh', (pool) => pool.language === 'zh') },
    byIntent: Object.fromEntries(INTENTS.map((intent) => [intent, slice(intent, (pool) => pool.intent === intent)])) as Record<Intent, SliceReport>,
    pools: scores,
  };
}
