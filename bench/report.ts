/** The markdown table of one bench run: figure, aim, and whether the aim was met. */
import type { BurstFigures, FleetFigures, SteadyFigures } from './fleet.ts';
import type { KernelFigures, ScorerStepCosts } from './kernels.ts';
import type { LatencyFigures, LatencyLevel } from './latency.ts';
import { median, type MachineInfo } from './measure.ts';
import type { CliStartFigures, ProcessFigures, RankFigures, RankPhases, RankRun } from './processes.ts';
import type { ReplayFigures } from './replay.ts';
import type { ScaleOutFigures } from './scale-out.ts';
import type { PipelineFigures, StageFigures } from './stages.ts';

export interface BenchResults {
  startedAt: string;
  durationSeconds: number;
  machine: MachineInfo;
  loadAverageAtEnd: number[];
  options: Record<string, unknown>;
  cli?: CliStartFigures;
  rank?: RankFigures;
  kernels?: KernelFigures;
  scorer?: StageFigures;
  collector?: StageFigures;
  pipeline?: PipelineFigures;
  latency?: LatencyFigures;
  replay?: ReplayFigures;
  fleet?: FleetFigures;
  fleetSoak?: SteadyFigures;
  scaleOut?: ScaleOutFigures;
  /** A section that failed: its error, so the others still report. */
  errors: Record<string, string>;
}

/** Stage messages/s over the bare passthrough's, in the same run (issue 15's aims). */
export const STAGE_RATIO_AIMS = { scorer: 0.3, collector: 0.6 } as const;
/** The scorer's own work per result on one core. */
export const SCORER_WORK_AIM_US = 150;
export const REPLAY_AIM_ITEMS_PER_SECOND = 3_000;
export const LATENCY_AIM_ITEMS_PER_SECOND = 1_000;
export const SCREEN_AIM_ITEMS_PER_SECOND = 5_000;
export const CLASSIFY_QUERY_AIM_MS = 5;
export const HELP_AIM = { wallMs: 200, peakRssMb: 80 } as const;
export const CLASSIFY_AIM_WALL_MS = 300;
export const RANK_AIM = { wallMs: 3_000, peakRssMb: 400 } as const;

/** The fleet aims of issue 19, for 100,000 topics across 1,000 tenants on this machine. */
export const FLEET_AIMS = { burstSeconds: 60, steadyP99Ms: 5_000, idleCpuShare: 0.05, memoryMb: 500 } as const;

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

const met = (ok: boolean) => (ok ? 'met' : '**missed**');
const percent = (share: number) => `${Math.round(share * 100)} %`;

type Row = [string, string, string, string];

const workersBusy = (stage: StageFigures['stage']) => stage.workersBusy.map(percent).join(', ');

/**
 * screenItem's verdict; a miss says by how much and which half of the screening costs more, from
 * its two halves timed alone in the same run (each half's rate bounds the whole's).
 */
export function screenVerdict(itemsPerSecond: number, rulesOnly: number, modelOnly: number): string {
  if (itemsPerSecond >= SCREEN_AIM_ITEMS_PER_SECOND) return met(true);
  const [slower, rate] = rulesOnly < modelOnly ? ['the rules', rulesOnly] : ['the learned model', modelOnly];
  return `${met(false)} by ${formatNumber(SCREEN_AIM_ITEMS_PER_SECOND - itemsPerSecond)} items/s (${formatNumber(SCREEN_AIM_ITEMS_PER_SECOND / itemsPerSecond)}× too slow): ${slower} alone ran ${formatNumber(rate)} items/s, the rules ${formatNumber(1e6 / rulesOnly)} µs an item and the model ${formatNumber(1e6 / modelOnly)}`;
}

/** classifyQuery's verdict; a miss says by how much. */
export function classifyQueryVerdict(msPerQuery: number): string {
  return msPerQuery <= CLASSIFY_QUERY_AIM_MS ? met(true) : `${met(false)} by ${formatNumber(msPerQuery - CLASSIFY_QUERY_AIM_MS)} ms a query (${formatNumber(msPerQuery / CLASSIFY_QUERY_AIM_MS)}×)`;
}

/** Why a latency level was not sustained, read from its own window in this run. */
export function latencyLimit(level: Pick<LatencyLevel, 'eventLoopBusy' | 'cpuShare' | 'machineBusy'>, cores: number): string {
  const thisProcess = `this process (the producer, scorer, collector and sink) ${formatNumber(level.cpuShare)} CPU s/s, its event loop busy ${percent(level.eventLoopBusy)}`;
  if (level.machineBusy >= 0.9) return `the machine had no CPU to spare: its ${cores} cores were ${percent(level.machineBusy)} busy, ${thisProcess}, the rest the broker's and others'`;
  if (level.eventLoopBusy >= 0.9) return `runs queued behind one event loop: ${thisProcess}, the machine's cores ${percent(level.machineBusy)} busy`;
  return `not CPU-bound (${thisProcess}, the machine's cores ${percent(level.machineBusy)} busy): it waited on the broker`;
}

/** Why a stage fell short, read from its own figures in this run. */
function stageLimit(stage: StageFigures['stage'], cores: number): string {
  const leastBusyWorker = stage.workersBusy.length > 0 ? Math.min(...stage.workersBusy) : 0;
  if (stage.cpuShare >= 0.9 * cores) return `CPU-bound: it used ${formatNumber(stage.cpuShare)} CPU s/s of ${cores} cores`;
  if (stage.busy >= 0.9) return `CPU-bound on its event loop (busy ${percent(stage.busy)})`;
  if (leastBusyWorker >= 0.9) return `bound by its scoring worker thread(s), busy ${workersBusy(stage)} while its event loop was busy ${percent(stage.busy)}: the scoring per result (the rows below) is the limit, on ${formatNumber(stage.cpuShare)} CPU s/s of ${cores} cores shared with the broker`;
  if (stage.machineBusy >= 0.9) return `the machine had no CPU to spare: its ${cores} cores were ${percent(stage.machineBusy)} busy, ${formatNumber(stage.cpuShare)} CPU s/s of it this process's (event loop ${percent(stage.busy)}${stage.workersBusy.length > 0 ? `, scoring worker(s) ${workersBusy(stage)}` : ''}), the rest the broker's and others'`;
  // The live scorer parses on its event loop and scores in its worker to keep both busy (score-pool.ts).
  if (leastBusyWorker >= 0.75 && stage.busy >= 0.8) return `bound by both its threads, each near full: event loop busy ${percent(stage.busy)} (parsing responses, Avro, Kafka), scoring worker(s) ${workersBusy(stage)} (the item steps); ${formatNumber(stage.cpuShare)} CPU s/s, the machine's cores ${percent(stage.machineBusy)}: less work a result on either thread is what raises it`;
  // A worker busy 80–90 % beside an event loop well short of full still sets most of the pace.
  if (leastBusyWorker >= 0.8) return `mostly bound by its scoring worker thread(s), busy ${workersBusy(stage)} while its event loop was busy ${percent(stage.busy)}: the scoring per result (the rows below) is the larger limit; the rest of the window they had no response in hand (${formatNumber(stage.cpuShare)} CPU s/s, the machine's cores ${percent(stage.machineBusy)})`;
  return `not CPU-bound (event loop busy ${percent(stage.busy)}${stage.workersBusy.length > 0 ? `, scoring worker(s) ${workersBusy(stage)}` : ''}, CPU ${formatNumber(stage.cpuShare)} s/s, the machine's cores ${percent(stage.machineBusy)}): it waited on the broker`;
}

/**
 * First touches of fresh memory in a stage's windows and the passthrough's, priced at the cost of
 * a fault probed beside those windows (the run's own probe can be minutes stale: a VM's cost moves):
 * the passthrough, which only copies bytes, spends a larger share of its time on them, so a machine
 * whose faults cost more gives it a lower rate and the ratio a higher one.
 */
function pageFaultRow(name: string, figures: StageFigures): Row {
  const { before, after } = figures.pageFaultUs;
  const probed = [before, after].filter((cost) => cost !== null);
  // Their mean (the bench's median is a nearest-rank one: of two it gives the lower).
  const pageFaultUs = probed.length === 0 ? null : probed.reduce((sum, cost) => sum + cost, 0) / probed.length;
  const share = (faults: number, messagesPerSecond: number) => `${formatNumber(faults)} a message${pageFaultUs === null ? '' : `, about ${formatNumber(faults * pageFaultUs)} µs: ${percent((faults * pageFaultUs * messagesPerSecond) / 1_000_000)} of its ${formatNumber(1_000_000 / messagesPerSecond)} µs a message`}`;
  const passthroughFaults = median(figures.rounds.map((round) => round.passthrough.pageFaultsPerInput));
  return [
    `  page faults in the windows, ${pageFaultUs === null ? 'not priced' : `at ${formatNumber(pageFaultUs)} µs a fault`} (probed just before the windows and just after them: ${faultCost(before)} and ${faultCost(after)})`,
    `passthrough ${share(passthroughFaults, figures.passthrough.medianMessagesPerSecond)} (median of its windows); ${name} ${share(figures.stage.pageFaultsPerInput, figures.stage.inputsPerSecond)} (its median round)`,
    '',
    '',
  ];
}

/** Why a probe priced nothing (pageFaultMicros). */
const NOT_PROBED = 'the probe was not given fresh 4 KB pages';

/** A probed cost of a page fault, or why there is none. */
function faultCost(pageFaultUs: number | null): string {
  return pageFaultUs === null ? `not measured (${NOT_PROBED})` : `${formatNumber(pageFaultUs)} µs`;
}

function stageRows(name: keyof typeof STAGE_RATIO_AIMS, input: string, figures: StageFigures, cores: number): Row[] {
  const { passthrough, stage, rounds } = figures;
  const aim = STAGE_RATIO_AIMS[name];
  const ratios = rounds.map((round) => round.ratio);
  // Three decimals: a ratio just under its aim must not print as the aim.
  const verdict = figures.ratio >= aim ? met(true) : `${met(false)} by ${(aim - figures.ratio).toFixed(3)}: ${stageLimit(stage, cores)}`;
  return [
    [`bare kafkajs passthrough of the ${name}'s input`, `${formatNumber(passthrough.medianMessagesPerSecond)} msg/s (median of ${rounds.length} windows; ${formatNumber(figures.inputs)} ${input})`, 'the limit', ''],
    [`${name} alone (the median round)`, `${formatNumber(stage.inputsPerSecond)} msg/s in, ${formatNumber(stage.itemsPerSecond)} items/s, ${formatNumber(stage.outputsPerSecond)} msg/s out; event loop busy ${percent(stage.busy)}${stage.workersBusy.length > 0 ? `, scoring worker(s) busy ${workersBusy(stage)}` : ''}, CPU ${formatNumber(stage.cpuShare)} s/s; the machine's cores ${percent(stage.machineBusy)} busy`, '', ''],
    [`${name} / passthrough`, `${figures.ratio.toFixed(3)} (median of ${rounds.length} rounds, each the stage's window beside a passthrough's; ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)})`, `≥ ${aim}`, verdict],
    pageFaultRow(name, figures),
  ];
}

/**
 * Where the scorer's time goes, per result on one core, and the most a single scorer could do
 * with that work set against the passthrough's cost for the same result.
 */
function scorerStepRows(steps: ScorerStepCosts, scorer: StageFigures | undefined, cores: number): Row[] {
  const us = (value: number) => `${formatNumber(value)} µs`;
  const total = steps.normalize + steps.scoreResults + steps.encodeOutput;
  const largest = [['normalize', steps.normalize], ['validate + screen + score', steps.scoreResults], ['Avro encode', steps.encodeOutput]].sort((a, b) => (b[1] as number) - (a[1] as number))[0]!;
  const rows: Row[] = [[
    `scorer's work per result (${formatNumber(steps.results)} results of the stage bench's responses, one core)`,
    `normalize ${us(steps.normalize)} (language detection with no declared language, an upper bound: ${us(steps.languageDetection)}), validate + screen + score ${us(steps.scoreResults)} (screening ${us(steps.screening)}), Avro encode of the output ${us(steps.encodeOutput)}: ${us(total)} in all, at most ${formatNumber(1_000_000 / total)} results/s`,
    `≤ ${us(SCORER_WORK_AIM_US)}`,
    total <= SCORER_WORK_AIM_US ? met(true) : `${met(false)} by ${us(total - SCORER_WORK_AIM_US)} (${formatNumber(total / SCORER_WORK_AIM_US)}×); the largest step is ${largest[0]} at ${us(largest[1] as number)}`,
  ]];
  if (scorer) {
    // The passthrough forwards the same messages (responses and run-end markers): its cost per result.
    const passthroughPerResult = 1_000_000 / (scorer.passthrough.medianMessagesPerSecond * (scorer.items / scorer.inputs));
    const ceiling = passthroughPerResult / total;
    rows.push(['  scorer / passthrough that this work allows on one core', `${formatNumber(ceiling)} (passthrough ${us(passthroughPerResult)} per result)`, `≥ ${STAGE_RATIO_AIMS.scorer}`, met(ceiling >= STAGE_RATIO_AIMS.scorer)]);
    rows.push(scorerCpuBudgetRow(scorer, cores));
  }
  return rows;
}

/**
 * The CPU the scorer's ratio aim asks of this machine, from the stage's median round: the rate
 * the aim means against this run's passthrough, times the CPU the scorer's process spent a result
 * (event loop, scoring worker and their helper threads), against the machine's cores less what
 * the broker and the rest took beside it in that window.
 */
function scorerCpuBudgetRow(scorer: StageFigures, cores: number): Row {
  const { stage } = scorer;
  const itemsPerInput = scorer.items / scorer.inputs;
  const aimItemsPerSecond = STAGE_RATIO_AIMS.scorer * scorer.passthrough.medianMessagesPerSecond * itemsPerInput;
  const cpuPerItemUs = (stage.cpuShare / stage.itemsPerSecond) * 1_000_000;
  const needed = (aimItemsPerSecond * cpuPerItemUs) / 1_000_000;
  const others = Math.max(0, stage.machineBusy * cores - stage.cpuShare);
  const affordableUs = ((cores - others) / aimItemsPerSecond) * 1_000_000;
  return [
    `  CPU the scorer / passthrough aim asks of ${cores} cores`,
    `${formatNumber(aimItemsPerSecond)} items/s (${STAGE_RATIO_AIMS.scorer} of the passthrough) at the ${formatNumber(cpuPerItemUs)} µs of CPU the scorer's process spent a result (event loop, worker and helper threads) is ${formatNumber(needed)} CPU s/s; the broker and the rest took ${formatNumber(others)} CPU s/s beside it (at its rate; more at the aim's), so the aim leaves ${formatNumber(affordableUs)} µs a result`,
    `≤ ${cores} CPU s/s`,
    needed + others <= cores ? 'within the machine' : `**beyond the machine**: the process would need ${formatNumber(cpuPerItemUs / affordableUs)}× less CPU a result, own work and Kafka client alike`,
  ];
}

const seconds = (ms: number) => `${formatNumber(ms / 1000)} s`;

function processFigure(figures: ProcessFigures): string {
  return `median ${seconds(figures.medianWallMs)} wall, ${seconds(figures.medianCpuMs)} CPU, ${formatNumber(figures.medianPeakRssMb)} MB peak RSS, ${formatNumber(figures.medianMinorFaults)} page faults (${figures.runs.length} runs: ${figures.runs.map((entry) => formatNumber(entry.wallMs / 1000)).join(' / ')} s)`;
}

/** What first touching its memory cost two processes: their minor page faults at the machine's measured cost of one, when it was measured. */
function faultCosts(first: ProcessFigures, second: ProcessFigures, pageFaultUs: number | null): string {
  const counts = `${formatNumber(first.medianMinorFaults)} page faults against ${formatNumber(second.medianMinorFaults)}`;
  if (pageFaultUs === null) return `${counts} (not priced: ${NOT_PROBED})`;
  const cost = (figures: ProcessFigures) => seconds((figures.medianMinorFaults * pageFaultUs) / 1000);
  return `${counts}, about ${cost(first)} against ${cost(second)} of the CPU at this machine's ${formatNumber(pageFaultUs)} µs a fault`;
}

function cliRows(cli: CliStartFigures): Row[] {
  const ratio = (figures: ProcessFigures) => formatNumber(figures.medianWallMs / cli.bareNode.medianWallMs);
  const { help, classify } = cli;
  return [
    ['CLI start: bare `node -e 0` (the floor)', processFigure(cli.bareNode), '', ''],
    ['CLI start: `skrya --help`', `${processFigure(help)}; ${ratio(help)}× bare node`, `≤ ${seconds(HELP_AIM.wallMs)}, ≤ ${HELP_AIM.peakRssMb} MB`, met(help.medianWallMs <= HELP_AIM.wallMs && help.medianPeakRssMb <= HELP_AIM.peakRssMb) + startMissedBy(help, HELP_AIM.wallMs, cli.bareNode)],
    [`CLI start: \`${classify.command}\``, `${processFigure(classify)}; ${ratio(classify)}× bare node`, `≤ ${seconds(CLASSIFY_AIM_WALL_MS)}`, met(classify.medianWallMs <= CLASSIFY_AIM_WALL_MS) + startMissedBy(classify, CLASSIFY_AIM_WALL_MS, cli.bareNode)],
  ];
}

/** By how much a start-up missed its aim, and what of that the machine itself costs (a bare node's start in the same run). */
function startMissedBy(figures: ProcessFigures, aimMs: number, bareNode: ProcessFigures): string {
  if (figures.medianWallMs <= aimMs) return '';
  return ` by ${seconds(figures.medianWallMs - aimMs)}; a bare node start took ${seconds(bareNode.medianWallMs)} of wall here, so skrya's own share is ${seconds(figures.medianWallMs - bareNode.medianWallMs)}`;
}

/** Where a process's CPU went, by kind of thread (medians of its runs). */
function threadCpuFigure(figures: ProcessFigures): string {
  const { main, workers, v8Helpers, other } = figures.medianThreadCpuMs;
  return `main threads ${seconds(main)}, Node worker threads ${seconds(workers)}, V8's helper threads ${seconds(v8Helpers)} (its compilers and garbage collector: ${formatNumber((100 * v8Helpers) / figures.medianCpuMs)} % of the CPU above), other ${seconds(other)}; a thread's CPU after its last reading is missed, so these add up to a little less`;
}

/** Where a rank's wall time went, from its own timings: reading on every thread, then the ranking thread alone. */
function rankPhasesFigure(skrya: RankRun): string {
  const { started, firstBatch, read, ranked, written } = skrya.phases;
  return `node and the command's modules loaded at ${seconds(started)}; the first batch back from a reading thread at ${seconds(firstBatch)}; all lines read at ${seconds(read)} (the reading threads and this thread, both cores); then the ranking thread alone: ranking (dedupe's clustering, fusion, order) ${seconds(ranked - read)}, writing ${seconds(written - ranked)}; done at ${seconds(written)} of the process's time, the rest of the ${seconds(skrya.medianWallMs)} wall is the launcher (the CLI before it replaces itself with node started with rank's flags) and the exit`;
}

/** Microseconds of the ranking phase an input line. */
const rankingUsPerLine = (phases: RankPhases, lines: number) => (1000 * (phases.ranked - phases.read)) / lines;

/**
 * The smaller file's rank: its ranking phase per line against the full file's. On the generator's
 * 20,000 results most words are under dedupe's word-overlap index limit, so a slow overlap lookup
 * shows here first (it took 1.1 s of this file's ranking, more than 100,000 results', until de428ad).
 */
function smallerFigure(rank: RankFigures): string {
  const { smaller } = rank;
  const left = smaller.skrya.documents === smaller.trueDocuments ? `all ${formatNumber(smaller.trueDocuments)} true documents left` : `left ${formatNumber(smaller.skrya.documents)} documents, not ${formatNumber(smaller.trueDocuments)}`;
  return `${processFigure(smaller.skrya)}; ${left}; ranking ${seconds(smaller.skrya.phases.ranked - smaller.skrya.phases.read)}, ${formatNumber(rankingUsPerLine(smaller.skrya.phases, smaller.lines))} µs a line against ${formatNumber(rankingUsPerLine(rank.skrya.phases, rank.lines))} on ${formatNumber(rank.lines)}`;
}

type RunTimes = Pick<ProcessFigures, 'medianWallMs' | 'medianCpuMs'> & { runs: readonly { wallMs: number }[] };

/** Each rank run beside the yardstick run after it: on a machine whose speed drifts, adjacent runs share their moment, medians of each side need not. */
const besideRatios = (skrya: RunTimes, python: RunTimes) => skrya.runs.map((run, index) => run.wallMs / python.runs[index]!.wallMs);

/**
 * Why rank did not beat the yardstick run beside run, from the same runs: the CPU it spent against
 * the yardstick's and the cores it spread it over, and how far the machine's speed moved between
 * runs (the yardstick's own runs, and the pairs, spread apart).
 */
export function yardstickShortfall(skrya: RunTimes, python: RunTimes): string {
  const pairRatios = besideRatios(skrya, python);
  const cores = (figures: RunTimes) => formatNumber(figures.medianCpuMs / figures.medianWallMs);
  const why = [`by ${formatNumber(median(pairRatios) - 1)}×: rank spent ${formatNumber(skrya.medianCpuMs / python.medianCpuMs)}× the yardstick's CPU (${seconds(skrya.medianCpuMs)} against ${seconds(python.medianCpuMs)}) and spread it over ${cores(skrya)} cores to the yardstick's ${cores(python)}`];
  const yardstickWalls = python.runs.map((run) => run.wallMs);
  const spread = Math.max(...yardstickWalls) / Math.min(...yardstickWalls);
  // Past a tenth, the runs' own spread is the machine's speed moving, not the programs.
  if (spread > 1.1) why.push(`the yardstick's own runs spread from ${seconds(Math.min(...yardstickWalls))} to ${seconds(Math.max(...yardstickWalls))} (${formatNumber(spread)}×) and the pairs from ${formatNumber(Math.min(...pairRatios))}× to ${formatNumber(Math.max(...pairRatios))}×: the machine's speed moved between runs`);
  return why.join('; ');
}

function rankRows(rank: RankFigures, pageFaultUs: number | null): Row[] {
  const { skrya, python } = rank;
  const alone = skrya.phases.written - skrya.phases.read;
  const pairRatios = besideRatios(skrya, python);
  const pairMedian = median(pairRatios);
  const input = `${formatNumber(rank.lines)} generated results (${formatNumber(rank.inputMb)} MB, ${Math.round(rank.duplicateShare * 100)} % URL-variant copies, ${formatNumber(rank.trueDocuments)} true documents)`;
  const shortfalls = [
    skrya.medianWallMs > RANK_AIM.wallMs ? `by ${seconds(skrya.medianWallMs - RANK_AIM.wallMs)} of wall (it had ${formatNumber(skrya.medianCpuMs / skrya.medianWallMs)} of a core: ${seconds(skrya.medianCpuMs)} of CPU; after reading, the ranking thread worked ${seconds(alone)} alone, one core idle)` : '',
    skrya.medianPeakRssMb > RANK_AIM.peakRssMb ? `by ${formatNumber(skrya.medianPeakRssMb - RANK_AIM.peakRssMb)} MB of RSS` : '',
    skrya.documents !== rank.trueDocuments ? `left ${formatNumber(skrya.documents)} documents, not ${formatNumber(rank.trueDocuments)}` : '',
  ].filter(Boolean);
  return [
    [`\`${skrya.command}\` on ${input}`, `${processFigure(skrya)}; ${formatNumber(skrya.documents)} documents left`, `≤ ${seconds(RANK_AIM.wallMs)}, ≤ ${RANK_AIM.peakRssMb} MB, all ${formatNumber(rank.trueDocuments)} documents`, shortfalls.length === 0 ? met(true) : `${met(false)} ${shortfalls.join('; ')}`],
    [`  ${skrya.command}: its phases (\`--timings\`, medians of the runs)`, rankPhasesFigure(skrya), '', ''],
    [`  ${skrya.command}: CPU by thread, each read every 50 ms (main: the ranking thread, and the launcher before it replaced itself with node started with rank's flags; workers: the reading threads)`, threadCpuFigure(skrya), '', ''],
    [`  ${skrya.command} alone on ${formatNumber(rank.smaller.lines)} results of the same kind`, smallerFigure(rank), '', ''],
    [`  ${python.command}, same file`, `${processFigure(python)}; ${formatNumber(python.documents)} documents left`, '', ''],
    ['  skrya rank / Python yardstick', `${formatNumber(skrya.medianWallMs / python.medianWallMs)}× the wall time (run beside run: ${pairRatios.map(formatNumber).join(' / ')}×, median ${formatNumber(pairMedian)}×), ${formatNumber(skrya.medianCpuMs / python.medianCpuMs)}× the CPU, ${formatNumber(skrya.medianPeakRssMb / python.medianPeakRssMb)}× the memory (rank also validates every result and matches near-duplicates, the yardstick does neither); first touches of memory: ${faultCosts(skrya, python, pageFaultUs)}`, '< 1× wall', pairMedian < 1 ? met(true) : `${met(false)} ${yardstickShortfall(skrya, python)}`],
  ];
}

export function renderTable(results: BenchResults): string {
  const rows: Row[] = [];
  const { cli, rank, kernels, scorer, collector, pipeline, latency, replay } = results;
  if (cli) rows.push(...cliRows(cli));
  if (rank) rows.push(...rankRows(rank, results.machine.pageFaultUs));
  const cores = results.machine.cpus;
  if (scorer) rows.push(...stageRows('scorer', 'raw-results messages, 10 results each', scorer, cores));
  if (collector) rows.push(...stageRows('collector', 'scored-results messages', collector, cores));
  if (pipeline) {
    rows.push(['whole pipeline: raw-results → files (scorer + collector + sink, one process)', `${formatNumber(pipeline.itemsPerSecond)} items/s (${formatNumber(pipeline.items)} items in ${formatNumber(pipeline.seconds)} s; first file after ${formatNumber(pipeline.firstFileAfterMs)} ms; event loop busy ${percent(pipeline.busy)}, CPU ${formatNumber(pipeline.cpuShare)} s/s)`, '', '']);
  }
  if (latency) {
    for (const level of latency.levels) {
      rows.push([`end-to-end latency at ${formatNumber(level.targetItemsPerSecond)} items/s for ${level.seconds} s`, `p50 ${formatNumber(level.p50Ms)} ms, p99 ${formatNumber(level.p99Ms)} ms, max ${formatNumber(level.maxMs)} ms; ${level.completedRuns}/${level.runs} runs, achieved ${formatNumber(level.achievedItemsPerSecond)} items/s; event loop busy ${percent(level.eventLoopBusy)}, CPU ${formatNumber(level.cpuShare)} s/s, the machine's cores ${percent(level.machineBusy)} busy`, 'p99 < 1 s', met(level.sustained)]);
    }
    const highest = latency.highestSustainedItemsPerSecond;
    const atAim = latency.levels.find((level) => level.targetItemsPerSecond === LATENCY_AIM_ITEMS_PER_SECOND);
    const reached = highest !== null && highest >= LATENCY_AIM_ITEMS_PER_SECOND;
    const why = atAim === undefined ? '' : ` by ${formatNumber(LATENCY_AIM_ITEMS_PER_SECOND - (highest ?? 0))} items/s: at ${formatNumber(LATENCY_AIM_ITEMS_PER_SECOND)} items/s p99 was ${formatNumber(atAim.p99Ms)} ms and ${formatNumber(atAim.achievedItemsPerSecond)} items/s got through (${atAim.completedRuns}/${atAim.runs} runs): ${latencyLimit(atAim, cores)}`;
    rows.push(['highest rate sustained with p99 < 1 s', highest === null ? 'none of the rates tried' : `${formatNumber(highest)} items/s`, `${formatNumber(LATENCY_AIM_ITEMS_PER_SECOND)} items/s`, reached ? met(true) : `${met(false)}${why}`]);
  }
  if (replay) {
    // RSS is the whole bench process's: sections run before the replay leave their memory behind, so heap used says what the replay holds.
    const memory = `(the bench process's; earlier sections' memory included) ${replay.memory.map((sample) => `${formatNumber(sample.items / 1000)}k: ${formatNumber(sample.rssMb)} MB`).join(', ')}; heap used ${replay.memory.map((sample) => `${formatNumber(sample.items / 1000)}k: ${formatNumber(sample.heapUsedMb)} MB`).join(', ')}`;
    const flat = replayMemoryFlat(replay) && replay.runsWritten === replay.runs;
    const fastEnough = replay.itemsPerSecond >= REPLAY_AIM_ITEMS_PER_SECOND;
    const replayWhy = [
      fastEnough ? '' : `by ${formatNumber(REPLAY_AIM_ITEMS_PER_SECOND - replay.itemsPerSecond)} items/s: ${formatNumber((replay.cpuShare / replay.itemsPerSecond) * 1e6)} µs of CPU an item (the aim allows ${formatNumber((1e6 * replay.cores) / REPLAY_AIM_ITEMS_PER_SECOND)} over ${formatNumber(replay.cores)} core(s)), scoring shared by ${formatNumber(replay.scoringWorkers)} worker thread(s) and the event loop, which also collects and writes${replay.cpuShare < 0.9 * replay.cores ? `, and it got only ${formatNumber(replay.cpuShare)} CPU s/s` : ''}`,
      flat ? '' : 'RSS grew more than 25 % after the first quarter, or runs were not all written',
    ].filter(Boolean).join('; ');
    rows.push([`replay on its real path (Avro records → scorer → collector → sink files; the broker read left out), ${formatNumber(replay.rawItems)} raw items, ${formatNumber(replay.runs)} runs`, `${formatNumber(replay.itemsPerSecond)} items/s (CPU ${formatNumber(replay.cpuShare)} s/s); by quarter ${replayQuarterRates(replay).map((rate) => formatNumber(rate)).join(' / ')} items/s (V8 compiles the code in the first); RSS ${memory}`, `≥ ${formatNumber(REPLAY_AIM_ITEMS_PER_SECOND)} items/s, RSS flat`, flat && fastEnough ? met(true) : `${met(false)} ${replayWhy}`]);
    if (replay.cold.length > 0) {
      const cold = replay.cold.map((entry) => `${formatNumber(entry.rawItems)} items: ${formatNumber(entry.withWorkersMs)} ms with ${formatNumber(replay.scoringWorkers)} worker(s), ${formatNumber(entry.onEventLoopMs)} ms on the event loop alone (${formatNumber(entry.withWorkersMs / entry.onEventLoopMs)}×)`).join('; ');
      rows.push(['  replay from a cold start: the clock starts with the scoring workers, which load while the event loop scores (median of 3, alternating)', cold, '', '']);
    }
  }
  if (results.scaleOut) rows.push(...scaleOutRows(results.scaleOut));
  if (results.fleet) rows.push(...fleetRows(results.fleet));
  if (results.fleetSoak) rows.push(...steadyRows(results.fleetSoak));
  if (kernels) {
    for (const [name, avro] of Object.entries(kernels.avro)) {
      rows.push([`Avro ${name}, ${formatNumber(avro.bytes)} B`, `serde encode ${formatNumber(avro.serdeEncode.median)}/s, decode ${formatNumber(avro.serdeDecode.median)}/s; bare avsc encode ${formatNumber(avro.avscEncode.median)}/s, decode ${formatNumber(avro.avscDecode.median)}/s`, '', '']);
      rows.push([`  decode's parts (${name})`, `reader type rebuilt per call (the registry client's decode with a reader schema; serde's path before 9f0478e) ${formatNumber(avro.readerTypePerCall.median)}/s, zod contract ${formatNumber(avro.zodContract.median)}/s, avsc with a cached resolver ${formatNumber(avro.avscDecodeCachedResolver.median)}/s`, '', '']);
    }
    rows.push(['canonicalUrl', `${formatNumber(kernels.canonicalUrl.median)} ops/s`, '', '']);
    const { screenRulesOnly, screenModelOnly, classifyQuery } = kernels.classifiers;
    rows.push([`screenItem on ${formatNumber(kernels.screenItem.itemChars)}-char items, one core`, `${formatNumber(kernels.screenItem.median)} items/s`, `≥ ${formatNumber(SCREEN_AIM_ITEMS_PER_SECOND)} items/s`, screenVerdict(kernels.screenItem.median, screenRulesOnly.median, screenModelOnly.median)]);
    rows.push([`  of which: rules alone / learned model alone (${formatNumber(kernels.screenItem.itemChars)}-char items)`, `${formatNumber(screenRulesOnly.median)} / ${formatNumber(screenModelOnly.median)} items/s`, '', '']);
    rows.push([`classifyQuery warm (rules + learned model + expansion), ${formatNumber(classifyQuery.queries)} test-split queries`, `${(1000 / classifyQuery.median).toFixed(3)} ms/query (${formatNumber(classifyQuery.median)}/s)`, `≤ ${CLASSIFY_QUERY_AIM_MS} ms/query`, classifyQueryVerdict(1000 / classifyQuery.median)]);
    rows.push(['scoreItem (one-off: builds a request scorer each call)', `${formatNumber(kernels.scoreItem.median)} ops/s`, '', '']);
    rows.push(['createItemScorer (bulk: query prepared once)', `${formatNumber(kernels.itemScorerBulk.median)} ops/s`, '', '']);
    rows.push([`dedupeItems on ${formatNumber(kernels.dedupeItems.items)} items`, `${formatNumber(kernels.dedupeItems.median)} items/s (${formatNumber(kernels.dedupeItems.clusters)} clusters)`, '', '']);
    rows.push(...scorerStepRows(kernels.scorerSteps, scorer, cores));
  }
  for (const [section, error] of Object.entries(results.errors)) rows.push([`${section}: failed`, error.replace(/\|/g, '\\|').replace(/\n/g, ' '), '', '**failed**']);

  const machine = results.machine;
  const header = [
    `# Skrya bench, ${results.startedAt}`,
    '',
    `${machine.cpus} × ${machine.cpuModel}, ${formatNumber(machine.totalMemoryMb / 1024)} GB, Node ${machine.node}, ${machine.platform}. Load average at start ${machine.loadAverage.join(' / ')}, at end ${results.loadAverageAtEnd.join(' / ')} (1/5/15 min; anything else running skews every figure). ${machine.pageFaultUs === null ? `What a minor page fault costs could not be probed here: ${NOT_PROBED}.` : `A minor page fault (the first touch of a fresh 4 KB page) costs ${formatNumber(machine.pageFaultUs)} µs here (well under 1 µs on most Linux machines; every MB a process first touches costs 256 of them).`} Took ${formatNumber(results.durationSeconds)} s. Local Kafka and registry on loopback.`,
    '',
    '| benchmark | figure | aim | |',
    '|---|---|---|---|',
  ];
  return [...header, ...rows.map((row) => `| ${row.join(' | ')} |`)].join('\n') + '\n';
}

const monitorsText = (monitors: BurstFigures['monitors']) => monitors.map((monitor) => `${formatNumber(monitor.peakRssMb)} MB peak`).join(', ');
const errorCount = (monitors: BurstFigures['monitors']) => monitors.reduce((sum, monitor) => sum + monitor.errorLines, 0);

function burstRows(burst: BurstFigures): Row[] {
  const who = `${burst.processes} monitor${burst.processes > 1 ? 's' : ''}, ${formatNumber(burst.topics)} topics`;
  const late = burst.configsLateSeconds > 0 ? ` (configs still being published ${formatNumber(burst.configsLateSeconds)} s after the burst instant)` : '';
  const rows: Row[] = [];
  if (burst.scenario === 'burst-kill' && burst.kill) {
    const { verdict, committedAtKill } = burst.kill;
    const exact = verdict.firedOnce === verdict.expected && verdict.unexpected.length === 0;
    rows.push([`fleet burst, ${who}, one SIGKILLed at ${formatNumber(committedAtKill)} committed`, `${formatNumber(verdict.firedOnce)}/${formatNumber(verdict.expected)} fired exactly once (${verdict.missing.length} missing, ${verdict.duplicated.length} twice, ${verdict.unexpected.length} unexpected); all emitted ${formatNumber(burst.allEmittedSeconds)} s after due, p99 ${formatNumber(burst.p99Ms)} ms`, 'exactly once', met(exact)]);
    return rows;
  }
  rows.push([`fleet burst, ${who} due at once`, `all emitted ${formatNumber(burst.allEmittedSeconds)} s after due${late}; ${formatNumber(burst.requestsPerSecond)} requests/s; due → emitted p50 ${formatNumber(burst.p50Ms / 1000)} s, p99 ${formatNumber(burst.p99Ms / 1000)} s`, `≤ ${FLEET_AIMS.burstSeconds} s`, met(burst.allEmittedSeconds <= FLEET_AIMS.burstSeconds)]);
  if (burst.idle) rows.push([`  idle, nothing due (${who})`, `${formatNumber(burst.idle.cpuShareOfCore * 100)} % of one core in all, the busiest process ${formatNumber(burst.idle.busiestProcessShare * 100)} % (${burst.idle.seconds} s)`, `≤ ${FLEET_AIMS.idleCpuShare * 100} % a process`, met(burst.idle.busiestProcessShare <= FLEET_AIMS.idleCpuShare)]);
  const peak = Math.max(...burst.monitors.map((monitor) => monitor.peakRssMb));
  rows.push([`  monitor memory (${who})`, monitorsText(burst.monitors), `≤ ${FLEET_AIMS.memoryMb} MB each`, met(peak <= FLEET_AIMS.memoryMb)]);
  rows.push([`  error-level log lines (${who}, clean run)`, formatNumber(errorCount(burst.monitors)), '0', met(errorCount(burst.monitors) === 0)]);
  return rows;
}

function steadyRows(steady: SteadyFigures): Row[] {
  const who = `${steady.processes} monitor${steady.processes > 1 ? 's' : ''}, ${formatNumber(steady.topics)} topics at ${formatNumber(steady.configuredRunsPerDay)} runs/day`;
  const memory = steady.rssMbByMinute.length > 1 ? `; RSS by minute ${steady.rssMbByMinute.map((mb) => formatNumber(mb)).join(', ')} MB` : '';
  return [[
    `fleet ${steady.scenario}, ${who}, ${formatNumber(steady.windowSeconds)} s once the configs were read (${formatNumber(steady.loadedSeconds)} s after publishing)`,
    `${formatNumber(steady.firedInWindow)}/${formatNumber(steady.dueInWindow)} due fired; due → emitted p50 ${formatNumber(steady.p50Ms)} ms, p99 ${formatNumber(steady.p99Ms)} ms, max ${formatNumber(steady.maxMs)} ms; ${monitorsText(steady.monitors)}; ${formatNumber(errorCount(steady.monitors))} error lines${memory}`,
    `p99 ≤ ${FLEET_AIMS.steadyP99Ms / 1000} s`,
    met(steady.p99Ms <= FLEET_AIMS.steadyP99Ms && steady.firedInWindow >= steady.dueInWindow),
  ]];
}

/** One row per process count: the whole group's rate, then each instance's outcomes/s and partitions, measured in the same window. */
function scaleOutRows(scaleOut: ScaleOutFigures): Row[] {
  const single = scaleOut.scenarios.find((scenario) => scenario.processes === 1);
  return scaleOut.scenarios.map((scenario) => {
    const instances = scenario.perInstance.map((instance) => `${formatNumber(instance.outcomesPerSecond)} (${instance.partitions} p)`).join(', ');
    const versusOne = single && scenario.processes > 1 ? `; ${formatNumber(scenario.usefulOutcomesPerSecond / single.usefulOutcomesPerSecond)}× the single process` : '';
    const redone = scenario.outcomes - scenario.expectedOutcomes;
    return [
      `scale-out: ${scenario.processes} scorer process${scenario.processes === 1 ? '' : 'es'} on ${scaleOut.partitions} partitions, ${formatNumber(scenario.rawMessages)} raw messages`,
      `${formatNumber(scenario.usefulOutcomesPerSecond)} outcomes/s of input over ${formatNumber(scenario.seconds)} s${versusOne}; ${formatNumber(redone)} redone after ${scenario.rejoins} rejoin(s) during the run; per instance (redone work included): ${instances}`,
      '',
      '',
    ];
  });
}

function fleetRows(fleet: FleetFigures): Row[] {
  const costs = fleet.tickCosts;
  const rows: Row[] = [[
    `monitor tick, in-process, ${formatNumber(costs.topics)} topics loaded (no Kafka)`,
    `nothing due: ${formatNumber(costs.idleTickMicros)} µs a tick (the file-reading monitor: about 0.46 ms a topic, ${formatNumber((costs.topics * 0.46) / 1000)} s); all due: ${formatNumber(costs.dueMicrosPerTopic)} µs a topic to build request + state; ${formatNumber(costs.heapBytesPerTopic)} B of heap a topic`,
    'O(due), not O(topics)',
    '',
  ]];
  for (const burst of fleet.bursts) rows.push(...burstRows(burst));
  for (const steady of fleet.steady) rows.push(...steadyRows(steady));
  return rows;
}

/** Items/s between consecutive memory samples (taken at 0, 25, 50, 75 and 100 % of the runs). */
function replayQuarterRates(replay: ReplayFigures): number[] {
  return replay.memory.slice(1).map((sample, index) => {
    const before = replay.memory[index]!;
    return (1000 * (sample.items - before.items)) / Math.max(1, sample.elapsedMs - before.elapsedMs);
  });
}

/** Flat: RSS at the end at most 25 % above RSS after the first quarter (once code and pools are warm). */
function replayMemoryFlat(replay: ReplayFigures): boolean {
  const warm = replay.memory[1];
  const last = replay.memory.at(-1);
  if (!warm || !last) return false;
  return last.rssMb <= warm.rssMb * 1.25;
}
