import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir, LATEST_FILE, sourcesFile } from '../../runtime/data-paths.ts';
import { createLogger } from '../../runtime/logger.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { type MonitorState, monitorStateSchema, type RetrievalRequest, retrievalRequestSchema } from '../../schemas/messages.ts';
import { createDataTreeConfigs, type ConfigChange } from './data-tree-configs.ts';
import { createMonitor, lastRunUntil, type FiredTopic, type MonitorOptions } from './monitor.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const logger = createLogger({ level: 'silent' });
let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-monitor-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function writeSources(tenant: string, topicId: string, text: string): string {
  const file = sourcesFile(root, parseTenantId(tenant), parseTopicId(topicId));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

const VALID = JSON.stringify({
  cadence: { every_minutes: 60 },
  recency_hours: 12,
  sources: [{ id: 'feeds', type: 'runtime-retrieval', capabilities: ['rss_feed'], feeds: ['feeds/a.xml'] }],
}, null, 2);

// Line 5 lacks a comma after "rss_feed"]: the parser stops at line 6.
const MALFORMED = [
  '{',
  '  "sources": [',
  '    {',
  '      "id": "feeds", "type": "runtime-retrieval",',
  '      "capabilities": ["rss_feed"]',
  '      "feeds": ["feeds/a.xml"]',
  '    }',
  '  ]',
  '}',
].join('\n');

/** The tree's topics as topic-configs records, as the monitor's consumer hands them over. */
async function treeConfigs(now = new Date('2026-04-25T05:00:00.000Z')): Promise<{ changes: ConfigChange[]; problems: string[] }> {
  const changes: ConfigChange[] = [];
  const problems: string[] = [];
  const recordingLogger = createLogger({ level: 'silent' });
  const tree = createDataTreeConfigs({
    dataRoot: root,
    logger: { ...recordingLogger, error: (fields: { problem?: string }) => void problems.push(fields.problem ?? '') } as unknown as typeof logger,
    write: async (batch) => void changes.push(...batch),
    clock: () => now,
  });
  await tree.syncAll();
  return { changes, problems };
}

function recorder() {
  const published: RetrievalRequest[] = [];
  const states: MonitorState[] = [];
  return {
    published,
    states,
    publish: async (_shard: number, fired: readonly FiredTopic[]) => {
      for (const { request, state } of fired) {
        published.push(request);
        states.push(state);
      }
    },
  };
}

/** A monitor owning one shard that holds the tree's topics, with the given state restored. */
async function loadedMonitor(publish: MonitorOptions['publish'], state = new Map<string, MonitorState>()) {
  const monitor = createMonitor({ logger, publish });
  monitor.assign([0]);
  for (const { key, value } of (await treeConfigs()).changes) monitor.applyConfig(0, key, value);
  monitor.shardLoaded(0, state);
  return monitor;
}

describe('createMonitor().tick', () => {
  it('publishes the valid topic, the broken one is reported with its file and line and never published, and nothing re-fires right after', async () => {
    writeSources('acme', 'good-topic', VALID);
    const brokenFile = writeSources('acme', 'broken-topic', MALFORMED);
    const { changes, problems } = await treeConfigs();
    expect(changes.map((change) => change.key)).toEqual(['acme/good-topic']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`${brokenFile}:6:`);

    const { published, publish } = recorder();
    const monitor = await loadedMonitor(publish);
    const now = new Date('2026-04-25T06:00:00.000Z');
    const first = await monitor.tick(now);
    expect(published).toHaveLength(1);
    expect(retrievalRequestSchema.safeParse(published[0]).success).toBe(true);
    expect(published[0]).toMatchObject({ tenant: 'acme', topic_id: 'good-topic', trigger: 'SCHEDULE', time_window: { since: '2026-04-24T18:00:00.000Z', until: now.toISOString() } });
    expect(first.emitted).toEqual([{ tenant: 'acme', topicId: 'good-topic', runId: published[0]!.run_id }]);

    const second = await monitor.tick(new Date(now.getTime() + 1_000));
    expect(second.emitted).toEqual([]);
    expect(published).toHaveLength(1);
  });

  it('fires again once the cadence has passed, with the window starting where the last one ended', async () => {
    writeSources('acme', 'good-topic', VALID);
    const { published, publish } = recorder();
    const monitor = await loadedMonitor(publish);
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    await monitor.tick(new Date('2026-04-25T06:59:00.000Z'));
    expect(monitor.nextDueAt()).toBe(Date.parse('2026-04-25T07:00:00.000Z'));
    await monitor.tick(new Date('2026-04-25T07:00:00.000Z'));
    expect(published.map((request) => request.time_window)).toEqual([
      { since: '2026-04-24T18:00:00.000Z', until: '2026-04-25T06:00:00.000Z' },
      { since: '2026-04-25T06:00:00.000Z', until: '2026-04-25T07:00:00.000Z' },
    ]);
    expect(new Set(published.map((request) => request.run_id)).size).toBe(2);
  });

  it('resumes from the restored state: a topic fired an hour ago is not due, and its next window starts where that one ended', async () => {
    writeSources('acme', 'good-topic', VALID);
    const { published, publish } = recorder();
    const restored = new Map([['acme/good-topic', monitorStateSchema.parse({ tenant: 'acme', topic_id: 'good-topic', last_run_id: 'run-x', last_window_since: '2026-04-25T04:00:00.000Z', last_window_until: '2026-04-25T05:40:00.000Z', fired_at: '2026-04-25T05:40:00.000Z' })]]);
    const monitor = await loadedMonitor(publish, restored);
    expect((await monitor.tick(new Date('2026-04-25T06:00:00.000Z'))).emitted).toEqual([]);
    await monitor.tick(new Date('2026-04-25T06:40:00.000Z'));
    expect(published.map((request) => request.time_window.since)).toEqual(['2026-04-25T05:40:00.000Z']);
  });

  it('starts the window at the end of the run the sink last wrote', async () => {
    writeSources('acme', 'good-topic', VALID);
    const latest = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('good-topic')), LATEST_FILE);
    fs.mkdirSync(path.dirname(latest), { recursive: true });
    fs.writeFileSync(latest, JSON.stringify({ time_window: { since: '2026-04-25T03:00:00.000Z', until: '2026-04-25T05:30:00.000Z' } }));
    const { published, publish } = recorder();
    const monitor = await loadedMonitor(publish);

    expect((await monitor.tick(new Date('2026-04-25T06:00:00.000Z'))).emitted).toEqual([]);
    await monitor.tick(new Date('2026-04-25T06:30:00.000Z'));
    expect(published.map((request) => request.time_window.since)).toEqual(['2026-04-25T05:30:00.000Z']);
  });

  it('reports topics whose publish failed and fires them on the next tick', async () => {
    writeSources('acme', 'good-topic', VALID);
    let fail = true;
    const { published, publish } = recorder();
    const monitor = await loadedMonitor(async (shard, fired) => {
      if (fail) throw new Error('broker away');
      await publish(shard, fired);
    });
    const now = new Date('2026-04-25T06:00:00.000Z');
    expect((await monitor.tick(now)).skipped.map((entry) => entry.topicId)).toEqual(['good-topic']);
    fail = false;
    expect((await monitor.tick(now)).emitted.map((entry) => entry.topicId)).toEqual(['good-topic']);
    expect(published).toHaveLength(1);
  });

  it('stops firing a shard a newer owner fenced', async () => {
    writeSources('acme', 'good-topic', VALID);
    const monitor = await loadedMonitor(async () => {
      throw new SkryaError('SHARD_FENCED', 'shard 0 was fenced');
    });
    const now = new Date('2026-04-25T06:00:00.000Z');
    expect((await monitor.tick(now)).emitted).toEqual([]);
    expect(monitor.topicCount()).toBe(0);
    expect(monitor.nextDueAt()).toBeNull();
  });

  it('a tombstone removes the topic; a changed cadence reschedules it; an unchanged record changes nothing', async () => {
    writeSources('acme', 'good-topic', VALID);
    writeSources('acme', 'other-topic', VALID);
    const { published, publish } = recorder();
    const monitor = await loadedMonitor(publish);
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    expect(published).toHaveLength(2);

    writeSources('acme', 'other-topic', VALID.replace('"every_minutes": 60', '"every_minutes": 10'));
    const edited = (await treeConfigs()).changes.find((change) => change.key === 'acme/other-topic')!;
    monitor.applyConfig(0, 'acme/other-topic', edited.value);
    monitor.applyConfig(0, 'acme/good-topic', null);
    expect(monitor.nextDueAt()).toBe(Date.parse('2026-04-25T06:10:00.000Z'));
    await monitor.tick(new Date('2026-04-25T08:00:00.000Z'));
    expect(published.slice(2).map((request) => [request.topic_id, request.time_window.since])).toEqual([['other-topic', '2026-04-25T06:00:00.000Z']]);
    expect(monitor.topicCount()).toBe(1);
  });

  it("a config published under a key that is not its own <tenant>/<topic-id> is skipped: nothing fires under the foreign key", async () => {
    writeSources('acme', 'good-topic', VALID);
    const { published, publish } = recorder();
    const monitor = await loadedMonitor(publish);
    const config = (await treeConfigs()).changes.find((change) => change.key === 'acme/good-topic')!.value;
    monitor.applyConfig(0, 'globex/stolen-topic', config);
    expect(monitor.topicCount()).toBe(1);
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    expect(published.map((request) => `${request.tenant}/${request.topic_id}`)).toEqual(['acme/good-topic']);
  });

  it("a deleted topic's monitor-state is tombstoned in the shard's next transaction, once; a state whose topic is gone when the shard loads is tombstoned too", async () => {
    writeSources('acme', 'good-topic', VALID);
    writeSources('acme', 'other-topic', VALID);
    const deletions: string[][] = [];
    const { published, publish } = recorder();
    const orphan = monitorStateSchema.parse({ tenant: 'acme', topic_id: 'gone-topic', last_run_id: 'run-x', last_window_since: '2026-04-25T04:00:00.000Z', last_window_until: '2026-04-25T05:00:00.000Z', fired_at: '2026-04-25T05:00:00.000Z' });
    const monitor = await loadedMonitor(async (shard, fired, deletedStates) => {
      if (deletedStates.length > 0) deletions.push([...deletedStates]);
      await publish(shard, fired);
    }, new Map([['acme/gone-topic', orphan]]));
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    expect(deletions).toEqual([['acme/gone-topic']]);
    expect(published).toHaveLength(2);

    monitor.applyConfig(0, 'acme/good-topic', null);
    await monitor.tick(new Date('2026-04-25T06:01:00.000Z'));
    await monitor.tick(new Date('2026-04-25T06:02:00.000Z'));
    expect(deletions).toEqual([['acme/gone-topic'], ['acme/good-topic']]);
    expect(published).toHaveLength(2);
  });

  it('a topic deleted and re-created before the tombstone went out fires afresh, with its old state tombstoned in the same transaction', async () => {
    writeSources('acme', 'good-topic', VALID);
    const batches: Array<{ deleted: string[]; fired: string[] }> = [];
    const monitor = await loadedMonitor(async (_shard, fired, deletedStates) => void batches.push({ deleted: [...deletedStates], fired: fired.map(({ request }) => request.time_window.since) }));
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    const config = (await treeConfigs()).changes[0]!.value;
    monitor.applyConfig(0, 'acme/good-topic', null);
    monitor.applyConfig(0, 'acme/good-topic', config);
    // Its config has no last run: due at once, its window recency_hours (12) back.
    await monitor.tick(new Date('2026-04-25T06:05:00.000Z'));
    expect(batches).toEqual([
      { deleted: [], fired: ['2026-04-24T18:00:00.000Z'] },
      { deleted: ['acme/good-topic'], fired: ['2026-04-24T18:05:00.000Z'] },
    ]);
  });

  it('a tombstone that could not be published is published on the next tick', async () => {
    writeSources('acme', 'good-topic', VALID);
    let fail = false;
    const deletions: string[] = [];
    const monitor = await loadedMonitor(async (_shard, _fired, deletedStates) => {
      if (fail) throw new Error('broker away');
      deletions.push(...deletedStates);
    });
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    monitor.applyConfig(0, 'acme/good-topic', null);
    fail = true;
    await monitor.tick(new Date('2026-04-25T06:01:00.000Z'));
    fail = false;
    await monitor.tick(new Date('2026-04-25T06:02:00.000Z'));
    expect(deletions).toEqual(['acme/good-topic']);
  });

  it('ignores folders whose names are not valid ids', async () => {
    writeSources('acme', 'good-topic', VALID);
    fs.mkdirSync(path.join(root, 'acme', 'topics', 'Not_Valid'), { recursive: true });
    fs.writeFileSync(path.join(root, 'acme', 'topics', 'Not_Valid', 'sources.json'), VALID);
    const { changes, problems } = await treeConfigs();
    expect(changes.map((change) => change.key)).toEqual(['acme/good-topic']);
    expect(problems).toEqual([]);
  });

  it('fires a burst in batches of the configured size, one publish per batch', async () => {
    for (let index = 0; index < 12; index += 1) writeSources('acme', `topic-${index}`, VALID);
    const batches: number[] = [];
    const monitor = createMonitor({ logger, batchSize: 5, publish: async (_shard, fired) => void batches.push(fired.length) });
    monitor.assign([0]);
    for (const { key, value } of (await treeConfigs()).changes) monitor.applyConfig(0, key, value);
    monitor.shardLoaded(0, new Map());
    expect((await monitor.tick(new Date('2026-04-25T06:00:00.000Z'))).emitted).toHaveLength(12);
    expect(batches).toEqual([5, 5, 2]);
  });
});

describe('lastRunUntil', () => {
  it.each([
    ['no latest file', null, null],
    ['a latest file with a window', JSON.stringify({ time_window: { until: '2026-04-25T05:30:00.000Z' } }), '2026-04-25T05:30:00.000Z'],
    ['a latest file without a window', JSON.stringify({ items: [] }), null],
    ['a truncated latest file', '{"time_window": {"until": "2026', null],
  ])('%s → %s', (_name, content, expected) => {
    if (content !== null) {
      const latest = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('good-topic')), LATEST_FILE);
      fs.mkdirSync(path.dirname(latest), { recursive: true });
      fs.writeFileSync(latest, content);
    }
    expect(lastRunUntil(root, parseTenantId('acme'), parseTopicId('good-topic'))).toBe(expected);
  });
});
