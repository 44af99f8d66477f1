import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir, LATEST_FILE, sourcesFile } from '../../runtime/data-paths.ts';
import { createLogger } from '../../runtime/logger.ts';
import { retrievalRequestSchema, type RetrievalRequest } from '../../schemas/messages.ts';
import { createMonitor, lastRunUntil } from './monitor.ts';

const logger = createLogger({ level: 'silent' });
let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-monitor-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function writeSources(tenant: string, topicId: string, text: string): string {
  const file = sourcesFile(root, tenant, topicId);
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

function recorder() {
  const published: RetrievalRequest[] = [];
  return { published, publish: async (request: RetrievalRequest) => void published.push(request) };
}

describe('createMonitor().tick', () => {
  it('publishes the valid topic, reports the broken one with its file and line, and does not re-fire right after', async () => {
    writeSources('acme', 'good-topic', VALID);
    const brokenFile = writeSources('acme', 'broken-topic', MALFORMED);
    const { published, publish } = recorder();
    const monitor = createMonitor({ dataRoot: root, logger, publish });
    const now = new Date('2026-04-25T06:00:00.000Z');

    const first = await monitor.tick(now);
    expect(published).toHaveLength(1);
    expect(retrievalRequestSchema.safeParse(published[0]).success).toBe(true);
    expect(published[0]).toMatchObject({ tenant: 'acme', topic_id: 'good-topic', trigger: 'SCHEDULE', time_window: { since: '2026-04-24T18:00:00.000Z', until: now.toISOString() } });
    expect(first.emitted).toEqual([{ tenant: 'acme', topicId: 'good-topic', runId: published[0]!.run_id }]);
    expect(first.skipped).toHaveLength(1);
    expect(first.skipped[0]).toMatchObject({ tenant: 'acme', topicId: 'broken-topic' });
    expect(first.skipped[0]!.problem).toContain(`${brokenFile}:6:`);

    const second = await monitor.tick(new Date(now.getTime() + 1_000));
    expect(second.emitted).toEqual([]);
    expect(published).toHaveLength(1);
    expect(second.skipped.map((entry) => entry.topicId)).toEqual(['broken-topic']);
  });

  it('fires again once the cadence has passed, with the window starting where the last one ended', async () => {
    writeSources('acme', 'good-topic', VALID);
    const { published, publish } = recorder();
    const monitor = createMonitor({ dataRoot: root, logger, publish });
    await monitor.tick(new Date('2026-04-25T06:00:00.000Z'));
    await monitor.tick(new Date('2026-04-25T06:59:00.000Z'));
    await monitor.tick(new Date('2026-04-25T07:00:00.000Z'));
    expect(published.map((request) => request.time_window)).toEqual([
      { since: '2026-04-24T18:00:00.000Z', until: '2026-04-25T06:00:00.000Z' },
      { since: '2026-04-25T06:00:00.000Z', until: '2026-04-25T07:00:00.000Z' },
    ]);
    expect(new Set(published.map((request) => request.run_id)).size).toBe(2);
  });

  it('starts the window at the end of the run the sink last wrote', async () => {
    writeSources('acme', 'good-topic', VALID);
    const latest = path.join(ingestDir(root, 'acme', 'good-topic'), LATEST_FILE);
    fs.mkdirSync(path.dirname(latest), { recursive: true });
    fs.writeFileSync(latest, JSON.stringify({ time_window: { since: '2026-04-25T03:00:00.000Z', until: '2026-04-25T05:30:00.000Z' } }));
    const { published, publish } = recorder();
    const monitor = createMonitor({ dataRoot: root, logger, publish });

    expect((await monitor.tick(new Date('2026-04-25T06:00:00.000Z'))).emitted).toEqual([]);
    await monitor.tick(new Date('2026-04-25T06:30:00.000Z'));
    expect(published.map((request) => request.time_window.since)).toEqual(['2026-04-25T05:30:00.000Z']);
  });

  it('reports a topic whose publish failed and retries it on the next tick', async () => {
    writeSources('acme', 'good-topic', VALID);
    let fail = true;
    const published: RetrievalRequest[] = [];
    const monitor = createMonitor({
      dataRoot: root,
      logger,
      publish: async (request) => {
        if (fail) throw new Error('broker away');
        published.push(request);
      },
    });
    const now = new Date('2026-04-25T06:00:00.000Z');
    expect((await monitor.tick(now)).skipped.map((entry) => entry.topicId)).toEqual(['good-topic']);
    fail = false;
    expect((await monitor.tick(now)).emitted.map((entry) => entry.topicId)).toEqual(['good-topic']);
    expect(published).toHaveLength(1);
  });

  it('ignores folders whose names are not valid ids', async () => {
    writeSources('acme', 'good-topic', VALID);
    fs.mkdirSync(path.join(root, 'acme', 'topics', 'Not_Valid'), { recursive: true });
    fs.writeFileSync(path.join(root, 'acme', 'topics', 'Not_Valid', 'sources.json'), VALID);
    const { published, publish } = recorder();
    const report = await createMonitor({ dataRoot: root, logger, publish }).tick(new Date('2026-04-25T06:00:00.000Z'));
    expect(report.emitted.map((entry) => entry.topicId)).toEqual(['good-topic']);
    expect(report.skipped).toEqual([]);
    expect(published).toHaveLength(1);
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
      const latest = path.join(ingestDir(root, 'acme', 'good-topic'), LATEST_FILE);
      fs.mkdirSync(path.dirname(latest), { recursive: true });
      fs.writeFileSync(latest, content);
    }
    expect(lastRunUntil(root, 'acme', 'good-topic')).toBe(expected);
  });
});
