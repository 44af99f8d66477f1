/**
 * Scale-out past the table's 6 partitions: raw-results gets 12 (SKRYA_TOPIC_PARTITIONS), and 8
 * scorer processes join one group beside a collector and two sinks sharing one data root. Every scorer is given partitions
 * and does part of the work (its own /metrics count of outcomes); then two scorers are killed with
 * SIGKILL mid-stream, the 6 left take over all 12 partitions, and every run still lands complete
 * with each item exactly once. Each instance's outcome count is reported (bench material).
 */
import '../../runtime/kafkajs-replacements.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublisher } from '../../runtime/publishers.ts';
import { consumerGroup, physicalTopic } from '../../topics/topics.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { groupLag, judgeWorkload, planWorkload, publishStep, publishingSteps } from '../support/fault-workload.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';
import { freePort, scorerOutcomes } from '../support/service-ports.ts';

const SCORERS = 8;
const PARTITIONS = 12;
const LAYOUT = { SKRYA_TOPIC_PARTITIONS: `raw-results=${PARTITIONS},scored-results=${PARTITIONS}` };

let harness: Harness;
let logDir: string;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  harness = await createHarness('scale-out', LAYOUT);
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-scale-out-logs-'));
});

afterAll(async () => {
  await Promise.all(processes.map((process) => process.kill()));
  await harness?.close();
});

/** A group's members and the partitions of its input each one holds (none while it rebalances). */
async function assignments(admin: ReturnType<Harness['pipeline']['kafka']['admin']>, service: 'scorer' | 'sink' = 'scorer'): Promise<number[][]> {
  const group = consumerGroup(harness.pipeline.port.naming, service);
  const topic = physicalTopic(harness.pipeline.port.naming, service === 'scorer' ? 'raw-results' : 'ingest-normalized');
  const { groups } = await admin.describeGroups([group]);
  if (groups[0]?.state !== 'Stable') return [];
  return groups[0].members.map((member) => {
    const assignment = kafkajs.AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    return [...(assignment?.assignment[topic] ?? [])].sort((a, b) => a - b);
  });
}

describe(`${SCORERS} scorers on ${PARTITIONS} partitions`, () => {
  it('share the work, and the survivors take over when two are killed', async () => {
    const { pipeline } = harness;
    const env = serviceEnv({ brokers: pipeline.config.SKRYA_KAFKA_BROKERS, registryUrl: pipeline.config.SKRYA_REGISTRY_URL, prefix: pipeline.port.naming.prefix, dataRoot: path.resolve(harness.dataRoot) }, { ...LAYOUT, SKRYA_SCORER_WORKERS: '0' });
    const ports: number[] = [];
    for (let index = 0; index < SCORERS; index += 1) {
      ports.push(await freePort());
      processes.push(spawnService('scorer', { env: { ...env, SKRYA_METRICS_PORT: String(ports[index]) }, logDir: path.join(logDir, `scorer-${index}`), readyTimeoutMs: 600_000 }));
    }
    // Two sinks on one data root, as sinks on several machines sharing a volume: each topic's files
    // are written only by the sink that holds its partition, so a tenant's files stay whole.
    processes.push(
      spawnService('collector', { env, logDir, readyTimeoutMs: 600_000 }),
      spawnService('sink', { env, logDir: path.join(logDir, 'sink-0'), readyTimeoutMs: 600_000 }),
      spawnService('sink', { env, logDir: path.join(logDir, 'sink-1'), readyTimeoutMs: 600_000 }),
    );
    // Ten Node processes loading the scorer on two shared cores can take minutes to join: the bound
    // above is a guard against a hang, the wait itself is on each process's ready line.
    await Promise.all(processes.map((process) => process.ready));
    const scorers = processes.slice(0, SCORERS);

    const admin = pipeline.kafka.admin();
    await admin.connect();
    const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'scale-out-test' });
    try {
      // Every member holds partitions: 12 over 8 is 1 or 2 each, all 12 held.
      const shared = await waitUntil('8 scorers sharing 12 partitions', async () => {
        const members = await assignments(admin);
        return members.length === SCORERS && members.every((partitions) => partitions.length > 0) ? members : null;
      }, 300_000, { intervalMs: 500, failIf: () => anyExited(processes) });
      expect(shared.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: PARTITIONS }, (_unused, index) => index));
      const sinks = await waitUntil('2 sinks sharing ingest-normalized', async () => {
        const members = await assignments(admin, 'sink');
        return members.length === 2 && members.every((partitions) => partitions.length > 0) ? members : null;
      }, 300_000, { intervalMs: 500, failIf: () => anyExited(processes) });
      expect(sinks.flat()).toHaveLength(6);

      // 48 topics: their keys reach every one of the 12 partitions, so every scorer gets runs.
      const runs = planWorkload({ tenant: 'acme', topics: 48, runsPerTopic: 2, responsesPerRun: 2, itemsPerResponse: 3, label: 'scale' });
      const steps = publishingSteps(runs);
      const half = Math.floor(steps.length / 2);
      const started = Date.now();
      for (const step of steps.slice(0, half)) await publishStep(publisher, step);
      await waitUntil('the first half scored', async () => (await groupLag(admin, pipeline.port.naming, 'scorer', 'raw-results')) === 0, 180_000, { intervalMs: 500, failIf: () => anyExited(processes) });
      const firstHalfSeconds = (Date.now() - started) / 1000;
      const before = await Promise.all(ports.map(scorerOutcomes));
      expect(before.every((count) => count > 0)).toBe(true);

      // Two scorers die mid-stream (the second half is already on its way); the other six take over.
      const publishing = (async () => {
        for (const step of steps.slice(half)) await publishStep(publisher, step);
      })();
      await scorers[0]!.kill();
      await scorers[1]!.kill();
      await publishing;
      const survivors = processes.filter((process) => !process.hasExited());
      const takenOver = await waitUntil('6 scorers holding all 12 partitions', async () => {
        const members = await assignments(admin);
        return members.length === SCORERS - 2 ? members : null;
      }, 300_000, { intervalMs: 500, failIf: () => anyExited(survivors) });
      expect(takenOver.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: PARTITIONS }, (_unused, index) => index));

      // Settled: every run file exact, and every stage has committed all its input, the collector
      // included (it used to stay behind here after its tick's commits crossed a batch's; README
      // "Running on a cluster").
      const lags: Record<string, number> = {};
      await waitUntil('every run file exact, and every stage\'s commits', async () => {
        for (const [service, input] of [['scorer', 'raw-results'], ['collector', 'scored-results'], ['sink', 'ingest-normalized']] as const) lags[service] = await groupLag(admin, pipeline.port.naming, service, input);
        return judgeWorkload(harness.dataRoot, runs).exact === runs.length && lags.scorer === 0 && lags.collector === 0 && lags.sink === 0;
      }, 300_000, { intervalMs: 1000, failIf: () => anyExited(survivors) }).catch((error: unknown) => {
        throw new Error(`${String(error)}; uncommitted input: ${JSON.stringify(lags)}`, { cause: error });
      });
      process.stderr.write(`[scale-out] uncommitted input at the end: ${JSON.stringify(lags)}\n`);
      const after = await Promise.all(ports.slice(2).map(scorerOutcomes));
      const perSecond = before.map((count) => (count / firstHalfSeconds).toFixed(1));
      process.stderr.write(`[scale-out] outcomes per scorer, first half (${firstHalfSeconds.toFixed(1)} s): ${before.join(' ')} (per second: ${perSecond.join(' ')}); survivors at the end: ${after.join(' ')}\n`);

      const verdict = judgeWorkload(harness.dataRoot, runs);
      expect(verdict.wrongRuns).toEqual([]);
      expect(verdict).toMatchObject({ runs: runs.length, exact: runs.length, lostItems: 0, duplicatedItems: 0, missingRuns: [], strayFiles: [] });
      // The survivors did the second half between them.
      expect(after.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(before.slice(2).reduce((sum, count) => sum + count, 0));
    } finally {
      await publisher.close();
      await admin.disconnect();
    }
    for (const process of processes.filter((candidate) => !candidate.hasExited())) expect(await process.stop(60_000)).toBe(0);
    fs.rmSync(logDir, { recursive: true, force: true });
  }, 1_800_000);
});
