import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import baseline from './quality-baseline.json' with { type: 'json' };
import { generateIntentQueries } from './corpus/generate-queries.ts';
import { classifyIntentOnly, evaluateIntents, parseIntentCorpus } from './evaluate-intents.ts';
import { intentQuality } from './quality-report.ts';
import { realQueries } from './real-queries/real-queries.ts';

// The labelled corpus lives beside the repository (<repo>/../shared/corpora), not inside it.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const corpusPath = resolve(repoRoot, '..', baseline.shared.corpus);
const corpusPresent = existsSync(corpusPath);

describe('intent classifier quality on untouched sets (quality-baseline.json)', () => {
  it('does not regress on the generated test split (families never trained or tuned on)', { timeout: 60_000 }, () => {
    const quality = intentQuality(generateIntentQueries().filter((row) => row.split === 'test'), classifyIntentOnly);
    expect(quality.find((row) => row.lang === 'all')?.accuracy.rate).toBeGreaterThanOrEqual(baseline.generatedTest.accuracy);
    for (const [lang, floor] of Object.entries(baseline.generatedTest.perLanguage)) expect(quality.find((row) => row.lang === lang)?.accuracy.rate, lang).toBeGreaterThanOrEqual(floor);
  });

  it('does not regress on the real queries\' test split (other people\'s wording, documents never trained or tuned on)', { timeout: 60_000 }, () => {
    const quality = intentQuality(realQueries().filter((row) => row.split === 'test'), classifyIntentOnly);
    expect(quality.find((row) => row.lang === 'all')?.accuracy.rate).toBeGreaterThanOrEqual(baseline.realTest.accuracy);
    for (const [lang, floor] of Object.entries(baseline.realTest.perLanguage)) expect(quality.find((row) => row.lang === lang)?.accuracy.rate, lang).toBeGreaterThanOrEqual(floor);
  });

  it.skipIf(!corpusPresent)(`keeps accuracy on ${baseline.shared.corpus} at or above ${baseline.shared.accuracy} (skipped when the corpus is absent)`, { timeout: 60_000 }, () => {
    const evaluation = evaluateIntents(parseIntentCorpus(readFileSync(corpusPath, 'utf8')));
    const misses = evaluation.confusions.map((miss) => `${miss.id} ${miss.expected}→${miss.predicted}: ${miss.query}`);
    expect(evaluation.total).toBe(baseline.shared.rows);
    expect(evaluation.accuracy, `misclassified:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(baseline.shared.accuracy);
  });
});
