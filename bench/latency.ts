/**
 * End-to-end latency at a steady load: runs of ten items (one provider response and its end
 * marker) produced at a fixed rate into raw-results, through scorer → collector → sink in this
 * process, until the run's latest-ingest.json is written. Latency is measured from the run's
 * scheduled send time (so a producer falling behind counts against it) to the sink's write.
 * Rates climb a ladder and stop at the first one that is not sustained.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ingestDir, LATEST_FILE } from '../runtime/data-paths.ts';
import type { Outcome } from '../runtime/handler.ts';
import { PRODUCER_CONFIG } from '../runtime/publishers.ts';
import type { RunningService } from '../runtime/runner.ts';
import { createCollector } from '../services/collector/handler.ts';
import type { Stage } from '../services/catalog.ts';
import { createLogger } from '../runtime/logger.ts';
import { createBenchContext, encodeMessages, type BenchContext, type EncodedMessage } from './kafka-bench.ts';
import { percentile, round, sleep, startProcessWindow } from './measure.ts';
import { BENCH_TENANT, RESULTS_PER_RESPONSE, generateRun } from './payloads.ts';
import { startStage, timedSink, warmScorerStage } from './stages.ts';
import { parseTenantId, parseTopicId } from '../runtime/ids.ts';

export const LATENCY_BUDGET_MS = 1_000;
const TOPICS_UNDER_LOAD = 12;

export interface LatencyLevel {
  targetItemsPerSecond: number;
  seconds: number;
  runs: number;
  completedRuns: number;
  achievedItemsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /**
   * Over the level's window (sending and draining): this process's event loop busy share (the
   * producer, scorer, collector and sink share it), its CPU s/s, and the share of all cores busy
   * (the broker's too): what says why a rate was not sustained.
   */
  eventLoopBusy: number;
  cpuShare: number;
  machineBusy: number;
  /** Every run written, p99 under the budget, and the achieved rate within 5 % of the target. */
  sustained: boolean;
}

export interface LatencyFigures {
  levels: LatencyLevel[];
  highestSustainedItemsPerSecond: number | null;
  /** latest-ingest.json of the last run's topic holds that run: the files really were written. */
  latestFileHoldsLastRun: boolean;
}

interface PreparedRun {
  runId: string;
  topicId: string;
  messages: EncodedMessage[];
}

async function prepareRuns(context: BenchContext, firstIndex: number, count: number): Promise<PreparedRun[]> {
  const prepared: PreparedRun[] = [];
  for (let index = firstIndex; index < firstIndex + count; index++) {
    const run = generateRun({ label: 'latency', runIndex: index, topicCount: TOPICS_UNDER_LOAD, responsesPerRun: 1 });
    prepared.push({ runId: run.runId, topicId: run.topicId, messages: await encodeMessages(context, 'raw-results', 'retriever', run.messages.map((value) => ({ key: run.key, value }))) });
  }
  return prepared;
}

/** Sends each run at its scheduled time; runs that fall due while a send is in flight go in the next one. */
async function sendAtRate(send: (messages: EncodedMessage[]) => Promise<void>, runs: readonly PreparedRun[], runsPerSecond: number, scheduled: Map<string, number>): Promise<void> {
  const intervalMs = 1000 / runsPerSecond;
  const started = performance.now();
  let next = 0;
  while (next < runs.length) {
    const due = Math.min(runs.length, Math.floor((performance.now() - started) / intervalMs) + 1);
    if (due <= next) {
      await sleep(Math.max(0, started + next * intervalMs - performance.now()));
      continue;
    }
    const batch = runs.slice(next, due);
    batch.forEach((run, offset) => scheduled.set(run.runId, started + (next + offset) * intervalMs));
    await send(batch.flatMap((run) => run.messages));
    next = due;
  }
}

export async function benchLatency(options: { ratesItemsPerSecond: readonly number[]; seconds: number; drainMs: number }): Promise<LatencyFigures> {
  const context = await createBenchContext('latency');
  const written = new Map<string, number>();
  const services: RunningService[] = [];
  let scoring: Stage<Outcome> | undefined;
  const producer = context.pipeline.kafka.producer(PRODUCER_CONFIG);
  const rawTopic = context.topic('raw-results');
  const send = async (messages: EncodedMessage[]) => {
    await producer.send({ topic: rawTopic, acks: -1, messages });
  };
  try {
    await producer.connect();
    services.push(await startStage(context, 'collector', createCollector({ runTimeoutMs: 600_000, logger: createLogger({ level: 'warn', name: 'bench-collector' }) })));
    services.push(await startStage(context, 'sink', timedSink((runId, at) => written.set(runId, at), context.dataRoot)));
    scoring = await warmScorerStage(context.pipeline.config);
    services.push(await startStage(context, 'scorer', scoring.handler));
    await Promise.all(services.map((service) => service.ready));

    let nextIndex = 0;
    const waitForRuns = async (runs: readonly PreparedRun[], deadline: number) => {
      while (performance.now() < deadline && !runs.every((run) => written.has(run.runId))) await sleep(10);
    };
    // Warm-up: parsers, the language model and the registry cache load on first use.
    const warmUp = await prepareRuns(context, nextIndex, 20);
    nextIndex += warmUp.length;
    await send(warmUp.flatMap((run) => run.messages));
    await waitForRuns(warmUp, performance.now() + 60_000);

    const levels: LatencyLevel[] = [];
    let lastRun: PreparedRun | null = null;
    for (const rate of options.ratesItemsPerSecond) {
      const runsPerSecond = rate / RESULTS_PER_RESPONSE;
      const runs = await prepareRuns(context, nextIndex, Math.max(1, Math.round(runsPerSecond * options.seconds)));
      nextIndex += runs.length;
      const scheduled = new Map<string, number>();
      const window = startProcessWindow();
      await sendAtRate(send, runs, runsPerSecond, scheduled);
      await waitForRuns(runs, performance.now() + options.drainMs);
      const { busy: eventLoopBusy, cpuShare, machineBusy } = window.end();
      const latencies = runs.filter((run) => written.has(run.runId)).map((run) => written.get(run.runId)! - scheduled.get(run.runId)!);
      const completed = runs.filter((run) => written.has(run.runId));
      const firstScheduled = Math.min(...scheduled.values());
      const lastWritten = Math.max(...completed.map((run) => written.get(run.runId)!));
      const achieved = completed.length === 0 ? 0 : (completed.length * RESULTS_PER_RESPONSE) / ((lastWritten - firstScheduled) / 1000);
      const p99 = percentile(latencies, 99);
      const level: LatencyLevel = {
        targetItemsPerSecond: rate,
        seconds: options.seconds,
        runs: runs.length,
        completedRuns: completed.length,
        achievedItemsPerSecond: round(achieved, 1),
        p50Ms: round(percentile(latencies, 50), 1),
        p99Ms: round(p99, 1),
        maxMs: round(Math.max(...latencies), 1),
        eventLoopBusy: round(eventLoopBusy, 3),
        cpuShare: round(cpuShare, 3),
        machineBusy: round(machineBusy, 3),
        sustained: completed.length === runs.length && p99 < LATENCY_BUDGET_MS && achieved >= rate * 0.95,
      };
      levels.push(level);
      if (completed.length > 0) lastRun = completed.at(-1)!;
      if (!level.sustained) break;
    }

    let latestFileHoldsLastRun = false;
    if (lastRun !== null) {
      const file = path.join(ingestDir(context.dataRoot, parseTenantId(BENCH_TENANT), parseTopicId(lastRun.topicId)), LATEST_FILE);
      try {
        latestFileHoldsLastRun = (JSON.parse(fs.readFileSync(file, 'utf8')) as { run_id?: string }).run_id === lastRun.runId;
      } catch {
        latestFileHoldsLastRun = false;
      }
    }
    const sustained = levels.filter((level) => level.sustained).map((level) => level.targetItemsPerSecond);
    return { levels, highestSustainedItemsPerSecond: sustained.length > 0 ? Math.max(...sustained) : null, latestFileHoldsLastRun };
  } finally {
    for (const service of services) await service.stop();
    await scoring?.close?.();
    await producer.disconnect();
    await context.close();
  }
}
