/**
 * Intent classification quality on untouched sets, per language, with 95 % Wilson intervals and a
 * confusion table:
 *   node scripts/eval-intent.ts [--set test|validation|shared|FILE] [--mode combined|rules|both]
 * Sets: `test` is the test split of the generated queries (families never trained or tuned on),
 * `validation` the split the recipe was chosen on, `shared` <repo>/../shared/corpora/intent-dev.jsonl
 * (an outside set the rules were once tuned on; no longer used for tuning), or a labelled JSONL file.
 * Exit 1 when a corpus cannot be read.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTENTS, type Intent } from '../schemas/ingest.ts';
import { formatProportion } from '../services/learned/wilson.ts';
import { generateIntentQueries } from '../services/retriever/intent/corpus/generate-queries.ts';
import { classifyIntentByRules, classifyIntentOnly, parseIntentCorpus } from '../services/retriever/intent/evaluate-intents.ts';
import { intentQuality } from '../services/retriever/intent/quality-report.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const argument = (name: string) => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const sets = argument('--set') === undefined ? ['test', 'shared'] : [argument('--set') ?? 'test'];
const mode = argument('--mode') ?? 'both';

function load(set: string): Array<{ query: string; intent: Intent; lang?: string | undefined }> {
  if (set === 'test' || set === 'validation') return generateIntentQueries().filter((row) => row.split === set);
  const path = set === 'shared' ? resolve(repoRoot, '..', 'shared', 'corpora', 'intent-dev.jsonl') : resolve(set);
  try {
    return parseIntentCorpus(readFileSync(path, 'utf8'));
  } catch (error) {
    process.stderr.write(`eval-intent: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

const modes = mode === 'both' ? (['combined', 'rules'] as const) : ([mode === 'rules' ? 'rules' : 'combined'] as const);
for (const set of sets) {
  const rows = load(set);
  for (const which of modes) {
    const started = performance.now();
    const quality = intentQuality(rows, which === 'rules' ? classifyIntentByRules : classifyIntentOnly);
    const elapsed = performance.now() - started;
    process.stdout.write(`\n## ${set} (${rows.length} queries) — ${which === 'rules' ? 'rules only' : 'rules + learned model'}; ${(elapsed / rows.length).toFixed(3)} ms/query\n\n`);
    process.stdout.write(`| lang | queries | accuracy [95% CI] | lowest intent recall |\n|---|---|---|---|\n`);
    for (const row of quality) {
      const lowest = INTENTS.filter((intent) => row.recall[intent].trials > 0).sort((a, b) => row.recall[a].rate - row.recall[b].rate)[0];
      process.stdout.write(`| ${row.lang} | ${row.queries} | ${formatProportion(row.accuracy)} | ${lowest === undefined ? '-' : `${lowest} ${formatProportion(row.recall[lowest])}`} |\n`);
    }
    for (const row of quality) {
      process.stdout.write(`\nconfusion ${row.lang} (rows expected, columns predicted: ${INTENTS.map((intent) => intent.slice(0, 4)).join(' ')})\n\n| expected | ${INTENTS.map((intent) => intent.slice(0, 4)).join(' | ')} | recall |\n|---|${INTENTS.map(() => '---|').join('')}---|\n`);
      for (const expected of INTENTS) process.stdout.write(`| ${expected} | ${INTENTS.map((intent) => row.confusion[expected][intent]).join(' | ')} | ${row.recall[expected].rate.toFixed(2)} |\n`);
    }
  }
}
