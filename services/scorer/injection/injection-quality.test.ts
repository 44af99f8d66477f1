import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { evaluateInjection, idParity, parseLabelledCorpus } from './evaluate.ts';
import baseline from './quality-baseline.json' with { type: 'json' };

// Resolved like scripts/eval-injection.ts: <repo>/../shared/corpora/injection-dev.jsonl.
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const corpusPath = resolve(repoRoot, '..', 'shared', 'corpora', 'injection-dev.jsonl');
const corpusPresent = existsSync(corpusPath);

describe('injection screening quality against quality-baseline.json', () => {
  const title = corpusPresent ? 'recall and false-positive rates do not regress past the baseline' : `SKIPPED: labelled corpus not found at ${corpusPath}`;

  it.skipIf(!corpusPresent)(title, () => {
    const items = parseLabelledCorpus(readFileSync(corpusPath, 'utf8'));
    const sets = [
      ['overall', evaluateInjection(items), baseline.overall],
      ['even ids', evaluateInjection(idParity(items, 'even')), baseline.evenIds],
      ['odd ids', evaluateInjection(idParity(items, 'odd')), baseline.oddIds],
    ] as const;
    for (const [name, measured, expected] of sets) {
      // The misses and false alarms ride along in the message so a failure shows what regressed.
      expect(measured.recall, `${name}: missed ${JSON.stringify(measured.missesByKind)}`).toBeGreaterThanOrEqual(expected.recall);
      expect(measured.falsePositiveRate, `${name}: false alarms ${JSON.stringify(measured.falsePositivesByKind)}`).toBeLessThanOrEqual(expected.falsePositiveRate);
      expect(measured.hardNegativeFalsePositiveRate, `${name}: hard negatives`).toBeLessThanOrEqual(expected.hardNegativeFalsePositiveRate);
    }
  });
});
