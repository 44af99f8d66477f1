/**
 * Intent classifier accuracy on a labelled corpus:
 *   node scripts/eval-intent.ts [corpus.jsonl]
 * Default corpus: <repo>/../shared/corpora/intent-dev.jsonl. Prints accuracy (overall and, for
 * numbered ids, on even and odd ids: the rules were developed on the even ones), per-intent
 * precision/recall and every misclassified query. Exit 1 when the corpus cannot be read.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTENTS } from '../schemas/ingest.ts';
import { evaluateIntents, parseIntentCorpus, type IntentCorpusRow } from '../services/retriever/intent/evaluate-intents.ts';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = resolve(process.argv[2] ?? resolve(repoRoot, '..', 'shared', 'corpora', 'intent-dev.jsonl'));

let rows: IntentCorpusRow[];
try {
  rows = parseIntentCorpus(readFileSync(corpusPath, 'utf8'));
} catch (error) {
  process.stderr.write(`eval-intent: cannot read ${corpusPath}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
const evaluation = evaluateIntents(rows);
process.stdout.write(`corpus   ${corpusPath}\naccuracy ${percent(evaluation.accuracy)} (${evaluation.correct}/${evaluation.total})\n`);

const idNumber = (id: string) => Number(/(\d+)$/u.exec(id)?.[1] ?? Number.NaN);
if (rows.every((row) => Number.isFinite(idNumber(row.id)))) {
  for (const [name, parity] of [['even ids', 0], ['odd ids', 1]] as const) {
    const part = evaluateIntents(rows.filter((row) => idNumber(row.id) % 2 === parity));
    process.stdout.write(`  ${name.padEnd(8)} ${percent(part.accuracy)} (${part.correct}/${part.total})\n`);
  }
}

process.stdout.write('\nintent       precision  recall  support\n');
for (const intent of INTENTS) {
  const score = evaluation.perIntent[intent];
  process.stdout.write(`${intent.padEnd(12)} ${percent(score.precision).padStart(9)} ${percent(score.recall).padStart(7)} ${String(score.support).padStart(8)}\n`);
}

process.stdout.write(`\nmisclassified: ${evaluation.confusions.length}\n`);
for (const miss of evaluation.confusions) {
  process.stdout.write(`  ${miss.id}  expected ${miss.expected.padEnd(11)} got ${miss.predicted.padEnd(11)} ${miss.query}\n`);
}
