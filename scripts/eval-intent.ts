/**
 * Intent classification quality on untouched sets, per language, with 95 % Wilson intervals and a
 * confusion table:
 *   node scripts/eval-intent.ts [--set test|validation|real-test|real-validation|shared|FILE] [--mode combined|rules|both]
 * Sets: `test` is the test split of the generated queries (families never trained or tuned on),
 * `validation` the split the recipe was chosen on, `real-test` / `real-validation` the splits of
 * the real queries (FAQ questions and manual headings by other people, domain/intent/real-queries), `shared` <repo>/../shared/corpora/intent-dev.jsonl
 * (an outside set the rules were once tuned on; no longer used for tuning), or a labelled JSONL file.
 * Exit 1 when a corpus cannot be read.
 */
import { INTENTS } from '../schemas/ingest.ts';
import { evalOptions, loadEvalSet } from './eval-sets.ts';
import { formatProportion } from '../domain/learned/wilson.ts';
import { generateIntentQueries } from '../domain/intent/corpus/generate-queries.ts';
import { classifyIntentByRules, classifyIntentOnly, parseIntentCorpus } from '../domain/intent/evaluate-intents.ts';
import { intentQuality } from '../domain/intent/quality-report.ts';
import { realQueries } from '../domain/intent/real-queries/real-queries.ts';

const { sets, modes } = evalOptions();
const load = (set: string) => loadEvalSet(set, { script: 'eval-intent', generated: generateIntentQueries, real: realQueries, sharedFile: 'intent-dev.jsonl', parse: parseIntentCorpus });
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
