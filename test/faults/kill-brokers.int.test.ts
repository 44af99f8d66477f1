/**
 * Broker failures on a 3-broker SASL_SSL cluster, topics with replication 3 and min.insync.replicas
 * 2: while 30 runs over 5 topics are published step by step through scorer, collector and sink (each
 * its own `skrya run` process), the broker leading the busiest partition is killed with SIGKILL; it
 * is restarted later, and once it is back in every partition's ISR the broker then leading the
 * busiest partition (another one) is killed and restarted in turn. Afterwards every run's file holds
 * each of its items exactly once and is complete, nothing went to dead letters, and every service
 * shuts down cleanly. The kill schedule is the same in every run; SKRYA_FAULT_SEED only names labels.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Admin } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { killNode, nodePid, startNode } from '../../infra/kafka-cluster.ts';
import type { Pipeline } from '../../runtime/pipeline.ts';
import { physicalTopic, type TopicName } from '../../topics/topics.ts';
import { expectEveryRunExact, runKillCampaign, type KillCampaignResult } from '../support/fault-campaign.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { startTestCluster, type TestCluster } from '../support/test-cluster.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);
const PIPELINE_TOPICS: readonly TopicName[] = ['raw-results', 'scored-results', 'ingest-normalized'];

let cluster: TestCluster;
let connection: Awaited<ReturnType<TestCluster['connect']>>;
let logDir: string;

beforeAll(async () => {
  cluster = await startTestCluster('faults', (line) => process.stderr.write(`[cluster] ${line}\n`));
  connection = await cluster.connect('broker-faults');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-broker-faults-logs-'));
}, 300_000);

afterAll(async () => {
  await connection?.close();
  await cluster?.down();
}, 120_000);

/** The leader of the partition holding the most messages among the pipeline's topics. */
async function busiestLeader(admin: Admin, pipeline: Pipeline): Promise<{ node: number; partition: string; messages: number }> {
  let busiest = { node: -1, partition: '', messages: -1 };
  for (const name of PIPELINE_TOPICS) {
    const topic = physicalTopic(pipeline.port.naming, name);
    const [offsets, metadata] = await Promise.all([admin.fetchTopicOffsets(topic), admin.fetchTopicMetadata({ topics: [topic] })]);
    for (const partition of metadata.topics[0]!.partitions) {
      const messages = Number(offsets.find((entry) => entry.partition === partition.partitionId)?.high ?? 0);
      if (messages > busiest.messages) busiest = { node: partition.leader, partition: `${name}/${partition.partitionId}`, messages };
    }
  }
  return busiest;
}

/** True once `node` is back in the ISR of every partition of the pipeline's topics. */
async function backInEveryIsr(admin: Admin, pipeline: Pipeline, node: number): Promise<boolean> {
  const metadata = await admin.fetchTopicMetadata({ topics: PIPELINE_TOPICS.map((name) => physicalTopic(pipeline.port.naming, name)) });
  return metadata.topics.every((topic) => topic.partitions.every((partition) => partition.isr.includes(node)));
}

describe('brokers killed with SIGKILL mid-run on a replicated SASL_SSL cluster', () => {
  it('lose and duplicate nothing: every run is complete with each item exactly once', async () => {
    const { pipeline } = connection;
    const admin = pipeline.kafka.admin();
    await admin.connect();
    const faults: string[] = [];
    const report = (line: string) => process.stderr.write(`[broker-faults seed=${SEED}] ${line}\n`);
    let first = -1;
    let second = -1;
    let result: KillCampaignResult | undefined;
    try {
      result = await runKillCampaign({
        pipeline,
        shape: { tenant: 'acme', topics: 5, runsPerTopic: 6, responsesPerRun: 2, itemsPerResponse: 5, label: `b${SEED.toString(36)}` },
        killsPerService: 0,
        seed: SEED,
        logDir,
        settleTimeoutMs: 240_000,
        settleOn: 'files',
        readyTimeoutMs: 120_000,
        report,
        extraEnv: cluster.env(),
        afterStep: async (index, steps) => {
          if (index === Math.floor(steps / 4)) {
            const busiest = await busiestLeader(admin, pipeline);
            first = busiest.node;
            await killNode(cluster.settings, first);
            faults.push(`kill ${first}`);
            report(`kill -9 broker ${first}, leader of ${busiest.partition} (${busiest.messages} messages), after step ${index + 1}/${steps}`);
          } else if (index === Math.floor(steps / 2)) {
            await startNode(cluster.settings, first);
            await waitUntil(`broker ${first} back in every ISR`, () => backInEveryIsr(admin, pipeline, first), 180_000, { intervalMs: 1000 });
            faults.push(`return ${first}`);
            const busiest = await busiestLeader(admin, pipeline);
            // Another broker: the busiest partition's leader now, unless leadership went back to the first.
            second = busiest.node !== first ? busiest.node : [1, 2, 3].find((node) => node !== first)!;
            await killNode(cluster.settings, second);
            faults.push(`kill ${second}`);
            report(`broker ${first} is back in every ISR; kill -9 broker ${second} after step ${index + 1}/${steps}`);
          } else if (index === Math.floor((3 * steps) / 4)) {
            await startNode(cluster.settings, second);
            faults.push(`return ${second}`);
            report(`broker ${second} restarted after step ${index + 1}/${steps}`);
          }
        },
      });
    } catch (error) {
      throw new Error(`seed ${SEED}, faults so far ${faults.join(', ')}, service logs in ${logDir}: ${String(error)}`, { cause: error });
    } finally {
      await admin.disconnect();
    }
    report(JSON.stringify({ seconds: result.seconds, redelivered: result.redelivered, exact: result.verdict.exact }));

    expect(faults).toEqual([`kill ${first}`, `return ${first}`, `kill ${second}`, `return ${second}`]);
    expect(second).not.toBe(first);
    expect(nodePid(cluster.settings, first)).not.toBeNull();
    expect(nodePid(cluster.settings, second)).not.toBeNull();
    expectEveryRunExact(result, 30);
    fs.rmSync(logDir, { recursive: true, force: true });
  }, 900_000);
});
