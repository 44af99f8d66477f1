/**
 * A kill campaign: pipeline services run as separate `skrya run <service>` processes while a
 * workload is published step by step; between steps a service is killed with SIGKILL at a random
 * moment and restarted at once. When everything has settled (every group has committed its whole
 * input), the sink's files are judged item by item. Used by the fault test and by `npm run soak`.
 */
import path from 'node:path';
import { expect } from 'vitest';
import type { Pipeline } from '../../runtime/pipeline.ts';
import { createPublisher } from '../../runtime/publishers.ts';
import type { TopicName } from '../../topics/topics.ts';
import { createRandom } from '../../domain/learned/random.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from './fault-processes.ts';
import { groupLag, judgeWorkload, planWorkload, publishStep, publishingSteps, topicSize, type WorkloadShape, type WorkloadVerdict } from './fault-workload.ts';

/**
 * The stages between raw-results and the files, in pipeline order, with the topic each consumes and
 * when, after a publishing step, a kill hurts most: the scorer while it scores the step; the collector
 * once it has closed the step's runs and committed (its commit then often lies inside a closed run);
 * the sink while batches arrive.
 */
export const FILE_PATH_STAGES: ReadonlyArray<{ service: string; input: TopicName; killWindowMs: readonly [number, number] }> = [
  { service: 'scorer', input: 'raw-results', killWindowMs: [0, 120] },
  { service: 'collector', input: 'scored-results', killWindowMs: [100, 600] },
  { service: 'sink', input: 'ingest-normalized', killWindowMs: [0, 300] },
];

export interface KillCampaignOptions {
  /** Connected with the campaign's prefix and data root; its config names the broker and registry. */
  pipeline: Pipeline;
  shape: WorkloadShape;
  killsPerService: number;
  seed: number;
  logDir: string;
  /** Bound for everything to be processed after the last step. */
  settleTimeoutMs: number;
  /** Bound for a restarted service to join its group. */
  readyTimeoutMs?: number;
  report?: (line: string) => void;
  /** More env for the service processes (a secured cluster's connection settings). */
  extraEnv?: Record<string, string>;
  /** Runs after each publishing step and its service kills (a broker fault schedule). */
  afterStep?: (index: number, steps: number) => Promise<void>;
  /**
   * `commits` (default): settled when every stage has committed its whole input. `files`: when every
   * run file is exact and the scorer and sink have committed everything; the collector's last commit
   * on a partition can trail its last closed run after group coordinators moved (broker faults).
   */
  settleOn?: 'commits' | 'files';
}

export interface Kill {
  service: string;
  afterStep: number;
  delayMs: number;
  pid: number;
  /** Input messages the victim had not committed just before the kill: > 0 means killed mid-stream. */
  lagAtKill: number;
}

export interface KillCampaignResult {
  verdict: WorkloadVerdict;
  kills: Kill[];
  steps: number;
  seconds: { publishAndKill: number; settle: number; total: number };
  /** Messages beyond one per planned message: copies re-produced by a killed stage's successor. */
  redelivered: { scoredResults: number; ingestBatches: number };
  deadLetters: number;
  /** Exit codes of the final processes, stopped with SIGTERM (0 = a clean shutdown). */
  exitCodes: Record<string, number | string>;
}

export async function runKillCampaign(options: KillCampaignOptions): Promise<KillCampaignResult> {
  const { pipeline, shape } = options;
  const report = options.report ?? (() => {});
  // Seeded, so a failing kill schedule can be replayed.
  const random = createRandom(options.seed);
  const started = Date.now();
  const runs = planWorkload(shape);
  const steps = publishingSteps(runs);
  const env = serviceEnv({
    brokers: pipeline.config.SKRYA_KAFKA_BROKERS,
    registryUrl: pipeline.config.SKRYA_REGISTRY_URL,
    prefix: pipeline.config.SKRYA_TOPIC_PREFIX,
    dataRoot: path.resolve(pipeline.config.SKRYA_DATA_ROOT),
  }, options.extraEnv);
  const spawnOptions = { env, logDir: options.logDir, readyTimeoutMs: options.readyTimeoutMs ?? 60_000 };
  const running = new Map<string, ServiceProcess>(FILE_PATH_STAGES.map(({ service }) => [service, spawnService(service, spawnOptions)]));
  const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'fault-test' });
  const admin = pipeline.kafka.admin();
  await admin.connect();
  try {
    await Promise.all([...running.values()].map((service) => service.ready));
    report(`${runs.length} runs in ${steps.length} steps; services ready after ${Date.now() - started} ms`);

    // Every service is killed killsPerService times, in a seeded random order, spread over the steps.
    const order = FILE_PATH_STAGES.flatMap(({ service }) => Array.from({ length: options.killsPerService }, () => service));
    for (let index = order.length - 1; index > 0; index -= 1) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    const killAfterStep = new Map<number, string[]>();
    order.forEach((service, index) => {
      const step = Math.floor(((index + 1) * steps.length) / (order.length + 1));
      killAfterStep.set(step, [...(killAfterStep.get(step) ?? []), service]);
    });

    const kills: Kill[] = [];
    for (const [index, step] of steps.entries()) {
      await publishStep(publisher, step);
      for (const service of killAfterStep.get(index) ?? []) {
        const victim = running.get(service)!;
        // A second kill before the successor has its partitions back would test nothing new.
        await victim.ready;
        // The random moment, inside the stage's kill window after the step.
        const { input, killWindowMs: [from, to] } = FILE_PATH_STAGES.find((stage) => stage.service === service)!;
        const delayMs = from + Math.floor(random() * (to - from));
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const lagAtKill = await groupLag(admin, pipeline.port.naming, service, input);
        await victim.kill();
        kills.push({ service, afterStep: index, delayMs, pid: victim.pid, lagAtKill });
        report(`kill -9 ${service} (pid ${victim.pid}) ${delayMs} ms after step ${index + 1}/${steps.length}, ${lagAtKill} input messages uncommitted`);
        running.set(service, spawnService(service, spawnOptions));
      }
      await options.afterStep?.(index, steps.length);
    }
    const published = Date.now();
    report(`all ${steps.length} steps published after ${Math.round((published - started) / 1000)} s; settling`);

    // Settled: in pipeline order, each group has committed all of its input. Checked in this order,
    // an upstream stage with nothing left means the downstream topic's end is final.
    const dataRoot = path.resolve(pipeline.config.SKRYA_DATA_ROOT);
    const settleOnFiles = options.settleOn === 'files';
    await waitUntil(settleOnFiles ? 'every run file exact, and the scorer and sink to commit their whole input' : 'every stage to commit its whole input', async () => {
      if (settleOnFiles && judgeWorkload(dataRoot, runs).exact !== runs.length) return false;
      for (const { service, input } of FILE_PATH_STAGES) {
        if (settleOnFiles && service === 'collector') continue;
        if ((await groupLag(admin, pipeline.port.naming, service, input)) !== 0) return false;
      }
      return true;
    }, options.settleTimeoutMs, { intervalMs: 500, failIf: () => anyExited(running.values()) });
    const settled = Date.now();

    const verdict = judgeWorkload(dataRoot, runs);
    const plannedScored = runs.reduce((sum, run) => sum + run.urls.length + 1, 0);
    const [scored, batches, deadLetters] = await Promise.all([
      topicSize(admin, pipeline.port.naming, 'scored-results'),
      topicSize(admin, pipeline.port.naming, 'ingest-normalized'),
      topicSize(admin, pipeline.port.naming, 'dead-letters'),
    ]);
    const exitCodes: Record<string, number | string> = {};
    for (const [service, process] of running) exitCodes[service] = await process.stop();
    running.clear();
    return {
      verdict,
      kills,
      steps: steps.length,
      seconds: { publishAndKill: (published - started) / 1000, settle: (settled - published) / 1000, total: (Date.now() - started) / 1000 },
      redelivered: { scoredResults: scored - plannedScored, ingestBatches: batches - runs.length },
      deadLetters,
      exitCodes,
    };
  } finally {
    await Promise.all([...running.values()].map((service) => service.kill()));
    await publisher.close();
    await admin.disconnect();
  }
}

/** Every run written exactly once and nothing else, no dead letters, and each service's last generation shut down cleanly on SIGTERM. */
export function expectEveryRunExact(result: KillCampaignResult, runs: number): void {
  expect(result.verdict.missingRuns).toEqual([]);
  expect(result.verdict.wrongRuns).toEqual([]);
  expect(result.verdict.strayFiles).toEqual([]);
  expect(result.verdict).toMatchObject({ runs, exact: runs, lostItems: 0, duplicatedItems: 0 });
  expect(result.deadLetters).toBe(0);
  expect(result.exitCodes).toEqual({ scorer: 0, collector: 0, sink: 0 });
}
