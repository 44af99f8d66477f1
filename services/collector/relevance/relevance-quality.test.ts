import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../schemas/ingest.ts';
import { evaluateRelevance } from './evaluate-relevance.ts';
import { JUDGED_SET_DIR, loadJudgedSet } from './judged-set.ts';
import baseline from './quality-baseline.json' with { type: 'json' };

describe('ranking quality on the judged relevance set (quality-baseline.json)', () => {
  const pools = loadJudgedSet(fileURLToPath(JUDGED_SET_DIR));
  const floors = baseline.ranking;

  it.each(['dev', 'test'] as const)('%s: nDCG@10 and P@5 hold, each language beats the providers\' order by the margin, no intent falls behind it', (split) => {
    const report = evaluateRelevance(pools, split);
    const perPool = JSON.stringify(report.pools.map((score) => [score.pool.id, score.ndcg.skrya.toFixed(3), score.ndcg.provider.toFixed(3)]));
    expect(report.overall.ndcg.skrya.mean, perPool).toBeGreaterThanOrEqual(floors.overallNdcgAt10);
    expect(report.overall.precision.skrya.mean, perPool).toBeGreaterThanOrEqual(floors.overallPrecisionAt5);
    for (const language of ['en', 'zh'] as const) {
      expect(report.byLanguage[language].ndcgGainOverProvider.mean, `${language}: ${perPool}`).toBeGreaterThanOrEqual(floors.minLanguageGainOverProvider);
    }
    for (const intent of INTENTS) {
      expect(report.byIntent[intent].ndcgGainOverProvider.mean, `${intent}: ${perPool}`).toBeGreaterThanOrEqual(floors.minIntentGainOverProvider);
    }
    // The baselines keep their meaning: random order stays far below both.
    expect(report.overall.ndcg.random.mean).toBeLessThan(report.overall.ndcg.provider.mean);
  });
});
