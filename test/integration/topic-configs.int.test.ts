/**
 * The data tree stays the editing surface while the monitor reads topic-configs: a file edited
 * under a running monitor, a topic folder deleted, a topic made by `skrya topic init` and one
 * published with `skrya topic apply --file` all reach the monitor through Kafka. The monitor runs
 * on a clock the test moves, so "due" is decided by the test, never by waiting.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourcesFile, topicDir } from '../../runtime/data-paths.ts';
import { shardOfKey } from '../../runtime/shard-owners.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { MONITOR_SHARDS } from '../../topics/topics.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { createHarness, runCli, type Harness } from '../support/pipeline-harness.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const T0 = Date.parse('2026-11-30T06:00:00.000Z');
const MINUTE = 60_000;

let harness: Harness;

function sources(cadenceMinutes: number, query: string): string {
  return JSON.stringify({ cadence: { every_minutes: cadenceMinutes }, recency_hours: 6, sources: [{ id: 'feeds', type: 'runtime-retrieval', capabilities: ['rss_feed'], queries: [query], feeds: ['feeds/a.xml'] }] }, null, 2);
}

function writeTopic(topicId: string, text: string): void {
  const file = sourcesFile(harness.dataRoot, parseTenantId('acme'), parseTopicId(topicId));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** A topic id whose key shares alpha's shard, so the monitor reads its records and alpha's in the order written. */
function sameShardAs(prefix: string, key: string): string {
  for (let index = 0; ; index += 1) if (shardOfKey(`acme/${prefix}-${index}`, MONITOR_SHARDS) === shardOfKey(key, MONITOR_SHARDS)) return `${prefix}-${index}`;
}

beforeAll(async () => {
  harness = await createHarness('topic-configs');
});

afterAll(async () => {
  await harness?.close();
});

describe('topic configs from the data tree reach the monitor', () => {
  it('applies an edit, a delete, a topic init and a topic apply', async () => {
    const requests = async () => (await harness.pipeline.port.readToEnd('retrieval-requests')).map(({ value }) => value);
    const beta = sameShardAs('beta', 'acme/alpha');
    const marker = sameShardAs('marker', 'acme/alpha');
    writeTopic('alpha', sources(60, 'alpha original'));
    writeTopic(beta, sources(30, 'beta'));
    let now = T0;
    const monitor = await harness.start(['monitor'], { clock: () => new Date(now), monitorIntervalMs: 200 });
    // Both had never run: the first tick committed them before start returned. A committed
    // transaction is readable once the broker has written its commit markers, a moment after the
    // commit returns (a reader that came sooner saw an empty topic in CI), so the test waits for them.
    const first = await waitUntil('alpha and beta fired', async () => {
      const fired = await requests();
      return fired.length >= 2 ? fired : null;
    }, 30_000);
    expect(first.map((request) => request.topic_id).sort()).toEqual(['alpha', beta].sort());

    // Delete beta, then edit alpha to every 30 minutes with a new query, then add a marker topic on
    // the same shard: once the marker (new, so due at once) has fired, the monitor has read the
    // tombstone and the edit. 31 minutes later only alpha fires, under its new cadence (its old one
    // would wait 60), and beta, due too had it stayed, is gone, its monitor-state with it.
    fs.rmSync(topicDir(harness.dataRoot, parseTenantId('acme'), parseTopicId(beta)), { recursive: true });
    writeTopic('alpha', sources(30, 'alpha edited'));
    writeTopic(marker, sources(24 * 60, 'marker'));
    await waitUntil('the marker fired', async () => (await requests()).some((request) => request.topic_id === marker), 30_000);
    now = T0 + 31 * MINUTE;
    const edited = await waitUntil('alpha fired with its edited query', async () => (await requests()).find((request) => request.queries.includes('alpha edited')), 30_000);
    expect(edited.time_window).toEqual({ since: new Date(T0).toISOString(), until: new Date(T0 + 31 * MINUTE).toISOString() });

    // `skrya topic init` writes a folder the watcher publishes; `skrya topic apply --file` publishes
    // a topic of a tenant the tree does not hold.
    const init = await runCli(harness, ['topic', 'init', 'gamma', '--tenant', 'acme']);
    expect(init.code, init.stderr).toBe(0);
    const applyFile = path.join(harness.dataRoot, 'fleet-sources.json');
    fs.writeFileSync(applyFile, sources(60, 'fleet topic'));
    const apply = await runCli(harness, ['topic', 'apply', 'remote', '--tenant', 'fleet', '--file', applyFile]);
    expect(apply.code, apply.stderr).toBe(0);
    await waitUntil('gamma and remote fired', async () => {
      const ids = (await requests()).map((request) => `${request.tenant}/${request.topic_id}`);
      return ids.includes('acme/gamma') && ids.includes('fleet/remote');
    }, 60_000);
    await monitor.stop();

    const fired = await requests();
    const windows = (topicId: string) => fired.filter((request: RetrievalRequest) => request.topic_id === topicId).map((request) => request.time_window.until);
    expect(windows('alpha')).toEqual([new Date(T0).toISOString(), new Date(T0 + 31 * MINUTE).toISOString()]);
    expect(windows(beta)).toEqual([new Date(T0).toISOString()]);
    expect(windows('gamma')).toHaveLength(1);
    expect(windows('remote')).toHaveLength(1);
    // The deleted topic's monitor-state went with it (a tombstone); the others' stayed. The state
    // partition gets its commit markers on its own, and they may trail the requests': alpha's second
    // window there means every earlier transaction of the shard (beta's tombstone among them) is readable.
    const state = await waitUntil("alpha's state at its second window", async () => {
      const compacted = await harness.pipeline.port.readCompacted('monitor-state');
      return compacted.get('acme/alpha')?.last_window_until === new Date(T0 + 31 * MINUTE).toISOString() ? compacted : null;
    }, 30_000);
    expect(state.has(`acme/${beta}`)).toBe(false);
  }, 240_000);
});
