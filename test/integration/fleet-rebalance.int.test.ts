/**
 * Shards moving between monitor processes (`skrya run monitor`, configs from topic-configs only),
 * in a clean run: one monitor fires a fleet of daily topics; two more join, so most shards move to
 * them; then the first stops, so its shards move again. Every new owner restores the shard's
 * state before it schedules, so nothing is due again: each topic fired exactly once (a marker
 * topic on every shard, fired after each move, shows each owner has ticked since it loaded). And a clean
 * start and rebalance log no error-level line (kafkajs's retried responses included). Clean means
 * the default 45 s group session: the fault tests' 6 s one can expire on this loaded machine.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { briefVerdict, exactlyOnce, fleetConfigs, fleetKey, publishFleet, shardMarkers, watchRequests, type FleetTopic } from '../support/fleet.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

const TENANTS = 10;
const TOPICS_PER_TENANT = 30;

let harness: Harness;
let logDir: string;

beforeAll(async () => {
  harness = await createHarness('fleet-rebalance');
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fleet-rebalance-logs-'));
});

afterAll(async () => {
  await harness?.close();
});

/** How many times the monitor has loaded an assignment (one line per generation it joined and loaded). */
function loads(monitor: ServiceProcess): number {
  return monitor.log().split('\n').filter((line) => line.includes('"msg":"shards loaded"')).length;
}

function errorLines(monitor: ServiceProcess): string[] {
  return monitor.log().split('\n').filter((line) => /"level":(50|60)\b/.test(line));
}

describe('shards moving between monitors', () => {
  it('resume their schedule from the restored state: every topic fired once, and no error-level line', async () => {
    const { pipeline } = harness;
    const { config } = pipeline;
    const env = serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: harness.dataRoot }, { SKRYA_MONITOR_WATCH_DATA_ROOT: 'off', SKRYA_CONSUMER_SESSION_TIMEOUT_MS: '45000' });
    const start = (index: number) => spawnService('monitor', { env, logDir: path.join(logDir, `monitor-${index}`), readyTimeoutMs: 120_000 });
    const first = start(0);
    const monitors = [first];
    const watch = await watchRequests(pipeline);
    /** Publishes a marker on every shard and waits until they fired: every shard's owner has ticked since it loaded. */
    const fireMarkers = async (label: string, seenBefore: number): Promise<FleetTopic[]> => {
      const markers = shardMarkers(label);
      await publishFleet(pipeline, fleetConfigs(markers, new Date()));
      expect(await watch.waitFor(seenBefore + markers.length, 120_000)).toBe(true);
      return markers;
    };
    try {
      await first.ready;
      // Daily topics that never ran: due the moment their config arrives, and not again for a day.
      const topics: FleetTopic[] = [];
      for (let tenant = 0; tenant < TENANTS; tenant += 1) {
        for (let topic = 0; topic < TOPICS_PER_TENANT; topic += 1) topics.push({ ...fleetKey(tenant, topic), cadence: topic % 2 === 0 ? { every_minutes: 24 * 60 } : '0 0 * * *', lastRunUntil: null });
      }
      await publishFleet(pipeline, fleetConfigs(topics, new Date()));
      expect(await watch.waitFor(topics.length, 120_000)).toBe(true);

      // Two more join: the group rebalances and the shards they are given move to them.
      const joined = [start(1), start(2)];
      monitors.push(...joined);
      await Promise.all(joined.map((monitor) => monitor.ready));
      const firstMarkers = await fireMarkers('after-join', topics.length);

      // The first leaves: its shards move to the other two, which load them.
      const before = joined.map(loads);
      expect(await first.stop()).toBe(0);
      await waitUntil('the others loaded the first monitor\'s shards', async () => joined.every((monitor, index) => loads(monitor) > before[index]!), 120_000, { failIf: () => anyExited(joined), intervalMs: 250 });
      const lastMarkers = await fireMarkers('after-leave', topics.length + firstMarkers.length);
      for (const monitor of joined) expect(await monitor.stop()).toBe(0);

      const expected = [...topics, ...firstMarkers, ...lastMarkers].map((topic) => topic.key);
      const verdict = briefVerdict(exactlyOnce(expected, watch.seen));
      // Spelled out in the message: the report keeps only the message, and it abbreviates objects.
      expect(verdict, JSON.stringify(verdict)).toEqual({ expected: expected.length, firedOnce: expected.length, missing: [], duplicated: [], unexpected: [] });
      expect(monitors.flatMap(errorLines)).toEqual([]);
      fs.rmSync(logDir, { recursive: true, force: true });
    } catch (error) {
      throw new Error(`monitor logs in ${logDir}: ${String(error)}`, { cause: error });
    } finally {
      await watch.stop();
      await Promise.all(monitors.map((monitor) => monitor.kill()));
    }
  }, 400_000);
});
