/**
 * The labelled queries the intent model learns from: the generated queries of the given splits
 * and, repeated as the recipe says, the real queries of the same splits. Its own module because
 * it pulls in the corpus generator, the real-query extractor and the HTML parser that extractor
 * uses: learned-intent.ts loads it only when it trains, so classifying with a cached model never
 * loads them.
 */
import type { Intent } from '../../schemas/ingest.ts';
import { generateIntentQueries } from './corpus/generate-queries.ts';
import { realQueries } from './real-queries/real-queries.ts';

export function intentTrainingRows(splits: readonly string[], realQueryRepeats: number): Array<{ query: string; intent: Intent }> {
  const real = realQueryRepeats > 0 ? realQueries().filter((row) => splits.includes(row.split)) : [];
  return [...generateIntentQueries().filter((row) => splits.includes(row.split)), ...Array.from({ length: realQueryRepeats }, () => real).flat()];
}
