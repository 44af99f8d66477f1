import type { CanonicalHints } from '../urls/canonical-url.ts';
import { fuseRunColumns, type ListPlace } from '../ranking/fusion.ts';
import { SHIPPED_RANKING, type RankingModel } from '../ranking/ranking-model.ts';
import { createScoreColumns } from '../ranking/score-columns.ts';
import { createItemScorer, listRankComponent, type ItemScore, type ScorableItem, type ScoreComponents, type ScoringContext } from '../ranking/score-item.ts';
import { agreementOf, type Agreement } from './agreement.ts';
import { createInternedColumn } from '../arrays/interned-column.ts';
import { growArray } from '../arrays/grow-array.ts';
import { fnv1a } from '../learned/random.ts';
import { createStringNumbers } from './string-numbers.ts';
import { createDedupeRun, rankOrderOf, type CandidateTokens, type DedupeCandidate, type DedupeOptions, type MatchKeys, type MergeReason, type SourceRef } from './dedupe-items.ts';

/**
 * One run's ranking, end to end: score every item, merge copies (dedupeItems), fuse in the
 * providers' rank and agreement (fusion.ts), order best first. The same functions serve the collector and `skrya rank`, so the
 * offline command ranks exactly as the pipeline does.
 */
export interface RankableItem extends ScorableItem {
  id: string;
  provider: string;
  canonicalHints?: CanonicalHints;
  /** 1-based rank inside the provider's list (one provider, one sub-query); absent: not from a ranked list. */
  providerRank?: number;
  /** Which list the rank belongs to (e.g. `brave_web_search/0`); items of one list share it. */
  resultList?: string;
}

export interface RankedComponents extends ScoreComponents {
  /** The content score before rank and agreement were fused in. */
  base: number;
  /** Agreement component, 0–1. */
  agreement: number;
  independentSources: number;
}

export interface RankedItem<T> {
  item: T;
  /** 1-based position in the ranking. */
  rank: number;
  score: number | null;
  components: RankedComponents | null;
  canonicalUrl: string | null;
  sources: SourceRef[];
  merged: { id: string; reason: MergeReason }[];
  agreement: Agreement;
}

export interface RankOptions {
  /** Weights, tiers, curves and fusion parameters (a scoring model's ranking part); the shipped ones by default. */
  ranking?: RankingModel;
  dedupe?: DedupeOptions;
}

function nearDuplicateText(item: ScorableItem): string {
  return item.content || item.summary || item.snippet || '';
}

/** What dedupe reads of a scored item. */
export function dedupeCandidate(item: RankableItem, score: number | null): DedupeCandidate {
  return { id: item.id, url: item.url, canonicalHints: item.canonicalHints, provider: item.provider, title: item.title, text: nearDuplicateText(item), score };
}

/**
 * An item scored and read for dedupe elsewhere (`skrya rank`'s reading threads), whose place in its
 * provider's list is known only here: `score` is its score with any rank component, which `addRead`
 * replaces with the one for `providerRank`.
 */
export interface ReadItem {
  score: ItemScore;
  keys: MatchKeys;
  tokens: CandidateTokens;
  providerRank: number | null;
  resultList: string | null;
}

/**
 * One run's ranking fed an item at a time: `add` scores the item and hands dedupe what it matches
 * on, keeping only `keep`, the score (in ScoreColumns) and where the item stood in its provider's
 * list. What the caller passes as `keep` is what the ranking returns as each document's `item`:
 * the item itself (rankItems), or a small record from which the caller can find it again
 * (`skrya rank` keeps a line's place in the file, not its text).
 */
export interface RunRanking<K> {
  add(item: RankableItem, keep: K): void;
  addRead(item: ReadItem, keep: K): void;
  finish(): RankedRun<K>;
}

/**
 * A finished ranking, best first. `at` builds the document at a position when asked, so a caller
 * that prints as it goes (`skrya rank`, 70k documents) never holds them all at once.
 */
export interface RankedRun<K> {
  length: number;
  at(position: number): RankedItem<K>;
  /** The `keep` of the document at a position, without building the document. */
  itemAt(position: number): K;
}

export function rankItems<T extends RankableItem>(items: readonly T[], context: ScoringContext, options: RankOptions = {}): RankedItem<T>[] {
  const run = createRunRanking<T>(context, options);
  for (const item of items) run.add(item, item);
  const ranked = run.finish();
  return Array.from({ length: ranked.length }, (_entry, position) => ranked.at(position));
}

export function createRunRanking<K>(context: ScoringContext, options: RankOptions = {}): RunRanking<K> {
  const ranking = options.ranking ?? SHIPPED_RANKING;
  const scoreOf = createItemScorer(context, ranking);
  // Dedupe keeps each item's index here; everything else about the item is in these columns.
  const dedupe = createDedupeRun<number>(options.dedupe);
  const keeps: K[] = [];
  const scores = createScoreColumns();
  const lists = createInternedColumn<string | null>();
  // A plain array: its small integers go into ListPlace as they are, where doubles read from a
  // Float64Array were boxed, a heap number a place (fusion took 100 ms longer).
  const listRanks: (number | null)[] = [];
  const placeOf = (index: number): ListPlace => ({ list: lists.at(index), rank: listRanks[index]! });
  // A merged copy is known by its id only, and the last item added with that id stands for it (exact
  // repeats of a line share an id, and their places then differ): rankItems has always resolved
  // places this way, and resolving each copy's own place changes rank components on real inputs.
  // Ids are numbered (string-numbers.ts), not keys of a Map: a Map of 100k ids was most of adding an
  // item on `skrya rank`'s ranking thread, and its growths 3,000 page faults.
  const idNumbers = createStringNumbers();
  let lastByIdNumber = new Int32Array(1024);
  const idNumberOf = (id: string) => idNumbers.numberOf(id, fnv1a(id));
  const lastById = (id: string) => lastByIdNumber[idNumberOf(id)]!;
  /** Keeps an item's score and list place; its index, which dedupe is handed. */
  function keepItem(id: string, score: ItemScore, resultList: string | null, providerRank: number | null, keep: K): number {
    const index = keeps.length;
    const idNumber = idNumberOf(id);
    lastByIdNumber = growArray(lastByIdNumber, idNumber + 1);
    lastByIdNumber[idNumber] = index;
    keeps.push(keep);
    scores.push(score);
    lists.push(resultList);
    listRanks.push(providerRank);
    return index;
  }
  return {
    add(item, keep) {
      const score = scoreOf(item);
      const index = keepItem(item.id, score, item.resultList ?? null, item.providerRank ?? null, keep);
      dedupe.add(dedupeCandidate(item, score.score), index);
    },
    addRead({ score, keys, tokens, providerRank, resultList }, keep) {
      const ranked = score.components === null ? score : { score: score.score, components: { ...score.components, rank: listRankComponent(providerRank, ranking) } };
      dedupe.addRead(keys, tokens, keepItem(keys.id, ranked, resultList, providerRank, keep));
    },
    finish() {
      const clusters = dedupe.finish();
      // The run's figures per document, in columns: a ranked item (and its agreement) is built only when it is asked for.
      // A document with several sources has its agreement worked out once (its hosts are parsed from
      // URLs); a one-source document's is trivial and made again when asked for.
      const severalSources = new Map<number, Agreement>();
      const agreementAt = (index: number) => severalSources.get(index) ?? agreementOf(clusters[index]!.sources);
      clusters.forEach((cluster, index) => {
        if (cluster.sources.length > 1) severalSources.set(index, agreementOf(cluster.sources));
      });
      // A document with one source has one independent source (agreementOf): no Agreement is made for it here.
      const independentSources = Int32Array.from(clusters, (cluster, index) => (cluster.sources.length > 1 ? severalSources.get(index)!.independentSources : 1));
      const fused = fuseRunColumns(clusters.length, (index) => {
        const cluster = clusters[index]!;
        return {
          contentScore: scores.scoreAt(cluster.item),
          weights: scores.weightsAt(cluster.item),
          verdictFactor: 1,
          places: cluster.merged.length === 0 ? [placeOf(cluster.item)] : [cluster.item, ...cluster.merged.map((merged) => lastById(merged.id))].map(placeOf),
          independentSources: independentSources[index]!,
        };
      }, ranking.fusion);
      const scoreOfCluster = (index: number) => (Number.isNaN(fused.scores[index]!) ? null : fused.scores[index]!);
      const order = rankOrderOf({
        count: clusters.length,
        id: (index) => clusters[index]!.sources[0]!.id,
        score: scoreOfCluster,
        canonicalUrl: (index) => clusters[index]!.canonicalUrl,
        contentHash: () => undefined,
      });
      return {
        length: order.length,
        itemAt: (position) => keeps[clusters[order[position]!]!.item]!,
        at(position) {
          const index = order[position]!;
          const cluster = clusters[index]!;
          const agreement = agreementAt(index);
          const base = scores.scoreAt(cluster.item);
          const components = scores.componentsAt(cluster.item);
          return {
            item: keeps[cluster.item]!,
            rank: position + 1,
            score: scoreOfCluster(index),
            components: components === null || base === null ? null : { ...components, base, rank: fused.ranks[index]!, agreement: fused.agreements[index]!, independentSources: agreement.independentSources },
            canonicalUrl: cluster.canonicalUrl,
            sources: cluster.sources,
            merged: cluster.merged,
            agreement,
          };
        },
      };
    },
  };
}
