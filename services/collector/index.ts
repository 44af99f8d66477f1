/** The collector stage's public face: what the pipeline, replay, the CLI and the relevance evaluation use of it. */
export { createRunRanking, dedupeCandidate, rankItems, type RankableItem, type RankedItem, type RankedRun, type ReadItem } from './dedupe/rank-items.ts';
export { matchedText, matchKeys } from './dedupe/dedupe-items.ts';
export { createCollector } from './handler.ts';
export { evaluateRelevance, RANKERS, type RelevanceReport, type SliceReport } from './relevance/evaluate-relevance.ts';
export { JUDGED_SET_DIR, loadJudgedSet, type JudgedPool } from './relevance/judged-set.ts';
export type { Interval } from './relevance/metrics.ts';
export { evaluateNearDuplicates, type NearDuplicateReport } from './relevance/near-duplicates.ts';
export { renderDigest, type DigestItem } from './synthesis/render-digest.ts';
