/**
 * Prompt-injection screening quality on untouched sets, per language, with 95 % Wilson intervals:
 *   node scripts/eval-injection.ts [--set test|validation|real-test|real-validation|shared|promptfoo-test|promptfoo-validation|scanner-test|FILE] [--mode combined|rules|both] [--layout as-written|feed|feed-paragraphs]
 * Sets: `test` is the test split of the generated corpus (families never trained or tuned on),
 * `validation` the split the thresholds were chosen on (not a held-out figure), `real-test` /
 * `real-validation` the splits of the real-text corpus (benign documentation by other people, by
 * document; real-text/real-text-corpus.ts), `promptfoo-test` / `promptfoo-validation` other people's
 * jailbreak prompts of that split's families (real-text/outside-injections.ts), each alone and set
 * into a benign page of the split (reported per carrier too), `scanner-test` the labelled prompts
 * agent-security-scanner-mcp ships (real-text/scanner-benchmark.ts; all test, the same two ways), `shared`
 * <repo>/../shared/corpora/injection-dev.jsonl (an outside set, no longer used for tuning), or any
 * labelled JSONL file. Default: test, real-test, shared, promptfoo-test and scanner-test, both modes. Predicted positive = quarantine or drop.
 * `--layout feed` screens each item as the feed reader hands an entry on (its content read as the
 * entry's markup: visible text, a snippet of it and the markup, evaluate.ts SCREEN_LAYOUTS;
 * `--layout feed-paragraphs` first turns the text into such markup, a paragraph a line);
 * the default screens title and content as written. Exit 1 when a corpus cannot be read, 2 on an
 * unknown layout.
 */
import { argument, evalOptions, loadEvalSet } from './eval-sets.ts';
import { formatProportion, type Proportion } from '../domain/learned/wilson.ts';
import { generateInjectionCorpus } from '../domain/screening/corpus/generate-corpus.ts';
import { parseLabelledCorpus, SCREEN_LAYOUTS, type ScreenLayout } from '../domain/screening/evaluate.ts';
import { outsideInjectionCorpus } from '../domain/screening/real-text/outside-injections.ts';
import { scannerBenchmarkCorpus } from '../domain/screening/real-text/scanner-benchmark.ts';
import { realTextCorpus } from '../domain/screening/real-text/real-text-corpus.ts';
import { screeningQuality } from '../domain/screening/quality-report.ts';
import { RULES_ONLY, SCORING_MODEL } from '../domain/screening/scoring-model.ts';
import { screenItem, type ScreenInput } from '../domain/screening/screen-item.ts';

const { sets, modes } = evalOptions(['test', 'real-test', 'shared', 'promptfoo-test', 'scanner-test']);
const layoutArgument = process.argv.includes('--layout') ? argument('--layout') : 'as-written';
if (layoutArgument === undefined || !Object.hasOwn(SCREEN_LAYOUTS, layoutArgument)) {
  process.stderr.write(`eval-injection: unknown --layout ${JSON.stringify(layoutArgument ?? '')}: use ${Object.keys(SCREEN_LAYOUTS).join(' or ')}\n`);
  process.exit(2);
}
const layout = SCREEN_LAYOUTS[layoutArgument as ScreenLayout];
const PROMPTFOO_SET = /^promptfoo-(test|validation)$/;
/** Sets of other people's prompts, each screened as-is and in a benign page (reported per carrier). */
const OUTSIDE_SET = /^(promptfoo-(test|validation)|scanner-test)$/;
const OUTSIDE_CARRIERS = ['as-is', 'in-page'];
const load = (set: string) => {
  const split = PROMPTFOO_SET.exec(set)?.[1];
  if (split !== undefined) return outsideInjectionCorpus(generateInjectionCorpus()).filter((item) => item.split === split && OUTSIDE_CARRIERS.includes(item.carrier));
  if (set === 'scanner-test') return scannerBenchmarkCorpus(generateInjectionCorpus());
  return loadEvalSet(set, { script: 'eval-injection', generated: generateInjectionCorpus, real: realTextCorpus, sharedFile: 'injection-dev.jsonl', parse: parseLabelledCorpus });
};
for (const set of sets) {
  const items = load(set);
  for (const which of modes) {
    const scoring = which === 'rules' ? RULES_ONLY : SCORING_MODEL;
    const started = performance.now();
    const screen = (input: ScreenInput) => screenItem(layout(input), { scoring });
    const quality = screeningQuality(items, screen);
    const elapsed = performance.now() - started;
    process.stdout.write(`\n## ${set} (${items.length} items, laid out ${layoutArgument}) — ${which === 'rules' ? 'rules only' : 'rules + learned model'}; ${(elapsed / items.length).toFixed(2)} ms/item\n\n`);
    process.stdout.write('| lang | items | recall [95% CI] | FPR [95% CI] | hard-negative FPR [95% CI] |\n|---|---|---|---|---|\n');
    // A set without injections (the real-text splits) has no recall to report, one without benign items (promptfoo) no FPR.
    const cell = (proportion: Proportion) => (proportion.trials === 0 ? '—' : formatProportion(proportion));
    for (const row of quality) process.stdout.write(`| ${row.lang} | ${row.items} | ${cell(row.recall)} | ${cell(row.falsePositiveRate)} | ${cell(row.hardFalsePositiveRate)} |\n`);
    if (set.startsWith('real-')) {
      // The real-text splits per origin: Debian manuals, npm documentation of LLM SDKs.
      process.stdout.write('\n| origin | lang | passages | FPR [95% CI] |\n|---|---|---|---|\n');
      for (const origin of ['debian', 'npm'] as const) {
        for (const row of screeningQuality(items.filter((item) => item.kind.startsWith(`real:${origin}:`)), screen)) process.stdout.write(`| ${origin} | ${row.lang} | ${row.items} | ${cell(row.falsePositiveRate)} |\n`);
      }
    }
    if (OUTSIDE_SET.test(set)) {
      process.stdout.write('\n| carrier | prompts | recall [95% CI] | FPR [95% CI] |\n|---|---|---|---|\n');
      for (const carrier of OUTSIDE_CARRIERS) {
        const all = screeningQuality(items.filter((item) => 'carrier' in item && item.carrier === carrier), screen)[0];
        if (all !== undefined) process.stdout.write(`| ${carrier} | ${all.items} | ${cell(all.recall)} | ${cell(all.falsePositiveRate)} |\n`);
      }
    }
    process.stdout.write('\nconfusion (label → accept / downweight / quarantine / drop):\n\n| lang | injection | benign |\n|---|---|---|\n');
    for (const row of quality) {
      const cells = (label: 'injection' | 'benign') => ['accept', 'downweight', 'quarantine', 'drop'].map((verdict) => row.confusion[label][verdict as 'accept']).join(' / ');
      process.stdout.write(`| ${row.lang} | ${cells('injection')} | ${cells('benign')} |\n`);
    }
    const all = quality[0];
    if (all !== undefined) {
      process.stdout.write(`\nmissed by technique: ${JSON.stringify(all.missedKinds)}\nfalse alarms by kind: ${JSON.stringify(all.falseAlarmKinds)}\n`);
    }
  }
}
