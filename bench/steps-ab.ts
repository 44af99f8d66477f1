/**
 * `node --expose-gc bench/steps-ab.ts <other-tree> [--step=normalize|score|screen|model] [--rounds=N]`
 *
 * One of the scorer's per-result steps in this tree against another checkout of Skrya (say
 * `git archive <commit> | tar -x -C /tmp/base`, with node_modules and .skrya linked in), both
 * loaded in one process and run by turns, round after round, on the stage bench's 400 results.
 * The bench's row for these steps is one figure a run, and the window a run falls in moves it by
 * a third (136 to 229 µs for the same code); a change of a few percent shows only in the ratio of
 * two trees timed side by side. Prints each tree's µs a result and the per-round ratio of this
 * tree to the other (median and quartiles), after checking that both give the same output.
 * - normalize: provider responses parsed into results (normalizeResponse)
 * - score: validate + screen + score + verdict of normalized results (createResultsScorer)
 * - screen: screenItem on each result
 * - model: the learned injection model's worst passage of each result's title, content and snippet
 */
import { isDeepStrictEqual } from 'node:util';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SkryaError } from '../runtime/errors.ts';
import type { RawResult } from '../schemas/messages.ts';
import { median, percentile } from './measure.ts';
import { stepResponses } from './stages.ts';

type NormalizeModule = typeof import('../services/scorer/normalize-response.ts');
type StepsModule = typeof import('../services/scorer/steps/normalize.ts');
type ResultsModule = typeof import('../services/scorer/score-results.ts');
type ModelsModule = typeof import('../domain/scoring-model/default-model.ts');
type ScreenModule = typeof import('../domain/screening/screen-item.ts');
type LearnedModule = typeof import('../domain/screening/learned-model.ts');

const STEPS = ['normalize', 'score', 'screen', 'model'] as const;
type Step = (typeof STEPS)[number];
type Response = Extract<RawResult, { kind: 'RESPONSE' }>;

/** One pass of the step over every response or result (its output, to compare the trees by), and how many results a pass covers. */
interface Loaded {
  pass: () => unknown;
  results: number;
}

async function loadPass(root: string, step: Step, responses: readonly Response[]): Promise<Loaded> {
  const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T;
  const { builtinParsers, normalizeResponse } = await load<NormalizeModule>('services/scorer/normalize-response.ts');
  const parsers = builtinParsers();
  const normalized = responses.map((message) => ({ message, results: normalizeResponse(message, parsers) }));
  const results = normalized.flatMap((entry) => entry.results);
  const covering = (pass: () => unknown): Loaded => ({ pass, results: results.length });
  if (step === 'normalize') return covering(() => responses.map((message) => normalizeResponse(message, parsers)));
  if (step === 'score') {
    const { candidatesOf } = await load<StepsModule>('services/scorer/steps/normalize.ts');
    const { createResultsScorer } = await load<ResultsModule>('services/scorer/score-results.ts');
    const { DEFAULT_SCORING_MODEL } = await load<ModelsModule>('domain/scoring-model/default-model.ts');
    const score = createResultsScorer(DEFAULT_SCORING_MODEL);
    const batches = normalized.map(({ message, results: batch }) => ({ message, candidates: candidatesOf(message, batch) }));
    return covering(() => batches.map(({ message, candidates }) => score(message, candidates)));
  }
  if (step === 'screen') {
    const { screenItem } = await load<ScreenModule>('domain/screening/screen-item.ts');
    return covering(() => results.map((result) => screenItem({ id: 'ab', title: result.title, content: result.content, summary: result.snippet, url: result.url, html: result.html })));
  }
  const { injectionModel, worstPassageOf } = await load<LearnedModule>('domain/screening/learned-model.ts');
  const { model } = injectionModel();
  const fields = results.map((result) => [['title', result.title], ['content', result.content ?? ''], ['summary', result.snippet]].filter(([, text]) => text !== '') as Array<[string, string]>);
  return covering(() => fields.map((item) => worstPassageOf(model, item)));
}

function parseArguments(argv: readonly string[]): { other: string; step: Step; rounds: number } {
  const other = argv.find((argument) => !argument.startsWith('--'));
  if (other === undefined) throw new SkryaError('INVALID_INPUT', 'give the other tree: node --expose-gc bench/steps-ab.ts <other-tree> [--step=normalize|score|screen|model] [--rounds=N]');
  const option = (name: string) => argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const step = option('step') ?? 'score';
  if (!(STEPS as readonly string[]).includes(step)) throw new SkryaError('INVALID_INPUT', `--step must be one of ${STEPS.join(', ')}, got ${JSON.stringify(step)}`);
  const rounds = Number(option('rounds') ?? 40);
  if (!Number.isInteger(rounds) || rounds < 4) throw new SkryaError('INVALID_INPUT', `--rounds must be an integer of at least 4, got ${JSON.stringify(option('rounds'))}`);
  return { other: path.resolve(other), step: step as Step, rounds };
}

async function main(): Promise<void> {
  const { other, step, rounds } = parseArguments(process.argv.slice(2));
  const responses = stepResponses();
  const trees = [
    { name: 'other', ...(await loadPass(other, step, responses)) },
    { name: 'this', ...(await loadPass(path.resolve(import.meta.dirname, '..'), step, responses)) },
  ];
  if (!isDeepStrictEqual(trees[0]!.pass(), trees[1]!.pass())) throw new SkryaError('INVALID_INPUT', `the two trees' ${step} outputs differ: compare their code before timing them`);
  const { results } = trees[1]!;
  // Past V8's compiling of both trees' code (the first passes take several times a warmed one).
  for (let warm = 0; warm < 30; warm++) for (const tree of trees) tree.pass();
  // A round of each tree lasts about 50 ms: a shorter one is at the mercy of a single scavenge.
  const started = process.hrtime.bigint();
  trees[1]!.pass();
  const passes = Math.max(2, Math.ceil(50 / (Number(process.hrtime.bigint() - started) / 1e6)));
  const collect = (globalThis as { gc?: () => void }).gc;
  const micros = trees.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    trees.forEach((tree, index) => {
      // With --expose-gc, each round starts on a collected heap: a full collection of one tree's
      // garbage landing in the other's round was most of the spread between rounds.
      collect?.();
      const start = process.hrtime.bigint();
      for (let pass = 0; pass < passes; pass++) tree.pass();
      micros[index]!.push(Number(process.hrtime.bigint() - start) / passes / 1_000 / results);
    });
  }
  for (const [index, tree] of trees.entries()) {
    const sorted = [...micros[index]!].sort((a, b) => a - b);
    console.log(`${step} ${tree.name.padEnd(5)} µs a result: min ${sorted[0]!.toFixed(2)}, median ${median(sorted).toFixed(2)}`);
  }
  const ratios = micros[1]!.map((value, round) => value / micros[0]![round]!).sort((a, b) => a - b);
  console.log(`${step} this / other, round by round: median ${median(ratios).toFixed(3)} (quartiles ${percentile(ratios, 25).toFixed(3)}–${percentile(ratios, 75).toFixed(3)}, ${rounds} rounds over ${results} results)`);
}

try {
  await main();
} catch (error) {
  console.error(error instanceof SkryaError ? `steps-ab: ${error.message}` : error);
  process.exitCode = 2;
}
