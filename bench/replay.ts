/**
 * Replay-style throughput without Kafka: raw-results messages fed straight into the scorer's
 * handler, its scored messages straight into the collector's handler, run after run, for a large
 * number of raw items. No Avro, no broker, no sink: this is the handlers' own cost and memory.
 * A pool of generated runs is reused under new run ids (the handlers' work does not get cheaper
 * for repeated text: nothing is cached between runs). RSS is sampled at 0, 25, 50, 75 and 100 %.
 */
import type { HandlerContext, IncomingMessage, Outcome } from '../runtime/runner.ts';
import type { RawResult, ScoredResult } from '../schemas/messages.ts';
import { createCollector } from '../services/collector/handler.ts';
import { createScorer } from '../services/scorer/handler.ts';
import { createLogger } from '../runtime/logger.ts';
import { cpuShareSince, memorySample, round, type MemorySample } from './measure.ts';
import { generateRun, type GeneratedRun } from './payloads.ts';

const POOL_RUNS = 100;
const RESPONSES_PER_RUN = 2;

export interface ReplayFigures {
  rawItems: number;
  runs: number;
  batches: number;
  scoredMessages: number;
  seconds: number;
  itemsPerSecond: number;
  /** CPU seconds per wall second: under 1 means other processes took part of the core. */
  cpuShare: number;
  memory: MemorySample[];
}

const noContext: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };

function message<T>(topic: 'raw-results' | 'scored-results', key: string, value: T, offset: number): IncomingMessage<T> {
  return { topic, partition: 0, offset: String(offset), key, value, headers: {}, timestamp: '0' };
}

export function benchReplay(options: { rawItems: number }): ReplayFigures {
  const pool: GeneratedRun[] = Array.from({ length: POOL_RUNS }, (_unused, runIndex) => generateRun({ label: 'replay', runIndex, topicCount: 24, responsesPerRun: RESPONSES_PER_RUN }));
  const itemsPerRun = pool[0]!.items;
  const totalRuns = Math.ceil(options.rawItems / itemsPerRun);
  const scorer = createScorer();
  const collector = createCollector({ runTimeoutMs: 600_000, logger: createLogger({ level: 'warn', name: 'bench-replay' }) });
  const checkpoints = [0, 0.25, 0.5, 0.75, 1].map((share) => Math.round(share * totalRuns));
  const memory: MemorySample[] = [];
  let batches = 0;
  let scoredMessages = 0;
  let offset = 0;
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  for (let runNumber = 0; runNumber <= totalRuns; runNumber++) {
    if (checkpoints.includes(runNumber)) memory.push(memorySample(runNumber * itemsPerRun, performance.now() - started));
    if (runNumber === totalRuns) break;
    const template = pool[runNumber % POOL_RUNS]!;
    const runId = `replay-${runNumber}`;
    for (const raw of template.messages) {
      const outcomes = scorer.handle(message<RawResult>('raw-results', template.key, { ...raw, run_id: runId }, offset++), noContext) as Outcome[];
      for (const outcome of outcomes) {
        if (outcome.kind !== 'emit') continue;
        scoredMessages += 1;
        const produced = collector.handle(message<ScoredResult>('scored-results', outcome.key, outcome.value as ScoredResult, offset++), noContext) as Outcome[];
        batches += produced.filter((result) => result.kind === 'emit').length;
      }
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const cpuShare = round(cpuShareSince(cpuAtStart, seconds * 1000), 3);
  return { rawItems: totalRuns * itemsPerRun, runs: totalRuns, batches, scoredMessages, seconds: round(seconds, 2), itemsPerSecond: (totalRuns * itemsPerRun) / seconds, cpuShare, memory };
}
