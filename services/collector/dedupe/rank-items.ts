import type { CanonicalHints } from '../../../domain/urls/canonical-url.ts';
import { fuseRun } from '../../../domain/ranking/fusion.ts';
import { SHIPPED_RANKING, type RankingModel } from '../../../domain/ranking/ranking-model.ts';
import { createItemScorer, type ScorableItem, type ScoreComponents, type ScoringContext } from '../../../domain/ranking/score-item.ts';
import { agreementOf, type Agreement } from './agreement.ts';
import { dedupeItems, rankOrder, type DedupeOptions, type MergeReason, type SourceRef } from './dedupe-items.ts';

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

export interface RankedItem<T extends RankableItem> {
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

export function rankItems<T extends RankableItem>(items: readonly T[], context: ScoringContext, options: RankOptions = {}): RankedItem<T>[] {
  const ranking = options.ranking ?? SHIPPED_RANKING;
  const scoreOf = createItemScorer(context, ranking);
  const scored = items.map((item) => {
    const { score, components } = scoreOf(item);
    return {
      id: item.id,
      url: item.url,
      canonicalHints: item.canonicalHints,
      provider: item.provider,
      title: item.title,
      text: nearDuplicateText(item),
      score,
      components,
      original: item,
    };
  });
  const byId = new Map(items.map((item) => [item.id, item]));
  const clusters = dedupeItems(scored, options.dedupe);
  const agreements = clusters.map((cluster) => agreementOf(cluster.sources));
  const fused = fuseRun(clusters.map((cluster, index) => ({
    contentScore: cluster.item.score,
    weights: cluster.item.components?.weights ?? null,
    verdictFactor: 1,
    places: [cluster.item.original, ...cluster.merged.map((merged) => byId.get(merged.id)!)].map((copy) => ({ list: copy.resultList ?? null, rank: copy.providerRank ?? null })),
    independentSources: agreements[index]!.independentSources,
  })), ranking.fusion);
  const ranked = clusters.map((cluster, index) => {
    const agreement = agreements[index]!;
    const { score: base, components } = cluster.item;
    const { score, rank, agreement: agreementScore } = fused[index]!;
    return {
      id: cluster.item.id,
      score,
      canonicalUrl: cluster.canonicalUrl,
      ranked: {
        item: cluster.item.original,
        rank: 0,
        score,
        components: components === null || base === null ? null : { ...components, base, rank, agreement: agreementScore, independentSources: agreement.independentSources },
        canonicalUrl: cluster.canonicalUrl,
        sources: cluster.sources,
        merged: cluster.merged,
        agreement,
      },
    };
  });
  return rankOrder(ranked).map((index, position) => ({ ...ranked[index]!.ranked, rank: position + 1 }));
}
