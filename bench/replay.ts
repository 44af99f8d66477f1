/**
 * Replay throughput and memory on the real replay path (`createReplayStages`, what `skrya replay`
 * runs for every record it reads): Avro raw-results records through the registry serde, the scorer,
 * the collector (every value over the wire between them) and the sink writing each run's files.
 * Only the broker read is left out: `readTimeRange` streams batches, so it adds no memory that
 * grows with the range. One topic, as a replay reads; a pool of generated runs is reused under
 * new run ids (nothing is cached between runs, so repeated text costs the same). RSS is sampled at
 * 0, 25, 50, 75 and 100 %.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../runtime/config.ts';
import { createRegistry } from '../runtime/kafka.ts';
import { createLogger } from '../runtime/logger.ts';
import { createSerde, type Serde } from '../runtime/serde.ts';
import { createReplayStages } from '../services/replay/replay-stages.ts';
import { createScorePool } from '../services/scorer/index.ts';
import type { ResponseMessage } from '../services/scorer/score-response.ts';
import { syncFilesUnder } from '../services/sink/index.ts';
import { TOPIC_NAMES, valueSubject } from '../topics/topics.ts';
import { deleteSubjects } from './kafka-bench.ts';
import { cpuShareSince, median, memorySample, round, type MemorySample } from './measure.ts';
import { generateRun, type GeneratedRun } from './payloads.ts';
import { parseRunId } from '../runtime/ids.ts';

export const POOL_RUNS = 100;
const RESPONSES_PER_RUN = 2;

export interface ReplayFigures {
  rawItems: number;
  runs: number;
  runsWritten: number;
  seconds: number;
  itemsPerSecond: number;
  /** CPU seconds per wall second: under `cores` means other processes took part of them, or a thread waited. */
  cpuShare: number;
  /** Cores the replay can keep busy at once: the event loop and the scoring workers, at most the machine's. */
  cores: number;
  scoringWorkers: number;
  memory: MemorySample[];
  /** Replays timed from a cold start, the workers starting with them, as `skrya replay` starts them. */
  cold: ColdReplay[];
}

export interface ColdReplay {
  rawItems: number;
  /** Median wall time (ms) from starting the workers (none: 0) to the last run written. */
  withWorkersMs: number;
  onEventLoopMs: number;
}

/** Replay sizes timed from a cold start: one run, and a day's worth of runs of a busy topic. */
const COLD_RUNS = [1, 100];
const COLD_REPETITIONS = 3;

function firstResponseOf(run: GeneratedRun): ResponseMessage {
  return run.messages.find((message) => message.kind === 'RESPONSE') as ResponseMessage;
}

export async function benchReplay(options: { rawItems: number }): Promise<ReplayFigures> {
  const config = loadConfig({ ...process.env, SKRYA_TOPIC_PREFIX: `bench.replay.${randomBytes(4).toString('hex')}.` });
  const naming = { prefix: config.SKRYA_TOPIC_PREFIX };
  const serde = await createSerde({ registry: createRegistry(config), registryUrl: config.SKRYA_REGISTRY_URL, naming, topics: TOPIC_NAMES });
  const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-bench-replay-'));
  // As `skrya replay` scores: in SKRYA_SCORER_WORKERS worker threads.
  const scorePool = config.SKRYA_SCORER_WORKERS === 0 ? undefined : createScorePool(config.SKRYA_SCORER_WORKERS);
  try {
    // One topic (topicCount 1): a replay reads one topic's key. The pool's 100 request times name
    // 100 files, which later runs replace, so the disk holds the pool, not every run.
    const pool: GeneratedRun[] = Array.from({ length: POOL_RUNS }, (_unused, runIndex) => generateRun({ label: 'replay', runIndex, topicCount: 1, responsesPerRun: RESPONSES_PER_RUN }));
    const itemsPerRun = pool[0]!.items;
    const totalRuns = Math.ceil(options.rawItems / itemsPerRun);
    const stages = createReplayStages({ serde, logger: createLogger({ level: 'warn', name: 'bench-replay' }), runTimeoutMs: 600_000, targetDir, scorePool });
    // The workers load their modules before the clock starts, as this thread did its imports: the
    // figure is the replay's rate, not a worker's start-up (which `skrya replay` overlaps with connecting).
    if (scorePool) await Promise.all(Array.from({ length: scorePool.size }, () => scorePool.score(firstResponseOf(pool[0]!))));
    const checkpoints = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(share * totalRuns));
    const memory: MemorySample[] = [];
    let offset = 0;
    const started = performance.now();
    const cpuAtStart = process.cpuUsage();
    for (let runNumber = 0; runNumber <= totalRuns; runNumber++) {
      if (checkpoints.includes(runNumber)) memory.push(memorySample(runNumber * itemsPerRun, performance.now() - started));
      if (runNumber === totalRuns) break;
      const template = pool[runNumber % POOL_RUNS]!;
      const key = Buffer.from(template.key);
      for (const raw of template.messages) {
        const value = await serde.encode('raw-results', { ...raw, run_id: parseRunId(`replay-${runNumber}`) });
        await stages.push({ partition: 0, offset: String(offset++), timestamp: '0', key, value, headers: {} });
      }
    }
    const { runs } = await stages.finish();
    // As skrya replay does before swapping the folder in: the runs were written without an fsync each.
    syncFilesUnder(targetDir);
    const seconds = (performance.now() - started) / 1000;
    const cpuShare = round(cpuShareSince(cpuAtStart, seconds * 1000), 3);
    const cold = config.SKRYA_SCORER_WORKERS === 0 ? [] : await coldReplays(pool, serde, config.SKRYA_SCORER_WORKERS);
    return { rawItems: totalRuns * itemsPerRun, runs: totalRuns, runsWritten: runs.length, seconds: round(seconds, 2), itemsPerSecond: (totalRuns * itemsPerRun) / seconds, cpuShare, cores: Math.min(os.availableParallelism(), config.SKRYA_SCORER_WORKERS + 1), scoringWorkers: config.SKRYA_SCORER_WORKERS, memory, cold };
  } finally {
    await scorePool?.close();
    fs.rmSync(targetDir, { recursive: true, force: true });
    await deleteSubjects(config.SKRYA_REGISTRY_URL, TOPIC_NAMES.map((topic) => valueSubject(naming, topic)));
  }
}

/**
 * Short replays as a user starts them: the clock starts with the scoring workers (or with none),
 * so their start-up counts; with workers and on the event loop alone, alternating, the median of
 * COLD_REPETITIONS each. The records are encoded before the clock starts (the broker read is left out).
 */
async function coldReplays(pool: readonly GeneratedRun[], serde: Serde, workers: number): Promise<ColdReplay[]> {
  const figures: ColdReplay[] = [];
  for (const runCount of COLD_RUNS) {
    const records: Array<{ key: Buffer; value: Buffer }> = [];
    for (let runNumber = 0; runNumber < runCount; runNumber++) {
      const template = pool[runNumber % POOL_RUNS]!;
      for (const raw of template.messages) records.push({ key: Buffer.from(template.key), value: await serde.encode('raw-results', { ...raw, run_id: parseRunId(`cold-${runNumber}`) }) });
    }
    const timings = { withWorkers: [] as number[], onEventLoop: [] as number[] };
    for (let repetition = 0; repetition < COLD_REPETITIONS; repetition++) {
      for (const withWorkers of [true, false]) {
        const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-bench-replay-cold-'));
        const started = performance.now();
        const scorePool = withWorkers ? createScorePool(workers) : undefined;
        try {
          const stages = createReplayStages({ serde, logger: createLogger({ level: 'warn', name: 'bench-replay' }), runTimeoutMs: 600_000, targetDir, scorePool });
          let offset = 0;
          for (const { key, value } of records) await stages.push({ partition: 0, offset: String(offset++), timestamp: '0', key, value, headers: {} });
          await stages.finish();
          syncFilesUnder(targetDir);
          (withWorkers ? timings.withWorkers : timings.onEventLoop).push(performance.now() - started);
        } finally {
          await scorePool?.close();
          fs.rmSync(targetDir, { recursive: true, force: true });
        }
      }
    }
    figures.push({ rawItems: runCount * pool[0]!.items, withWorkersMs: round(median(timings.withWorkers), 0), onEventLoopMs: round(median(timings.onEventLoop), 0) });
  }
  return figures;
}
