/**
 * Ranking quality measures over graded labels (0–3), and a seeded bootstrap for their intervals.
 * A ranking is a list of document ids; a document seen again further down (a copy the ranker did
 * not merge) earns nothing the second time, as it tells the reader nothing new.
 */
import { createRandom } from '../../../domain/learned/random.ts';

export const NDCG_CUTOFF = 10;
export const PRECISION_CUTOFF = 5;
/** Grade counted as relevant for precision. */
export const RELEVANT_GRADE = 2;

function gainsOf(ranking: readonly string[], grades: ReadonlyMap<string, number>): number[] {
  const seen = new Set<string>();
  return ranking.map((doc) => {
    if (seen.has(doc)) return 0;
    seen.add(doc);
    return grades.get(doc) ?? 0;
  });
}

function dcg(grades: readonly number[], cutoff: number): number {
  let total = 0;
  grades.slice(0, cutoff).forEach((grade, index) => {
    total += (2 ** grade - 1) / Math.log2(index + 2);
  });
  return total;
}

/** nDCG@k with exponential gain; the ideal is every distinct document once, best first. */
export function ndcgAt(ranking: readonly string[], grades: ReadonlyMap<string, number>, cutoff: number = NDCG_CUTOFF): number {
  const ideal = dcg([...grades.values()].sort((a, b) => b - a), cutoff);
  return ideal === 0 ? 0 : dcg(gainsOf(ranking, grades), cutoff) / ideal;
}

/** Share of the first k positions holding a new document graded RELEVANT_GRADE or better. */
export function precisionAt(ranking: readonly string[], grades: ReadonlyMap<string, number>, cutoff: number = PRECISION_CUTOFF): number {
  const hits = gainsOf(ranking, grades).slice(0, cutoff).filter((grade) => grade >= RELEVANT_GRADE).length;
  return hits / cutoff;
}

export interface Interval {
  mean: number;
  low: number;
  high: number;
}

export const BOOTSTRAP_ROUNDS = 2000;

/** Mean with a 95 % percentile bootstrap interval over the values (queries), seeded. */
export function bootstrapMean(values: readonly number[], seed = 21, rounds = BOOTSTRAP_ROUNDS): Interval {
  if (values.length === 0) return { mean: Number.NaN, low: Number.NaN, high: Number.NaN };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const random = createRandom(seed);
  const means: number[] = [];
  for (let round = 0; round < rounds; round++) {
    let sum = 0;
    for (let draw = 0; draw < values.length; draw++) sum += values[Math.floor(random() * values.length)]!;
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return { mean, low: means[Math.floor(0.025 * rounds)]!, high: means[Math.min(rounds - 1, Math.ceil(0.975 * rounds) - 1)]! };
}

/** Fisher–Yates with a seeded generator: the same seed gives the same order. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const random = createRandom(seed);
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}
