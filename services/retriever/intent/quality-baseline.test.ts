import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import baseline from './quality-baseline.json' with { type: 'json' };
import { evaluateIntents, parseIntentCorpus } from './evaluate-intents.ts';

// The labelled corpus lives beside the repository (<repo>/../shared/corpora), not inside it.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const corpusPath = resolve(repoRoot, '..', baseline.corpus);
const corpusPresent = existsSync(corpusPath);

describe('intent classifier quality baseline', () => {
  it.skipIf(!corpusPresent)(`keeps accuracy on ${baseline.corpus} at or above ${baseline.accuracy} (skipped when the corpus is absent)`, () => {
    const evaluation = evaluateIntents(parseIntentCorpus(readFileSync(corpusPath, 'utf8')));
    const misses = evaluation.confusions.map((miss) => `${miss.id} ${miss.expected}→${miss.predicted}: ${miss.query}`);
    expect(evaluation.total).toBe(baseline.rows);
    expect(evaluation.accuracy, `misclassified:\n${misses.join('\n')}`).toBeGreaterThanOrEqual(baseline.accuracy);
  });
});
