/**
 * kill -9 of the monitor: `skrya run monitor` fires every due topic as soon as it starts, writing
 * each request and the topic's new state in one Kafka transaction. It is SIGKILLed at random
 * moments around that first tick, four times, and started again; a kill mid-transaction aborts
 * both halves. Afterwards each topic has exactly one committed request (none fired twice, none
 * missed) and its state names that request. Both topics run daily, so no new window falls due
 * while the test runs. SKRYA_FAULT_SEED replays the kill schedule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCompactedTopic, readTopicToEnd } from '../../runtime/topic-readers.ts';
import { createRandom } from '../../domain/learned/random.ts';
import { serviceEnv, spawnService, waitUntil } from '../support/fault-processes.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);
const TOPICS = ['kafka-ops', 'kafka-ops-copy'] as const;
const KILLS = 4;

let harness: Harness;
let logDir: string;

beforeAll(async () => {
  harness = await createHarness('fault-monitor');
  for (const topic of TOPICS) harness.addTopic('acme', topic, 'kafka-ops');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-monitor-logs-'));
});

afterAll(async () => {
  await harness?.close();
});

describe('the monitor killed with SIGKILL around its tick and restarted', () => {
  it('fires each due topic exactly once, with its state written alongside', async () => {
    const random = createRandom(SEED);
    const { config, kafka } = harness.pipeline;
    const { serde, naming } = harness.pipeline.port;
    const spawnOptions = { env: serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: harness.dataRoot }), logDir, readyTimeoutMs: 60_000 };
    const committedRequests = async () => (await readTopicToEnd({ kafka, serde, naming, topic: 'retrieval-requests' })).map(({ value }) => value);
    try {
      for (let kill = 0; kill < KILLS; kill += 1) {
        const monitor = spawnService('monitor', spawnOptions);
        await monitor.ready;
        // Around the first tick: it starts as the process reports itself running.
        const delayMs = Math.floor(random() * 600);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        await monitor.kill();
        process.stderr.write(`[fault-monitor seed=${SEED}] kill -9 monitor (pid ${monitor.pid}) ${delayMs} ms after it started; ${(await committedRequests()).length} requests committed\n`);
      }
      const monitor = spawnService('monitor', spawnOptions);
      await monitor.ready;
      await waitUntil('a committed request for every topic', async () => new Set((await committedRequests()).map((request) => request.topic_id)).size === TOPICS.length, 60_000);
      expect(await monitor.stop()).toBe(0);

      const requests = await committedRequests();
      expect(requests.map((request) => request.topic_id).sort()).toEqual([...TOPICS].sort());
      // The state partitions get their commit markers on their own, and may trail the requests'.
      const state = await waitUntil('a state for every topic', async () => {
        const compacted = await readCompactedTopic({ kafka, serde, naming, topic: 'monitor-state' });
        return TOPICS.every((topicId) => compacted.has(`acme/${topicId}`)) ? compacted : null;
      }, 60_000);
      for (const request of requests) expect(state.get(`acme/${request.topic_id}`)?.last_run_id).toBe(request.run_id);
      fs.rmSync(logDir, { recursive: true, force: true });
    } catch (error) {
      throw new Error(`seed ${SEED}, monitor logs in ${logDir}: ${String(error)}`, { cause: error });
    }
  }, 300_000);
});
