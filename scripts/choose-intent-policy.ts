/**
 * Chooses how rules and the learned intent model decide together (INTENT_DECISION in
 * domain/intent/learned-intent.ts) on the validation split, with a model trained on train alone,
 * so the choice is made on families the model never saw (test is never read here):
 *   node scripts/choose-intent-policy.ts
 * The model learns from the generated train split and the real queries' train split as the recipe
 * says; both validation splits are read, the generated one and the real queries' (FAQ questions
 * and manual headings by other people). Prints accuracy per language and the lowest intent recall
 * for the rules alone, the model alone, and each policy (the model decides where no rule fired if
 * at least minConfidence sure; it overrules a rule's cue if at least overruleConfidence sure, and
 * rules that found only hints if at least hintOverruleConfidence sure).
 */
import { INTENTS, type Intent } from '../schemas/ingest.ts';
import { generateIntentQueries } from '../domain/intent/corpus/generate-queries.ts';
import { detectSignals } from '../domain/intent/detect-signals.ts';
import { decideIntent, INTENT_RECIPE, predictIntent, trainIntentModel, type IntentDecision } from '../domain/intent/learned-intent.ts';
import { pickIntent } from '../domain/intent/pick-intent.ts';
import { intentQuality } from '../domain/intent/quality-report.ts';
import { realQueries } from '../domain/intent/real-queries/real-queries.ts';

const validationSets = {
  generated: generateIntentQueries().filter((row) => row.split === 'validation'),
  real: realQueries().filter((row) => row.split === 'validation'),
};
const model = { model: trainIntentModel(INTENT_RECIPE, detectSignals, ['train']), recipe: INTENT_RECIPE, key: 'policy-choice' };
const scored = new Map(Object.values(validationSets).flat().map((row) => {
  const signals = detectSignals(row.query);
  return [row.query, { signals, ruleIntent: pickIntent(signals), prediction: predictIntent(model, row.query, signals, false) }];
}));

function report(label: string, classify: (query: string) => Intent): void {
  for (const [name, rows] of Object.entries(validationSets)) {
    const quality = intentQuality(rows, classify);
    const cells = quality.map((row) => {
      const lowest = INTENTS.filter((intent) => row.recall[intent].trials > 0).sort((a, b) => row.recall[a].rate - row.recall[b].rate)[0] ?? 'factual';
      return `${row.lang} ${row.accuracy.rate.toFixed(3)} (lowest ${lowest} ${row.recall[lowest].rate.toFixed(2)})`;
    });
    process.stdout.write(`| ${label} | ${name} | ${cells.join(' | ')} |\n`);
  }
}

const entry = (query: string) => {
  const found = scored.get(query);
  if (found === undefined) throw new Error(`unscored query ${query}`);
  return found;
};
process.stdout.write('| policy (validation, model trained on train) | set | all | en | mixed | zh |\n|---|---|---|---|---|---|\n');
report('rules alone', (query) => entry(query).ruleIntent);
report('model alone', (query) => entry(query).prediction.intent);
for (const overruleConfidence of [2, 0.9, 0.8, 0.7]) {
  for (const hintOverruleConfidence of [overruleConfidence, 0.7, 0.5, 0.4]) {
    for (const minConfidence of [0.3, 0.4, 0.5]) {
      const policy: IntentDecision = { minConfidence, overruleConfidence, hintOverruleConfidence };
      const never = (confidence: number) => (confidence > 1 ? 'never' : confidence);
      report(`no signal: model if ≥ ${minConfidence}; overrule cues if ≥ ${never(overruleConfidence)}, hints if ≥ ${never(hintOverruleConfidence)}`, (query) => {
        const { signals, ruleIntent, prediction } = entry(query);
        return decideIntent(ruleIntent, signals, prediction, policy);
      });
    }
  }
}
