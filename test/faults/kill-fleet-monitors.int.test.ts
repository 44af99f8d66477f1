/**
 * Three sharded monitors (`skrya run monitor`, configs from topic-configs only) share a fleet of
 * topics that all fall due at once. One of them is SIGKILLed mid-burst, once some requests are
 * committed and before all are: the survivors take over its shards (fencing its transactions),
 * restore their state, and fire the rest. Every topic fired exactly once, as the committed
 * retrieval-requests show, and each topic's state names its request. SKRYA_FAULT_SEED picks the victim.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCompactedTopic } from '../../runtime/topic-readers.ts';
import { createRandom } from '../../domain/learned/random.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { briefVerdict, exactlyOnce, fleetConfigs, fleetKey, publishFleet, watchRequests, type FleetTopic } from '../support/fleet.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);
const TENANTS = 20;
const TOPICS_PER_TENANT = 150;

let harness: Harness;
let logDir: string;

beforeAll(async () => {
  harness = await createHarness('fault-fleet');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-fleet-logs-'));
});

afterAll(async () => {
  await harness?.close();
});

describe('three sharded monitors, one SIGKILLed mid-burst', () => {
  it('fires every due topic exactly once', async () => {
    const random = createRandom(SEED);
    const { pipeline } = harness;
    const { config } = pipeline;
    const env = serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: harness.dataRoot }, { SKRYA_MONITOR_WATCH_DATA_ROOT: 'off' });
    const monitors: ServiceProcess[] = [0, 1, 2].map((index) => spawnService('monitor', { env, logDir: path.join(logDir, `monitor-${index}`), readyTimeoutMs: 120_000 }));
    const watch = await watchRequests(pipeline);
    try {
      await Promise.all(monitors.map((monitor) => monitor.ready));
      // Daily topics that never ran: all due the moment their config arrives, and not again today.
      const topics: FleetTopic[] = [];
      for (let tenant = 0; tenant < TENANTS; tenant += 1) {
        for (let topic = 0; topic < TOPICS_PER_TENANT; topic += 1) topics.push({ ...fleetKey(tenant, topic), cadence: topic % 2 === 0 ? { every_minutes: 24 * 60 } : '0 0 * * *', lastRunUntil: null });
      }
      await publishFleet(pipeline, fleetConfigs(topics, new Date()));

      const victim = monitors[Math.floor(random() * monitors.length)]!;
      expect(await watch.waitFor(1, 120_000)).toBe(true);
      await victim.kill();
      const committedAtKill = watch.seen.length;
      process.stderr.write(`[fault-fleet seed=${SEED}] kill -9 monitor pid ${victim.pid} with ${committedAtKill}/${topics.length} requests committed\n`);
      // Mid-burst, or the test proves nothing about a takeover.
      expect(committedAtKill).toBeLessThan(topics.length);

      const survivors = monitors.filter((monitor) => monitor !== victim);
      await waitUntil('a request for every topic', async () => new Set(watch.seen.map((request) => request.key)).size >= topics.length, 180_000, { failIf: () => anyExited(survivors), intervalMs: 500 });
      for (const survivor of survivors) expect(await survivor.stop()).toBe(0);

      const verdict = briefVerdict(exactlyOnce(topics.map((topic) => topic.key), watch.seen));
      // Spelled out in the message: the report keeps only the message, and it abbreviates objects.
      expect(verdict, JSON.stringify(verdict)).toEqual({ expected: topics.length, firedOnce: topics.length, missing: [], duplicated: [], unexpected: [] });
      // The state partitions get their commit markers on their own, and may trail the requests'.
      const state = await waitUntil('a state for every fired topic', async () => {
        const compacted = await readCompactedTopic({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, topic: 'monitor-state' });
        return watch.seen.every((request) => compacted.has(request.key)) ? compacted : null;
      }, 60_000);
      for (const request of watch.seen) expect(state.get(request.key)?.last_run_id).toBe(request.runId);
      fs.rmSync(logDir, { recursive: true, force: true });
    } catch (error) {
      throw new Error(`seed ${SEED}, monitor logs in ${logDir}: ${String(error)}`, { cause: error });
    } finally {
      await watch.stop();
      await Promise.all(monitors.map((monitor) => monitor.kill()));
    }
  }, 400_000);
});
