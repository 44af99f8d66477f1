/**
 * `npm run bench [-- --only=cli,rank,kernels,scorer,collector,pipeline,latency,replay] [--runs=N]
 * [--collector-copies=N] [--stage-rounds=N] [--rates=100,250,...] [--latency-seconds=N] [--replay-items=N]
 * [--cli-runs=N] [--rank-lines=N] [--rank-runs=N] [--scale-out-processes=1,8]`
 *
 * Runs every benchmark once against the local broker and registry, writes
 * bench/results/<date>.json (every raw figure) and bench/results/<date>.md (the table), and prints
 * the table. A section that fails is reported as failed and the others still run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkryaError } from '../runtime/errors.ts';
import { benchFleet, benchFleetSteady } from './fleet.ts';
import { benchKernels } from './kernels.ts';
import { benchLatency } from './latency.ts';
import { machineInfo, round } from './measure.ts';
import { benchCliStart, benchRank } from './processes.ts';
import { benchReplay } from './replay.ts';
import { benchScaleOut } from './scale-out.ts';
import { renderTable, type BenchResults } from './report.ts';
import { benchCollectorAlone, benchScorerAlone, benchWholePipeline } from './stages.ts';

const SECTIONS = ['cli', 'rank', 'kernels', 'scorer', 'collector', 'pipeline', 'latency', 'replay', 'scale-out', 'fleet', 'fleet-soak'] as const;
/** Sections that run only when named in --only (long, and heavy on a shared machine). */
const ON_REQUEST: readonly Section[] = ['scale-out', 'fleet', 'fleet-soak'];
type Section = (typeof SECTIONS)[number];

interface BenchOptions {
  only: Section[];
  /** Runs of two provider responses (20 items) for the scorer, collector and pipeline benchmarks. */
  runs: number;
  collectorCopies: number;
  /** Rounds of passthrough and stage windows behind the scorer and collector ratios. */
  stageRounds: number;
  rates: number[];
  latencySeconds: number;
  replayItems: number;
  /** Whole-process runs of each CLI command (after one untimed run). */
  cliRuns: number;
  rankLines: number;
  rankRuns: number;
  /** The smaller rank file's lines, and its runs (skrya rank alone). */
  rankSmallerLines: number;
  rankSmallerRuns: number;
  fleetTenants: number;
  fleetTopics: number;
  fleetProcesses: number[];
  fleetSteadySeconds: number;
  fleetSoakMinutes: number;
  /** Scorer processes on 12 partitions, one scenario each (scale-out). */
  scaleOutProcesses: number[];
}

const DEFAULTS: BenchOptions = {
  only: SECTIONS.filter((section) => !ON_REQUEST.includes(section)),
  // 1,500 raw-results messages: the passthrough's window is about a second, not 0.1–0.2 s, in which
  // joining the group, the first fetch and the 20 ms poll of the output were most of the figure.
  runs: 500,
  collectorCopies: 2,
  stageRounds: 5,
  rates: [100, 250, 500, 1_000, 2_000],
  latencySeconds: 15,
  // Long enough that V8 compiling the replay's code (the first 10,000 items ran at about 0.7 of the
  // rate of the next) is a quarter of it, as it is a sliver of a real replay's days of runs.
  replayItems: 40_000,
  cliRuns: 7,
  rankLines: 100_000,
  rankRuns: 5,
  rankSmallerLines: 20_000,
  rankSmallerRuns: 3,
  // The fleet: 100,000 topics across 1,000 tenants, on 1 and 3 monitor processes.
  fleetTenants: 1_000,
  fleetTopics: 100,
  fleetProcesses: [1, 3],
  fleetSteadySeconds: 120,
  fleetSoakMinutes: 30,
  // One process as the yardstick, and the scale-out test's 8 on 12 partitions.
  scaleOutProcesses: [1, 8],
};
const OPTION_NAMES = 'only, runs, collector-copies, stage-rounds, rates, latency-seconds, replay-items, cli-runs, rank-lines, rank-runs, fleet-tenants, fleet-topics, fleet-processes, fleet-steady-seconds, fleet-soak-minutes, scale-out-processes';

function positiveInteger(name: string, text: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new SkryaError('INVALID_INPUT', `--${name} must be a positive integer, got ${JSON.stringify(text)}`);
  return value;
}

export function parseOptions(argv: readonly string[]): BenchOptions {
  const options = { ...DEFAULTS };
  for (const argument of argv) {
    const match = /^--([a-z-]+)=(.*)$/.exec(argument);
    if (!match) throw new SkryaError('INVALID_INPUT', `unknown argument ${JSON.stringify(argument)}; use --name=value (${OPTION_NAMES})`);
    const [, name, value] = match as unknown as [string, string, string];
    switch (name) {
      case 'only': {
        const sections = value.split(',').filter(Boolean);
        const unknown = sections.filter((section) => !(SECTIONS as readonly string[]).includes(section));
        if (unknown.length > 0 || sections.length === 0) throw new SkryaError('INVALID_INPUT', `--only takes a comma-separated list of ${SECTIONS.join(', ')}; got ${JSON.stringify(value)}`);
        options.only = sections as Section[];
        break;
      }
      case 'runs':
        options.runs = positiveInteger(name, value);
        break;
      case 'collector-copies':
        options.collectorCopies = positiveInteger(name, value);
        break;
      case 'stage-rounds':
        options.stageRounds = positiveInteger(name, value);
        break;
      case 'rates':
        options.rates = value.split(',').map((rate) => positiveInteger(name, rate));
        break;
      case 'latency-seconds':
        options.latencySeconds = positiveInteger(name, value);
        break;
      case 'replay-items':
        options.replayItems = positiveInteger(name, value);
        break;
      case 'cli-runs':
        options.cliRuns = positiveInteger(name, value);
        break;
      case 'rank-lines':
        options.rankLines = positiveInteger(name, value);
        break;
      case 'rank-runs':
        options.rankRuns = positiveInteger(name, value);
        break;
      case 'rank-smaller-lines':
        options.rankSmallerLines = positiveInteger(name, value);
        break;
      case 'rank-smaller-runs':
        options.rankSmallerRuns = positiveInteger(name, value);
        break;
      case 'fleet-tenants':
        options.fleetTenants = positiveInteger(name, value);
        break;
      case 'fleet-topics':
        options.fleetTopics = positiveInteger(name, value);
        break;
      case 'fleet-processes':
        options.fleetProcesses = value.split(',').map((count) => positiveInteger(name, count));
        break;
      case 'fleet-steady-seconds':
        options.fleetSteadySeconds = positiveInteger(name, value);
        break;
      case 'scale-out-processes':
        options.scaleOutProcesses = value.split(',').map((count) => positiveInteger(name, count));
        break;
      case 'fleet-soak-minutes':
        options.fleetSoakMinutes = positiveInteger(name, value);
        break;
      default:
        throw new SkryaError('INVALID_INPUT', `unknown option --${name}; known: ${OPTION_NAMES}`);
    }
  }
  return options;
}

function stamp(date: Date): string {
  return date.toISOString().slice(0, 16).replace(':', '-');
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  const started = new Date();
  const startedMs = performance.now();
  const results: BenchResults = { startedAt: started.toISOString(), durationSeconds: 0, machine: machineInfo(), loadAverageAtEnd: [], options: { ...options }, errors: {} };
  const fleetSize = { tenants: options.fleetTenants, topicsPerTenant: options.fleetTopics };
  const stageOptions = { runs: options.runs, responsesPerRun: 2, collectorCopies: options.collectorCopies, rounds: options.stageRounds };

  const sections: Record<Section, () => Promise<void>> = {
    cli: async () => {
      results.cli = await benchCliStart({ repetitions: options.cliRuns });
    },
    rank: async () => {
      results.rank = await benchRank({ lines: options.rankLines, repetitions: options.rankRuns, smallerLines: options.rankSmallerLines, smallerRepetitions: options.rankSmallerRuns });
    },
    kernels: async () => {
      results.kernels = await benchKernels();
    },
    scorer: async () => {
      results.scorer = await benchScorerAlone(stageOptions);
    },
    collector: async () => {
      results.collector = await benchCollectorAlone(stageOptions);
    },
    pipeline: async () => {
      results.pipeline = await benchWholePipeline({ ...stageOptions, runs: Math.max(1, Math.round(options.runs / 2)) });
    },
    latency: async () => {
      results.latency = await benchLatency({ ratesItemsPerSecond: options.rates, seconds: options.latencySeconds, drainMs: 10_000 });
    },
    replay: async () => {
      results.replay = await benchReplay({ rawItems: options.replayItems });
    },
    'scale-out': async () => {
      results.scaleOut = await benchScaleOut({ processes: options.scaleOutProcesses, runs: options.runs });
    },
    fleet: async () => {
      results.fleet = await benchFleet(fleetSize, { processes: options.fleetProcesses, steadySeconds: options.fleetSteadySeconds, idleSeconds: 20, seed: 19 });
    },
    'fleet-soak': async () => {
      results.fleetSoak = await benchFleetSteady(fleetSize, { processes: Math.max(...options.fleetProcesses), windowSeconds: options.fleetSoakMinutes * 60, seed: 19, soak: true });
    },
  };

  for (const section of SECTIONS) {
    if (!options.only.includes(section)) continue;
    const sectionStarted = performance.now();
    process.stderr.write(`bench: ${section}…`);
    try {
      await sections[section]();
      process.stderr.write(` ${round((performance.now() - sectionStarted) / 1000, 1)} s\n`);
    } catch (error) {
      results.errors[section] = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      process.stderr.write(` failed: ${results.errors[section]}\n`);
    }
  }

  results.durationSeconds = round((performance.now() - startedMs) / 1000, 1);
  results.loadAverageAtEnd = os.loadavg().map((load) => round(load, 2));
  const table = renderTable(results);
  const directory = path.resolve('bench/results');
  fs.mkdirSync(directory, { recursive: true });
  const base = path.join(directory, stamp(started));
  fs.writeFileSync(`${base}.json`, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(`${base}.md`, table);
  process.stdout.write(`\n${table}\nwrote ${path.relative(process.cwd(), base)}.json and .md\n`);
  return Object.keys(results.errors).length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(error instanceof SkryaError && error.code === 'INVALID_INPUT' ? 2 : 1);
  },
);
