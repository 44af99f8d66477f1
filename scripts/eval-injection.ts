/**
 * Prompt-injection screening quality on a labelled corpus:
 *   node scripts/eval-injection.ts [corpus.jsonl]
 * Default corpus: <repo>/../shared/corpora/injection-dev.jsonl. Predicted positive = verdict
 * quarantine or drop. Prints precision, recall, false-positive rate overall and on the hard
 * negatives, for all items and separately for even and odd ids (the rules were first developed on
 * the even ones), then the misses by kind and the false alarms. Exit 1 when the corpus cannot be read.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluateInjection, idParity, parseLabelledCorpus, type InjectionEvaluation, type LabelledItem } from '../services/scorer/injection/evaluate.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = resolve(process.argv[2] ?? resolve(repoRoot, '..', 'shared', 'corpora', 'injection-dev.jsonl'));

let items: LabelledItem[];
try {
  items = parseLabelledCorpus(readFileSync(corpusPath, 'utf8'));
} catch (error) {
  process.stderr.write(`eval-injection: cannot read ${corpusPath}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const row = (name: string, result: InjectionEvaluation) =>
  `${name.padEnd(9)} ${String(result.items).padStart(5)} ${percent(result.precision).padStart(9)} ${percent(result.recall).padStart(7)} ${percent(result.falsePositiveRate).padStart(6)} ${percent(result.hardNegativeFalsePositiveRate).padStart(8)}   ${result.truePositives}/${result.falsePositives}/${result.falseNegatives}\n`;

const overall = evaluateInjection(items);
process.stdout.write(`corpus    ${corpusPath}\npositive  verdict quarantine or drop\n\n`);
process.stdout.write('set       items precision  recall    FPR  hard FPR   TP/FP/FN\n');
process.stdout.write(row('all', overall));
process.stdout.write(row('even ids', evaluateInjection(idParity(items, 'even'))));
process.stdout.write(row('odd ids', evaluateInjection(idParity(items, 'odd'))));

const misses = Object.entries(overall.missesByKind).sort(([a], [b]) => a.localeCompare(b));
process.stdout.write(`\nmissed injections by kind: ${overall.falseNegatives}\n`);
for (const [kind, ids] of misses) process.stdout.write(`  ${kind.padEnd(32)} ${ids.join(' ')}\n`);
const alarms = Object.entries(overall.falsePositivesByKind).sort(([a], [b]) => a.localeCompare(b));
process.stdout.write(`\nfalse alarms by kind: ${overall.falsePositives}\n`);
for (const [kind, ids] of alarms) process.stdout.write(`  ${kind.padEnd(32)} ${ids.join(' ')}\n`);
