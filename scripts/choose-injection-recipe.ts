/**
 * Chooses two parts of the injection recipe on the validation split, never test:
 *   node scripts/choose-injection-recipe.ts [share|npm-share|debian-share|short|outside|all]
 * Each candidate is a model trained on train alone scoring validation (generated pages and
 * real-text passages); the threshold is placed as training places it (FPR ≤ 0.03 on benign pages
 * and on real-text passages, ≤ 0.08 on hard negatives) and recall read there.
 * - share: how much of the real-text corpus of each origin joins training
 *   (INJECTION_RECIPE.realTextShare): the Debian share with npm's held at the shipped one, then the
 *   npm share (documentation of LLM SDKs) with Debian's at the shipped one. Chosen per origin: the
 *   share with the highest validation recall. The npm table's first row is the recipe without npm
 *   documentation (none in training, its passages not bounding the threshold), for comparison.
 *   Each row is trained with five seeds (means shown), as neighbouring shares in one run differed
 *   by up to ten injections.
 * - short: the minimum-evidence rule (INJECTION_RECIPE.shortPassage). Chosen: the strongest rule
 *   (most features required, then the largest penalty) whose validation recall is no lower than
 *   without a rule. Also prints the margin over the threshold of short feed entries whose first
 *   word opens many notes addressed to AI models.
 * - outside: how many items of each train-family jailbreak prompt of promptfoo's
 *   (real-text/outside-injections.ts) join training, and which share of their injection passages
 *   (INJECTION_RECIPE.outsideInjectionItems, outsidePassageShare). Each row is trained with five
 *   seeds and reports the mean generated validation recall and the mean recall on the validation
 *   families' prompts (as-is and in a benign validation page, pooled). Chosen: the highest sum of
 *   the two among rows whose generated validation recall is no more than 0.01 (five injections)
 *   below none's; ties go to fewer items.
 */
import { chooseThreshold, evaluatedItems, INJECTION_RECIPE, modelWithout, scoreItems, trainingCorpus, worstPassageOf, type InjectionRecipe, type ScoredItem } from '../domain/screening/learned-model.ts';

const SHARES = [0, 0.01, 0.02, 0.03, 0.05, 0.1, 0.3, 1];
const ORIGINS = ['debian', 'npm'] as const;
const FEATURES = [0, 4, 6, 8, 10, 12];
const PENALTIES = [1, 2, 3, 4, 6];
/** [items a prompt, share of their injection passages]; the first row, none, is the baseline. */
const OUTSIDE_ROWS: ReadonlyArray<[number, number]> = [[0, 1], ...[1, 2, 3, 5, 9].flatMap((count): Array<[number, number]> => [[count, 1], [count, 0.25]]), [2, 0.5], [3, 0.5]];
/** Training seeds each share and outside row is trained with: single runs move by up to 0.05 of validation recall. */
const SEEDS = [13, 14, 15, 16, 17];
const PROBES: ReadonlyArray<Array<[string, string]>> = [[['title', 'Note 1 broker'], ['content', 'avro 1.']], [['title', 'Note'], ['content', '']], [['title', 'Note 2 raft'], ['content', 'raft 2.']]];

const which = process.argv[2] ?? 'all';
const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const corpus = trainingCorpus();
const validation = evaluatedItems(corpus, 'validation');

/** Rates at the threshold the recipe's limits place on `bounding` (default: all of these scores). */
function operatingPoint(scored: readonly ScoredItem[], recipe: InjectionRecipe, bounding: readonly ScoredItem[] = scored) {
  const threshold = chooseThreshold(bounding, recipe);
  const rate = (keep: (entry: ScoredItem) => boolean) => {
    const list = scored.filter(keep);
    return list.filter((entry) => entry.logit >= threshold).length / Math.max(1, list.length);
  };
  return {
    threshold,
    recall: rate((entry) => entry.label === 'injection' && !entry.outside),
    cells: [rate((entry) => entry.label === 'benign' && entry.realText === null), rate((entry) => entry.label === 'benign' && entry.realText === null && entry.hard), ...ORIGINS.map((origin) => rate((entry) => entry.realText === origin))].map((value) => value.toFixed(3)),
  };
}

/** The operating point of `recipe` trained with each of SEEDS: mean recall (with min and max) and mean rate cells. */
function seededPoint(recipe: InjectionRecipe, bounding: (scored: readonly ScoredItem[]) => readonly ScoredItem[] = (scored) => scored) {
  const runs = SEEDS.map((seed) => {
    const seeded = { ...recipe, training: { ...recipe.training, seed } };
    const scored = scoreItems(modelWithout(corpus, seeded, 'validation'), validation, seeded);
    return { scored, point: operatingPoint(scored, seeded, bounding(scored)) };
  });
  const recalls = runs.map((run) => run.point.recall);
  const cells = runs[0]?.point.cells.map((_cell, column) => mean(runs.map((run) => Number(run.point.cells[column]))).toFixed(3)) ?? [];
  return { runs, recall: mean(recalls), range: `${Math.min(...recalls).toFixed(3)}–${Math.max(...recalls).toFixed(3)}`, cells };
}

function chooseShare(origin: (typeof ORIGINS)[number]): void {
  process.stdout.write(`| ${origin} share in training | validation recall (mean of ${SEEDS.length} seeds; min–max) | FPR | hard FPR | Debian real-text FPR | npm real-text FPR |\n|---|---|---|---|---|---|\n`);
  if (origin === 'npm') {
    const recipe = { ...INJECTION_RECIPE, realTextShare: { ...INJECTION_RECIPE.realTextShare, npm: 0 } };
    const point = seededPoint(recipe, (scored) => scored.filter((entry) => entry.realText !== 'npm'));
    process.stdout.write(`| without npm docs | ${point.recall.toFixed(3)} (${point.range}) | ${point.cells.join(' | ')} |\n`);
  }
  const rows = SHARES.map((share) => {
    const point = seededPoint({ ...INJECTION_RECIPE, realTextShare: { ...INJECTION_RECIPE.realTextShare, [origin]: share } });
    process.stdout.write(`| ${share} | ${point.recall.toFixed(3)} (${point.range}) | ${point.cells.join(' | ')} |\n`);
    return { share, recall: point.recall };
  });
  const best = [...rows].sort((a, b) => b.recall - a.recall)[0];
  process.stdout.write(`\nchosen ${origin} share: ${best?.share} (mean validation recall ${best?.recall.toFixed(3)}); shipped recipe: ${INJECTION_RECIPE.realTextShare[origin]}\n\n`);
}

function chooseShortPassageRule(): void {
  const model = modelWithout(corpus, INJECTION_RECIPE, 'validation');
  const rows: Array<{ rule: InjectionRecipe['shortPassage']; recall: number }> = [];
  process.stdout.write('| features | penalty | validation recall | FPR | hard FPR | Debian real-text FPR | npm real-text FPR | probes: log-odds over the threshold |\n|---|---|---|---|---|---|---|---|\n');
  for (const features of FEATURES) {
    for (const penalty of features === 0 ? [0] : PENALTIES) {
      const recipe = { ...INJECTION_RECIPE, shortPassage: { features, penalty } };
      const point = operatingPoint(scoreItems(model, validation, recipe), recipe);
      const probes = PROBES.map((fields) => (worstPassageOf(model, fields, recipe).logit - point.threshold).toFixed(2)).join(', ');
      rows.push({ rule: recipe.shortPassage, recall: point.recall });
      process.stdout.write(`| ${features} | ${penalty} | ${point.recall.toFixed(3)} | ${point.cells.join(' | ')} | ${probes} |\n`);
    }
  }
  const baseline = rows[0]?.recall ?? 0;
  const chosen = rows.filter((row) => row.recall >= baseline).sort((a, b) => b.rule.features - a.rule.features || b.rule.penalty - a.rule.penalty)[0];
  process.stdout.write(`\nchosen rule (strongest without losing validation recall ${baseline.toFixed(3)}): ${JSON.stringify(chosen?.rule)}; shipped recipe: ${JSON.stringify(INJECTION_RECIPE.shortPassage)}\n`);
}

function chooseOutsideItems(): void {
  const carriers = validation.map((item) => item.carrier);
  process.stdout.write(`| promptfoo items a train prompt | share of their passages | validation recall (mean of ${SEEDS.length} seeds; min–max) | promptfoo validation recall, as-is and in-page pooled | FPR | hard FPR | Debian real-text FPR | npm real-text FPR |\n|---|---|---|---|---|---|---|---|\n`);
  const rows = OUTSIDE_ROWS.map(([count, passageShare]) => {
    const point = seededPoint({ ...INJECTION_RECIPE, outsideInjectionItems: count, outsidePassageShare: passageShare });
    const outsideRecalls = point.runs.map(({ scored, point: run }) => {
      const outside = scored.filter((entry, index) => entry.outside && ['as-is', 'in-page'].includes(carriers[index] ?? ''));
      return outside.filter((entry) => entry.logit >= run.threshold).length / Math.max(1, outside.length);
    });
    const row = { count, passageShare, recall: point.recall, outside: mean(outsideRecalls) };
    process.stdout.write(`| ${count} | ${passageShare} | ${row.recall.toFixed(3)} (${point.range}) | ${row.outside.toFixed(3)} | ${point.cells.join(' | ')} |\n`);
    return row;
  });
  const floor = (rows[0]?.recall ?? 0) - 0.01;
  const chosen = rows.filter((row) => row.recall >= floor).sort((a, b) => b.recall + b.outside - (a.recall + a.outside) || a.count - b.count)[0];
  process.stdout.write(`\nchosen: ${chosen?.count} items a prompt, ${chosen?.passageShare} of their passages (validation recall ${chosen?.recall.toFixed(3)}, promptfoo validation ${chosen?.outside.toFixed(3)}); shipped recipe: ${INJECTION_RECIPE.outsideInjectionItems} items, ${INJECTION_RECIPE.outsidePassageShare}\n\n`);
}

if (which === 'all' || which === 'outside') chooseOutsideItems();
if (which === 'all' || which === 'share' || which === 'npm-share') chooseShare('npm');
if (which === 'all' || which === 'share' || which === 'debian-share') chooseShare('debian');
if (which === 'all' || which === 'short') chooseShortPassageRule();
