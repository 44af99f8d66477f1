/**
 * Scale-out: scorer processes (`skrya run scorer`, one event loop each, no worker threads) sharing
 * raw-results on 12 partitions, as in the scale-out test. For each process count, the processes
 * start and join first; then the generated runs are produced and the clock runs until the scorer
 * group has committed all of them. Each process's share comes from its own /metrics (outcomes:
 * emitted, dropped, dead-lettered); per-instance throughput is its outcomes over that window. One
 * bench run measures every process count under the same load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { consumerGroup, physicalTopic } from '../topics/topics.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../test/support/fault-processes.ts';
import { createBenchContext, encodeMessages, produceAll, type BenchContext } from './kafka-bench.ts';
import { round } from './measure.ts';
import { generateRuns, rawMessagesOf } from './stages.ts';
import { freePort, scorerOutcomes } from '../test/support/service-ports.ts';

export const SCALE_OUT_PARTITIONS = 12;

export interface ScaleOutScenario {
  processes: number;
  rawMessages: number;
  /** Scorer outcomes in all, work redone after a rebalance included. */
  outcomes: number;
  /** Outcomes the input calls for (one per result, one per run-end marker): what was redone is outcomes minus this. */
  expectedOutcomes: number;
  /** Group joins after the first, summed over the processes (each redoes its new partitions' uncommitted input). */
  rejoins: number;
  /** From the first input produced to the group's last commit. */
  seconds: number;
  outcomesPerSecond: number;
  /** Expected outcomes over the window: the throughput the input got, redone work left out. */
  usefulOutcomesPerSecond: number;
  /** Per process, in start order: outcomes and outcomes/s over the same window. */
  perInstance: Array<{ outcomes: number; outcomesPerSecond: number; partitions: number }>;
}

export interface ScaleOutFigures {
  partitions: number;
  scenarios: ScaleOutScenario[];
}

/** Input the scorer group has not committed yet on raw-results, every partition. */
async function uncommitted(context: BenchContext): Promise<number> {
  const topic = context.topic('raw-results');
  const [committed] = await context.admin.fetchOffsets({ groupId: consumerGroup(context.pipeline.port.naming, 'scorer'), topics: [topic] });
  const ends = await context.admin.fetchTopicOffsets(topic);
  return ends.reduce((sum, end) => {
    const done = BigInt(committed?.partitions.find((entry) => entry.partition === end.partition)?.offset ?? '-1');
    return sum + Number(BigInt(end.high) - (done < 0n ? BigInt(end.low) : done));
  }, 0);
}

function joinLines(scorer: ServiceProcess): string[] {
  return scorer.log().split('\n').filter((line) => line.includes('"msg":"joined group"') && line.includes('"service":"scorer"'));
}

/** Partitions of raw-results a scorer process holds, from the last 'joined group' line of its log. */
function partitionsHeld(scorer: ServiceProcess, topic: string): number {
  const joins = joinLines(scorer);
  try {
    const last = JSON.parse(joins.at(-1) ?? '{}') as { assignment?: Record<string, number[]> };
    return last.assignment?.[topic]?.length ?? 0;
  } catch {
    return 0;
  }
}

/** True once the scorer group is stable with `members` members, each holding partitions. */
async function shared(context: BenchContext, scorers: readonly ServiceProcess[]): Promise<boolean> {
  const { groups } = await context.admin.describeGroups([consumerGroup(context.pipeline.port.naming, 'scorer')]);
  const topic = physicalTopic(context.pipeline.port.naming, 'raw-results');
  return groups[0]?.state === 'Stable' && groups[0].members.length === scorers.length && scorers.every((scorer) => partitionsHeld(scorer, topic) > 0);
}

async function scenario(processes: number, runs: number): Promise<ScaleOutScenario> {
  const layout = { SKRYA_TOPIC_PARTITIONS: `raw-results=${SCALE_OUT_PARTITIONS},scored-results=${SCALE_OUT_PARTITIONS}` };
  const context = await createBenchContext(`scale-out-${processes}`, layout);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-bench-scale-out-'));
  const scorers: ServiceProcess[] = [];
  try {
    const { config } = context.pipeline;
    const env = serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: context.dataRoot }, { ...layout, SKRYA_SCORER_WORKERS: '0', SKRYA_CONSUMER_SESSION_TIMEOUT_MS: '45000' });
    const ports: number[] = [];
    for (let index = 0; index < processes; index += 1) {
      ports.push(await freePort());
      scorers.push(spawnService('scorer', { env: { ...env, SKRYA_METRICS_PORT: String(ports[index]) }, logDir: path.join(logDir, `scorer-${index}`), readyTimeoutMs: 600_000 }));
    }
    await Promise.all(scorers.map((scorer) => scorer.ready));
    await waitUntil(`${processes} scorers sharing ${SCALE_OUT_PARTITIONS} partitions`, () => shared(context, scorers), 300_000, { intervalMs: 500, failIf: () => anyExited(scorers) });
    const held = scorers.map((scorer) => partitionsHeld(scorer, context.topic('raw-results')));

    const generated = generateRuns(context.label, runs, 2, 48);
    const raw = rawMessagesOf(generated);
    const expectedOutcomes = generated.reduce((sum, run) => sum + run.items, 0) + generated.length;
    const joinsBefore = scorers.reduce((sum, scorer) => sum + joinLines(scorer).length, 0);
    const encoded = await encodeMessages(context, 'raw-results', 'retriever', raw);
    const started = performance.now();
    await produceAll(context.pipeline.kafka, context.topic('raw-results'), encoded);
    await waitUntil('the scorer group to commit every input', async () => (await uncommitted(context)) === 0, 900_000, { intervalMs: 100, failIf: () => anyExited(scorers) });
    const seconds = (performance.now() - started) / 1000;
    const counts = await Promise.all(ports.map(scorerOutcomes));
    const outcomes = counts.reduce((sum, count) => sum + count, 0);
    const rejoins = scorers.reduce((sum, scorer) => sum + joinLines(scorer).length, 0) - joinsBefore;
    return {
      processes,
      rawMessages: raw.length,
      outcomes,
      expectedOutcomes,
      rejoins,
      seconds: round(seconds, 2),
      outcomesPerSecond: round(outcomes / seconds, 1),
      usefulOutcomesPerSecond: round(expectedOutcomes / seconds, 1),
      perInstance: counts.map((count, index) => ({ outcomes: count, outcomesPerSecond: round(count / seconds, 1), partitions: held[index] ?? 0 })),
    };
  } finally {
    await Promise.all(scorers.map((scorer) => scorer.stop(60_000)));
    await context.close();
    fs.rmSync(logDir, { recursive: true, force: true });
  }
}

export async function benchScaleOut(options: { processes: readonly number[]; runs: number }): Promise<ScaleOutFigures> {
  const scenarios: ScaleOutScenario[] = [];
  for (const processes of options.processes) scenarios.push(await scenario(processes, options.runs));
  return { partitions: SCALE_OUT_PARTITIONS, scenarios };
}
