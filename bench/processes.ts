/**
 * Whole-process figures, as a user meets them: CLI start-up (`skrya --help`, `skrya classify`)
 * against a bare `node -e 0`, and `skrya rank` on 100,000 generated provider results against the
 * Python yardstick on the same file. Each run is a fresh process measured by child_usage.py (wall,
 * CPU, peak RSS, minor page faults); the commands alternate run by run, so load on the machine hits them alike.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { median, round } from './measure.ts';
import { generateRankInput } from './rank-input.ts';

const run = promisify(execFile);
const BENCH_DIRECTORY = path.dirname(new URL(import.meta.url).pathname);
const SKRYA = path.join(BENCH_DIRECTORY, '..', 'bin', 'skrya.js');

interface ProcessRun {
  exitCode: number;
  wallMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** Pages of memory the process (and any child it started) touched for the first time. */
  minorFaults: number;
  /** CPU by kind of thread, read from /proc as it ran (child_usage.py): a little under cpuMs. */
  threadCpuMs: ThreadCpu;
  stderrTail: string;
}

/** CPU of the main threads, Node's worker threads, V8's helper threads (compilers, garbage collector) and the rest. */
export interface ThreadCpu {
  main: number;
  workers: number;
  v8Helpers: number;
  other: number;
}

export interface ProcessFigures {
  command: string;
  runs: ProcessRun[];
  medianWallMs: number;
  medianCpuMs: number;
  medianPeakRssMb: number;
  medianMinorFaults: number;
  medianThreadCpuMs: ThreadCpu;
}

async function measureOnce(command: readonly string[], stdoutFile: string): Promise<ProcessRun> {
  const { stdout } = await run('python3', [path.join(BENCH_DIRECTORY, 'child_usage.py'), stdoutFile, ...command], { maxBuffer: 1 << 20 });
  const measured = JSON.parse(stdout) as ProcessRun;
  if (measured.exitCode !== 0) throw new Error(`${command.join(' ')} exited ${measured.exitCode}: ${measured.stderrTail}`);
  return measured;
}

function medianThreadCpu(runs: readonly ProcessRun[]): ThreadCpu {
  const of = (kind: keyof ThreadCpu) => round(median(runs.map((entry) => entry.threadCpuMs[kind])), 1);
  return { main: of('main'), workers: of('workers'), v8Helpers: of('v8Helpers'), other: of('other') };
}

function summarize(label: string, runs: ProcessRun[]): ProcessFigures {
  return {
    command: label,
    runs,
    medianWallMs: round(median(runs.map((entry) => entry.wallMs)), 1),
    medianCpuMs: round(median(runs.map((entry) => entry.cpuMs)), 1),
    medianPeakRssMb: round(median(runs.map((entry) => entry.peakRssMb)), 1),
    medianMinorFaults: median(runs.map((entry) => entry.minorFaults)),
    medianThreadCpuMs: medianThreadCpu(runs),
  };
}

/** Each command `repetitions` times, interleaved; with warmUp, after one untimed run of each (fills the compile cache). */
async function measureInterleaved(commands: ReadonlyArray<{ label: string; argv: string[]; stdoutFile?: string }>, repetitions: number, warmUp: boolean): Promise<ProcessFigures[]> {
  if (warmUp) for (const command of commands) await measureOnce(command.argv, command.stdoutFile ?? '-');
  const runs = commands.map(() => [] as ProcessRun[]);
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const [index, command] of commands.entries()) runs[index]!.push(await measureOnce(command.argv, command.stdoutFile ?? '-'));
  }
  return commands.map((command, index) => summarize(command.label, runs[index]!));
}

export interface CliStartFigures {
  bareNode: ProcessFigures;
  help: ProcessFigures;
  classify: ProcessFigures;
}

export const CLASSIFY_QUERY = 'kafka 4.1 release notes';

export async function benchCliStart(options: { repetitions: number }): Promise<CliStartFigures> {
  const node = process.execPath;
  const [bareNode, help, classify] = await measureInterleaved([
    { label: 'node -e 0', argv: [node, '-e', '0'] },
    { label: 'skrya --help', argv: [node, SKRYA, '--help'] },
    { label: `skrya classify "${CLASSIFY_QUERY}"`, argv: [node, SKRYA, 'classify', CLASSIFY_QUERY] },
  ], options.repetitions, true);
  return { bareNode: bareNode!, help: help!, classify: classify! };
}

/** When each of a rank's phases ended, ms since its process started (`skrya rank --timings`), medians of the runs. */
export interface RankPhases {
  started: number;
  firstBatch: number;
  read: number;
  ranked: number;
  written: number;
}

const TIMINGS_LINE = /started (\d+), first batch read (\d+), all read (\d+), ranked (\d+), written (\d+);/;

function rankPhases(runs: readonly ProcessRun[]): RankPhases {
  const each = runs.map((entry) => {
    const found = TIMINGS_LINE.exec(entry.stderrTail);
    if (found === null) throw new Error(`skrya rank printed no timings line: ${entry.stderrTail}`);
    return found.slice(1).map(Number);
  });
  const at = (index: number) => median(each.map((phases) => phases[index]!));
  return { started: at(0), firstBatch: at(1), read: at(2), ranked: at(3), written: at(4) };
}

/** skrya rank's runs on one file: their figures, the documents its output left, and its phases. */
export type RankRun = ProcessFigures & { documents: number; phases: RankPhases };

export interface RankFigures {
  lines: number;
  duplicateShare: number;
  trueDocuments: number;
  inputMb: number;
  skrya: RankRun;
  python: ProcessFigures & { documents: number };
  /** skrya rank alone on a smaller file of the same kind, whose ranking phase has its own costs (see benchRank). */
  smaller: { lines: number; trueDocuments: number; skrya: RankRun };
}

const WINDOW_END = '2026-11-30T00:00:00Z';
const RANK_QUERY = 'kafka release';

function countLines(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  let lines = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}

const DUPLICATE_SHARE = 0.3;

/** A generated rank input in `directory`, and `skrya rank --timings` on it as a measured command. */
function rankInputFile(directory: string, lines: number) {
  const input = generateRankInput({ lines, duplicateShare: DUPLICATE_SHARE });
  const inputFile = path.join(directory, `results-${lines}.jsonl`);
  fs.writeFileSync(inputFile, input.text);
  const skryaOut = path.join(directory, `skrya-${lines}.jsonl`);
  const command = { label: `skrya rank --intent status --query "${RANK_QUERY}"`, argv: [process.execPath, SKRYA, 'rank', '--jsonl', inputFile, '--intent', 'status', '--query', RANK_QUERY, '--window-end', WINDOW_END, '--timings'], stdoutFile: skryaOut };
  return { input, inputFile, command, skryaFigures: (figures: ProcessFigures): RankRun => ({ ...figures, documents: countLines(skryaOut), phases: rankPhases(figures.runs) }) };
}

/**
 * `lines` results against the yardstick, then skrya rank alone on `smallerLines`: at 20,000 of the
 * generator's results a typical word is in a few dozen of them, under dedupe's word-overlap index
 * limit, and its lookups cost that run's ranking phase more than 100,000 results' (session 36).
 */
export async function benchRank(options: { lines: number; repetitions: number; smallerLines: number; smallerRepetitions: number }): Promise<RankFigures> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-bench-rank-'));
  try {
    const full = rankInputFile(directory, options.lines);
    const pythonOut = path.join(directory, 'python.jsonl');
    const [skrya, python] = await measureInterleaved([
      full.command,
      { label: 'python3 bench/rank_yardstick.py (score + URL dedupe)', argv: ['python3', path.join(BENCH_DIRECTORY, 'rank_yardstick.py'), full.inputFile, RANK_QUERY, WINDOW_END], stdoutFile: pythonOut },
      // No warm-up: the CLI section has filled the compile cache, and start-up is a sliver of a rank.
    ], options.repetitions, false);
    const smaller = rankInputFile(directory, options.smallerLines);
    const [smallerSkrya] = await measureInterleaved([smaller.command], options.smallerRepetitions, false);
    return {
      lines: full.input.lines,
      duplicateShare: DUPLICATE_SHARE,
      trueDocuments: full.input.trueDocuments,
      inputMb: round(full.input.text.length / 1048576, 1),
      skrya: full.skryaFigures(skrya!),
      python: { ...python!, documents: countLines(pythonOut) },
      smaller: { lines: smaller.input.lines, trueDocuments: smaller.input.trueDocuments, skrya: smaller.skryaFigures(smallerSkrya!) },
    };
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
