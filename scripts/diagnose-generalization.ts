/**
 * Is the gap to the aims a model-capacity problem or a corpus-design one? Trains the shipped
 * recipes on different slices and reads the validation split only (never test):
 *   node scripts/diagnose-generalization.ts [injection|intent|all]
 * - in-sample: train → train. Near 1.0 means the model has the capacity to fit what it sees.
 * - out-of-family: train → validation, the figure the shipped model is tuned to.
 * - in-family: train + half of the validation items → the other half. The families (ideas) are
 *   then seen, the items (slot fillings, hosts, carriers, registers) are not.
 * - learning curve: train with a third, two thirds and all of the train families → validation,
 *   and train without the families written only for train (the corpus as first designed).
 * Injection is the model alone (no rules), as recall at FPR ≤ 0.03 (hard negatives ≤ 0.10) with
 * the threshold placed on the evaluated items themselves: how well the scores separate, not how
 * well a threshold transfers. Intent is the model's own pick (rule signals as features), accuracy.
 */
import { INTENTS } from '../schemas/ingest.ts';
import { train } from '../domain/learned/logistic.ts';
import { createRandom, shuffle } from '../domain/learned/random.ts';
import { generateIntentQueries, TRAIN_ONLY_QUERY_FAMILIES, type GeneratedQuery } from '../domain/intent/corpus/generate-queries.ts';
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { INTENT_RECIPE, predictIntent, queryVector } from '../domain/intent/learned-intent.ts';
import { generateInjectionCorpus, type GeneratedItem } from '../domain/screening/corpus/generate-corpus.ts';
import { TRAIN_ONLY_HARD_NEGATIVE_FAMILIES } from '../domain/screening/corpus/host-families.ts';
import { TRAIN_ONLY_PAYLOAD_FAMILIES } from '../domain/screening/corpus/payload-families.ts';
import { INJECTION_RECIPE, itemLogit, trainingPassages } from '../domain/screening/learned-model.ts';

const which = process.argv[2] ?? 'all';
const halves = <T>(rows: readonly T[]) => [rows.filter((_row, index) => index % 2 === 0), rows.filter((_row, index) => index % 2 === 1)] as const;
/** Keeps the rows of a share of the families (seeded), benign/hard ones too: a smaller corpus of the same design. */
function familyShare<T extends { family: string }>(rows: readonly T[], share: number): T[] {
  const families = shuffle(createRandom(5), [...new Set(rows.map((row) => row.family))].sort());
  const kept = new Set(families.slice(0, Math.max(1, Math.round(families.length * share))));
  return rows.filter((row) => kept.has(row.family));
}

function separability(scored: ReadonlyArray<{ logit: number; item: GeneratedItem }>): string {
  const benign = scored.filter((entry) => entry.item.label === 'benign').map((entry) => ({ logit: entry.logit, hard: entry.item.difficulty === 'hard' }));
  const positives = scored.filter((entry) => entry.item.label === 'injection');
  const candidates = [...new Set(scored.map((entry) => entry.logit))].sort((a, b) => a - b);
  const hardCount = Math.max(1, benign.filter((entry) => entry.hard).length);
  const threshold = candidates.find((candidate) => benign.filter((entry) => entry.logit >= candidate).length / Math.max(1, benign.length) <= 0.03 && benign.filter((entry) => entry.hard && entry.logit >= candidate).length / hardCount <= 0.1) ?? Infinity;
  const byLang = (lang: string) => {
    const rows = positives.filter((entry) => lang === 'all' || entry.item.lang === lang);
    return `${lang} ${(rows.filter((entry) => entry.logit >= threshold).length / Math.max(1, rows.length)).toFixed(3)}`;
  };
  let wins = 0;
  for (const positive of positives) for (const negative of benign) wins += positive.logit > negative.logit ? 1 : positive.logit === negative.logit ? 0.5 : 0;
  return `${['all', 'en', 'zh', 'mixed'].map(byLang).join(', ')}; AUC ${(wins / Math.max(1, positives.length * benign.length)).toFixed(3)}`;
}

function injection(): void {
  const corpus = generateInjectionCorpus();
  const trainItems = corpus.filter((item) => item.split === 'train');
  const validation = corpus.filter((item) => item.split === 'validation');
  const [seenHalf, unseenHalf] = halves(validation);
  const run = (label: string, fit: readonly GeneratedItem[], evaluate: readonly GeneratedItem[]) => {
    const model = train(trainingPassages(fit, INJECTION_RECIPE), 2, INJECTION_RECIPE.features.bits, INJECTION_RECIPE.training);
    const scored = evaluate.map((item) => ({ logit: itemLogit(model, item, INJECTION_RECIPE), item }));
    process.stdout.write(`| injection | ${label} | recall at FPR ≤ 0.03: ${separability(scored)} |\n`);
  };
  run('in-sample (train → train)', trainItems, trainItems);
  run('out-of-family (train → validation half B)', trainItems, unseenHalf);
  run('in-family (train + validation half A → half B)', [...trainItems, ...seenHalf], unseenHalf);
  for (const share of [1 / 3, 2 / 3]) run(`learning curve: ${Math.round(share * 100)} % of train families → validation`, familyShare(trainItems, share), validation);
  run('learning curve: 100 % of train families → validation', trainItems, validation);
  const trainOnly = new Set([...TRAIN_ONLY_PAYLOAD_FAMILIES, ...TRAIN_ONLY_HARD_NEGATIVE_FAMILIES].map((family) => family.id));
  run('train without the train-only families → validation', trainItems.filter((item) => !trainOnly.has(item.family)), validation);
}

function intent(): void {
  const queries = generateIntentQueries();
  const trainRows = queries.filter((row) => row.split === 'train');
  const validation = queries.filter((row) => row.split === 'validation');
  const [seenHalf, unseenHalf] = halves(validation);
  const run = (label: string, fit: readonly GeneratedQuery[], evaluate: readonly GeneratedQuery[]) => {
    const examples = fit.map((row) => ({ vector: queryVector(row.query, detectSignals(row.query), INTENT_RECIPE), label: INTENTS.indexOf(row.intent) }));
    const model = { model: train(examples, INTENTS.length, INTENT_RECIPE.features.bits, INTENT_RECIPE.training), recipe: INTENT_RECIPE, key: 'diagnosis' };
    const correct = (lang: string) => {
      const rows = evaluate.filter((row) => lang === 'all' || row.lang === lang);
      const right = rows.filter((row) => predictIntent(model, row.query, detectSignals(row.query), false).intent === row.intent).length;
      return `${lang} ${(right / Math.max(1, rows.length)).toFixed(3)}`;
    };
    process.stdout.write(`| intent | ${label} | accuracy: ${['all', 'en', 'zh', 'mixed'].map(correct).join(', ')} |\n`);
  };
  run('in-sample (train → train)', trainRows, trainRows);
  run('out-of-family (train → validation half B)', trainRows, unseenHalf);
  run('in-family (train + validation half A → half B)', [...trainRows, ...seenHalf], unseenHalf);
  for (const share of [1 / 3, 2 / 3]) run(`learning curve: ${Math.round(share * 100)} % of train families → validation`, familyShare(trainRows, share), validation);
  run('learning curve: 100 % of train families → validation', trainRows, validation);
  const trainOnly = new Set(TRAIN_ONLY_QUERY_FAMILIES.map((family) => family.id));
  run('train without the train-only families → validation', trainRows.filter((row) => !trainOnly.has(row.family)), validation);
}

process.stdout.write('| classifier | trained → evaluated | figure (model alone) |\n|---|---|---|\n');
if (which !== 'injection') intent();
if (which !== 'intent') injection();
