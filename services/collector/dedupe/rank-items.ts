import type { AuthorityIndex } from '../../scorer/ranking/authority.ts';
import type { CanonicalHints } from '../../scorer/ranking/canonical-url.ts';
import { createItemScorer, roundScore, type ScorableItem, type ScoreComponents, type ScoringContext } from '../../scorer/ranking/score-item.ts';
import { agreementOf, type Agreement } from './agreement.ts';
import { dedupeItems, rankOrder, type DedupeOptions, type MergeReason, type SourceRef } from './dedupe-items.ts';

/**
 * One run's ranking, end to end: score every item, merge copies (dedupeItems), add the agreement
 * bonus, order best first. The same functions serve the collector and `skrya rank`, so the
 * offline command ranks exactly as the pipeline does.
 */
export interface RankableItem extends ScorableItem {
  id: string;
  provider: string;
  canonicalHints?: CanonicalHints;
}

export interface RankedComponents extends ScoreComponents {
  /** The score before the agreement bonus. */
  base: number;
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
  authority?: AuthorityIndex;
  dedupe?: DedupeOptions;
}

function nearDuplicateText(item: ScorableItem): string {
  return item.content || item.summary || item.snippet || '';
}

export function rankItems<T extends RankableItem>(items: readonly T[], context: ScoringContext, options: RankOptions = {}): RankedItem<T>[] {
  const scoreOf = createItemScorer(context, options.authority);
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
  const ranked = dedupeItems(scored, options.dedupe).map((cluster) => {
    const agreement = agreementOf(cluster.sources);
    const { score: base, components } = cluster.item;
    const score = base === null ? null : roundScore(base + agreement.bonus);
    return {
      id: cluster.item.id,
      score,
      canonicalUrl: cluster.canonicalUrl,
      ranked: {
        item: cluster.item.original,
        rank: 0,
        score,
        components: components === null || base === null ? null : { ...components, base, agreement: agreement.bonus, independentSources: agreement.independentSources },
        canonicalUrl: cluster.canonicalUrl,
        sources: cluster.sources,
        merged: cluster.merged,
        agreement,
      },
    };
  });
  return rankOrder(ranked).map((index, position) => ({ ...ranked[index]!.ranked, rank: position + 1 }));
}
