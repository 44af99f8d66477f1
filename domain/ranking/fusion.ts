/**
 * Fusion of the per-item content score (keyword, freshness, authority: the scorer's work) with
 * the two signals only a whole run shows: the providers' own order and agreement between sources.
 *
 * Rank: reciprocal-rank fusion (Cormack et al., 2009) over every list a document appeared in, a
 * list being one provider's answer to one sub-query: rrf = Σ_lists 1 / (RRF_K + rank), with the
 * document's best rank per list. It rewards both a high place and being found by several lists.
 * Divided by the run's highest rrf it becomes a 0–1 component. Items from sources that do not rank
 * (feeds, fetched pages, notes) get RANK_NEUTRAL.
 *
 * Agreement: (independent sources − 1) / AGREEMENT_SATURATION, capped at 1 (see agreement.ts for
 * what counts as independent).
 *
 * score = verdict factor × (w_keyword·keyword + w_freshness·freshness + w_authority·authority
 *                           + w_rank·rank + w_agreement·agreement)
 */
import type { Capability } from '../../schemas/ingest.ts';
import { contentWeight, type ScoreWeights } from './intent-weights.ts';

export const RRF_K = 10;

/** Capabilities whose responses are ranked lists (a search engine's order); feeds, pages and notes are not. */
export const RANKED_CAPABILITIES: ReadonlySet<Capability> = new Set<Capability>(['web_search', 'news_search', 'site_search', 'social_search']);
export const RANK_NEUTRAL = 0.5;
export const AGREEMENT_SATURATION = 3;

/** Downweighted items keep their place in the data but rank below comparable clean ones. */
export const DOWNWEIGHT_FACTOR = 0.5;
export const QUARANTINE_FACTOR = 0.25;
export const VERDICT_FACTORS: Readonly<Record<'ACCEPTED' | 'DOWNWEIGHTED' | 'QUARANTINED' | 'DROPPED', number>> = {
  ACCEPTED: 1,
  DOWNWEIGHTED: DOWNWEIGHT_FACTOR,
  QUARANTINED: QUARANTINE_FACTOR,
  DROPPED: 0,
};

export interface ListPlace {
  /** Which ranked list (provider + sub-query, or a response sequence); null: not from a ranked list. */
  list: string | null;
  /** 1-based rank inside that list. */
  rank: number | null;
}

/** Σ over distinct lists of 1 / (k + best rank in the list); 0 when no copy came from a ranked list. */
export function reciprocalRankSum(places: readonly ListPlace[], k: number = RRF_K): number {
  // Most documents have one copy: no map of lists to build for it.
  if (places.length === 1) return rankedPlace(places[0]!) ? 1 / (k + places[0]!.rank!) : 0;
  const best = new Map<string, number>();
  for (const place of places) {
    if (!rankedPlace(place)) continue;
    best.set(place.list!, Math.min(best.get(place.list!) ?? Number.POSITIVE_INFINITY, place.rank!));
  }
  let sum = 0;
  for (const rank of best.values()) sum += 1 / (k + rank);
  return sum;
}

function rankedPlace({ list, rank }: ListPlace): boolean {
  return list !== null && rank !== null && Number.isFinite(rank) && rank >= 1;
}

/** The rank component of each item: its rrf over the run's highest, RANK_NEUTRAL for unranked items. */
export function rankComponents(sums: readonly number[], neutral: number = RANK_NEUTRAL): number[] {
  const highest = Math.max(0, ...sums);
  return sums.map((sum) => (sum === 0 || highest === 0 ? neutral : sum / highest));
}

/** One list alone: what the scorer can say before it sees the run (rank 1 → 1). */
export function singleListRank(rank: number, k: number = RRF_K): number {
  return (k + 1) / (k + rank);
}

export function agreementComponent(independentSources: number, saturation: number = AGREEMENT_SATURATION): number {
  return Math.min(1, Math.max(0, independentSources - 1) / saturation);
}

/**
 * The final score from the content score the scorer stored (already × verdict factor, over the
 * content weights) and the run's rank and agreement components.
 */
export function fuseScore(contentScore: number, rank: number, agreement: number, weights: ScoreWeights, verdictFactor: number): number {
  return contentScore * contentWeight(weights) + verdictFactor * (weights.rank * rank + weights.agreement * agreement);
}

export interface FusionInput {
  /** The scorer's content score (× verdict factor); null when the run has no intent. */
  contentScore: number | null;
  weights: ScoreWeights | null;
  verdictFactor: number;
  /** Where every copy of the document stood in the providers' lists. */
  places: readonly ListPlace[];
  independentSources: number;
}

export interface Fused {
  score: number | null;
  rank: number;
  agreement: number;
}

/** The fusion part of a scoring model (domain/scoring-model): the constants above are the shipped values. */
export interface FusionModel {
  rrfK: number;
  rankNeutral: number;
  agreementSaturation: number;
}

export const SHIPPED_FUSION: FusionModel = { rrfK: RRF_K, rankNeutral: RANK_NEUTRAL, agreementSaturation: AGREEMENT_SATURATION };

/** Fuses one run's documents (after copies are merged): rank is relative to the run's best. */
export function fuseRun(inputs: readonly FusionInput[], model: FusionModel = SHIPPED_FUSION): Fused[] {
  const fused = fuseRunColumns(inputs.length, (index) => inputs[index]!, model);
  return Array.from({ length: inputs.length }, (_entry, index) => ({ score: Number.isNaN(fused.scores[index]!) ? null : fused.scores[index]!, rank: fused.ranks[index]!, agreement: fused.agreements[index]! }));
}

/**
 * fuseRun for a run too large to hold an object per document (`skrya rank`: 70k): each input is
 * built once, when asked for, and let go (what the second pass needs of it is kept in columns),
 * and the results are columns, a null score as NaN.
 */
export function fuseRunColumns(count: number, inputAt: (index: number) => FusionInput, model: FusionModel = SHIPPED_FUSION): { scores: Float64Array; ranks: Float64Array; agreements: Float64Array } {
  const sums = new Float64Array(count);
  const contentScores = new Float64Array(count);
  const verdictFactors = new Float64Array(count);
  const independentSources = new Float64Array(count);
  const weights: (ScoreWeights | null)[] = [];
  // rankComponents' highest sum, without an array of sums to spread.
  let highest = 0;
  for (let index = 0; index < count; index++) {
    const input = inputAt(index);
    const sum = reciprocalRankSum(input.places, model.rrfK);
    sums[index] = sum;
    highest = Math.max(highest, sum);
    contentScores[index] = input.contentScore ?? Number.NaN;
    verdictFactors[index] = input.verdictFactor;
    independentSources[index] = input.independentSources;
    weights.push(input.contentScore === null ? null : input.weights);
  }
  const fused = { scores: new Float64Array(count), ranks: new Float64Array(count), agreements: new Float64Array(count) };
  for (let index = 0; index < count; index++) {
    const sum = sums[index]!;
    const rank = Math.round((sum === 0 || highest === 0 ? model.rankNeutral : sum / highest) * 1e6) / 1e6;
    const agreement = Math.round(agreementComponent(independentSources[index]!, model.agreementSaturation) * 1e6) / 1e6;
    const scoreWeights = weights[index]!;
    const score = scoreWeights === null ? null : fuseScore(contentScores[index]!, rank, agreement, scoreWeights, verdictFactors[index]!);
    fused.scores[index] = score === null ? Number.NaN : Math.round(Math.min(1, Math.max(0, score)) * 1e6) / 1e6;
    fused.ranks[index] = rank;
    fused.agreements[index] = agreement;
  }
  return fused;
}
