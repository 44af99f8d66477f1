/**
 * Chooses whether the intent model learns from the train split of the real queries (FAQ questions
 * and manual headings by other people, domain/intent/real-queries) and how much weight they get:
 * models trained on the generated train split plus the real train queries repeated k times, read
 * on the real and the generated validation splits with the shipped decision policy (test is never
 * read here):
 *   node scripts/choose-intent-real-share.ts
 */
import type { Intent } from '../schemas/ingest.ts';
import { generateIntentQueries } from '../domain/intent/corpus/generate-queries.ts';
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { decideIntent, INTENT_RECIPE, predictIntent, trainIntentModel } from '../domain/intent/learned-intent.ts';
import { pickIntent } from '../domain/intent/pick-intent.ts';
import { intentQuality } from '../domain/intent/quality-report.ts';
import { realQueries } from '../domain/intent/real-queries/real-queries.ts';

const generated = generateIntentQueries();
const real = realQueries();
const sets = { 'real validation': real.filter((row) => row.split === 'validation'), 'generated validation': generated.filter((row) => row.split === 'validation') };

process.stdout.write(`real train queries: ${real.filter((row) => row.split === 'train').length}; generated train queries: ${generated.filter((row) => row.split === 'train').length}\n\n| real train repeats | set | all | en | zh | mixed | gained / lost |\n|---|---|---|---|---|---|---|\n`);
let baseline: Map<string, boolean> | undefined;
for (const repeats of [0, 1, 3, 10, 30]) {
  const recipe = { ...INTENT_RECIPE, realQueryRepeats: repeats };
  const model = { model: trainIntentModel(recipe, detectSignals, ['train']), recipe, key: `real-share-${repeats}` };
  const classify = (query: string): Intent => {
    const signals = detectSignals(query);
    return decideIntent(pickIntent(signals), signals, predictIntent(model, query, signals, false));
  };
  for (const [name, rows] of Object.entries(sets)) {
    const right = new Map(rows.map((row) => [row.id, classify(row.query) === row.intent]));
    let paired = '';
    if (name === 'real validation') {
      baseline ??= right;
      const before = baseline;
      paired = `${rows.filter((row) => right.get(row.id) === true && before.get(row.id) === false).length} / ${rows.filter((row) => right.get(row.id) === false && before.get(row.id) === true).length}`;
    }
    const quality = intentQuality(rows, classify);
    const cell = (lang: string) => {
      const row = quality.find((entry) => entry.lang === lang);
      return row === undefined ? '-' : `${row.accuracy.rate.toFixed(3)} (${row.accuracy.successes}/${row.accuracy.trials})`;
    };
    process.stdout.write(`| ${repeats} | ${name} | ${cell('all')} | ${cell('en')} | ${cell('zh')} | ${cell('mixed')} | ${paired} |\n`);
  }
}
