/**
 * The collector stage's public face: what the pipeline, replay, the CLI and the relevance evaluation
 * use of it. Its dedupe and ranking are domain code (domain/dedupe/), which `skrya rank` runs without
 * the stage.
 */
export { createCollector } from './handler.ts';
export { evaluateRelevance, RANKERS, type RelevanceReport, type SliceReport } from './relevance/evaluate-relevance.ts';
export { JUDGED_SET_DIR, loadJudgedSet, type JudgedPool } from './relevance/judged-set.ts';
export type { Interval } from './relevance/metrics.ts';
export { evaluateNearDuplicates, type NearDuplicateReport } from './relevance/near-duplicates.ts';
export { renderDigest, type DigestItem } from './synthesis/render-digest.ts';
