/**
 * Chooses how rules and the learned intent model decide together (INTENT_DECISION in
 * domain/intent/learned-intent.ts) on the validation split, with a model trained on train alone,
 * so the choice is made on families the model never saw (test is never read here):
 *   node scripts/choose-intent-policy.ts
 * Prints accuracy per language and the lowest intent recall for the rules alone, the model alone,
 * and each policy (the model decides where no rule fired if at least minConfidence sure; it
 * overrules a rule's pick if at least overruleConfidence sure).
 */
import { INTENTS, type Intent } from '../schemas/ingest.ts';
import { train } from '../domain/learned/logistic.ts';
import { generateIntentQueries } from '../domain/intent/corpus/generate-queries.ts';
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { decideIntent, INTENT_RECIPE, predictIntent, queryVector, type IntentDecision } from '../domain/intent/learned-intent.ts';
import { pickIntent } from '../domain/intent/pick-intent.ts';
import { intentQuality } from '../domain/intent/quality-report.ts';

const queries = generateIntentQueries();
const trainRows = queries.filter((row) => row.split === 'train');
const validation = queries.filter((row) => row.split === 'validation');
const examples = trainRows.map((row) => ({ vector: queryVector(row.query, detectSignals(row.query), INTENT_RECIPE), label: INTENTS.indexOf(row.intent) }));
const model = { model: train(examples, INTENTS.length, INTENT_RECIPE.features.bits, INTENT_RECIPE.training), recipe: INTENT_RECIPE, key: 'policy-choice' };
const scored = new Map(validation.map((row) => {
  const signals = detectSignals(row.query);
  return [row.query, { signals, ruleIntent: pickIntent(signals), prediction: predictIntent(model, row.query, signals, false) }];
}));

function report(label: string, classify: (query: string) => Intent): void {
  const quality = intentQuality(validation, classify);
  const cells = quality.map((row) => {
    const lowest = INTENTS.filter((intent) => row.recall[intent].trials > 0).sort((a, b) => row.recall[a].rate - row.recall[b].rate)[0] ?? 'factual';
    return `${row.lang} ${row.accuracy.rate.toFixed(3)} (lowest ${lowest} ${row.recall[lowest].rate.toFixed(2)})`;
  });
  process.stdout.write(`| ${label} | ${cells.join(' | ')} |\n`);
}

const entry = (query: string) => {
  const found = scored.get(query);
  if (found === undefined) throw new Error(`unscored query ${query}`);
  return found;
};
process.stdout.write('| policy (validation, model trained on train) | all | en | mixed | zh |\n|---|---|---|---|---|\n');
report('rules alone', (query) => entry(query).ruleIntent);
report('model alone', (query) => entry(query).prediction.intent);
for (const overruleConfidence of [2, 0.95, 0.9, 0.8, 0.7, 0.6, 0.5]) {
  for (const minConfidence of [0, 0.3, 0.4, 0.5, 0.6]) {
    const policy: IntentDecision = { minConfidence, overruleConfidence };
    report(`no signal: model if ≥ ${minConfidence}; overrule rules if ≥ ${overruleConfidence > 1 ? 'never' : overruleConfidence}`, (query) => {
      const { signals, ruleIntent, prediction } = entry(query);
      return decideIntent(ruleIntent, signals, prediction, policy);
    });
  }
}
