import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir, sourcesFile } from '../../runtime/data-paths.ts';
import type { MonitorState } from '../../schemas/messages.ts';
import { loadFleet, type FleetReaders } from './fleet.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';
import { monitorStateSchema } from '../../schemas/messages.ts';

const NOW = new Date('2026-12-01T12:00:00.000Z');
let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fleet-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

function addTopic(tenant: string, topicId: string, cadence: unknown): void {
  const file = sourcesFile(root, parseTenantId(tenant), parseTopicId(topicId));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify({ ...(cadence === null ? {} : { cadence }), sources: [{ id: 'feeds', type: 'runtime-retrieval', capabilities: ['rss_feed'], feeds: ['a.xml'] }] }));
}

function addRun(tenant: string, topicId: string, stamp: string, fields: { status: string; until: string; providers?: unknown[] }): void {
  const dir = path.join(ingestDir(root, parseTenantId(tenant), parseTopicId(topicId)), 'normalized');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, `${stamp}.json`), JSON.stringify({
    tenant, topic_id: topicId, run_id: `run-${stamp.toLowerCase()}`, status: fields.status, status_reason: 'why', last_attempt: null,
    run_requested_at: fields.until, retrieved_at: fields.until, time_window: { since: '2026-11-01T00:00:00.000Z', until: fields.until }, intent: null, queries: [],
    items: [], changes: null,
    stats: { raw_responses: 1, raw_items: 4, accepted: 2, downweighted: 1, quarantined: 0, dropped: 1, normalize_failures: 0, kept: 3, merged_duplicates: 0, cut_by_max_items: 0, complete: true, providers: fields.providers ?? [], degradation_log: [], plan: null },
  }));
}

const readers = (state: Map<string, MonitorState>, runs = 0): FleetReaders => ({
  monitorState: async () => state,
  runsOnDay: async () => () => runs,
});

describe('loadFleet', () => {
  it('takes the next run from the monitor\'s state, and the last run from the newest record, failed or not', async () => {
    addTopic('acme', 'news', { every_minutes: 60 });
    addRun('acme', 'news', '20261201T100000000Z', { status: 'ok', until: '2026-12-01T10:00:00.000Z' });
    addRun('acme', 'news', '20261201T110000000Z', { status: 'failed', until: '2026-12-01T11:00:00.000Z', providers: [{ provider: 'brave_web_search', capability: 'web_search', status: 'not_connected', code: 'NOT_CONFIGURED', message: 'BRAVE_API_KEY is not set', calls: 0, results: 0 }] });
    const state = new Map([['acme/news', monitorStateSchema.parse({ tenant: 'acme', topic_id: 'news', last_run_id: 'run-x', last_window_since: '2026-12-01T10:00:00.000Z', last_window_until: '2026-12-01T11:30:00.000Z', fired_at: '2026-12-01T11:30:00.000Z' })]]);
    const fleet = await loadFleet(root, { kind: 'operator' }, readers(state), NOW);
    const [topic] = fleet.tenants[0]!.topics;
    expect(topic!.cadence).toBe('every 60 min');
    expect(topic!.nextRunAt).toBe('2026-12-01T12:30:00.000Z');
    expect(topic!.lastRun!.stamp).toBe('20261201T110000000Z');
    expect(topic!.providerProblems).toEqual([{ provider: 'brave_web_search', capability: 'web_search', status: 'not_connected', message: 'BRAVE_API_KEY is not set' }]);
    expect(topic!.history.map((entry) => entry.status)).toEqual(['ok', 'failed']);
  });

  it('is due now when the cadence has passed since latest-ingest.json\'s window, when the monitor state cannot be read', async () => {
    addTopic('acme', 'news', { every_minutes: 60 });
    fs.mkdirSync(ingestDir(root, parseTenantId('acme'), parseTopicId('news')), { recursive: true });
    fs.writeFileSync(path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('news')), 'latest-ingest.json'), JSON.stringify({ time_window: { until: '2026-12-01T09:00:00.000Z' } }));
    const failing: FleetReaders = { monitorState: async () => Promise.reject(new Error('broker down')), runsOnDay: async () => () => 0 };
    const fleet = await loadFleet(root, { kind: 'operator' }, failing, NOW);
    expect(fleet.tenants[0]!.topics[0]!.nextRunAt).toBeNull();
    expect(fleet.notes.join()).toContain('broker down');
  });

  it('shows a tenant token its own tenant only, with its quota use', async () => {
    addTopic('acme', 'news', null);
    addTopic('globex', 'markets', null);
    fs.writeFileSync(path.join(root, 'acme', 'tenant.json'), JSON.stringify({ quotas: { requests_per_day: 10 } }));
    const fleet = await loadFleet(root, { kind: 'tenant', tenant: parseTenantId('acme') }, readers(new Map(), 3), NOW);
    expect(fleet.tenants.map((tenant) => [tenant.tenant, tenant.requestsPerDay, tenant.runsToday])).toEqual([['acme', 10, 3]]);
  });

  it('reports a broken sources.json on its row and keeps the others', async () => {
    addTopic('acme', 'news', null);
    fs.mkdirSync(path.dirname(sourcesFile(root, parseTenantId('acme'), parseTopicId('broken'))), { recursive: true });
    fs.writeFileSync(sourcesFile(root, parseTenantId('acme'), parseTopicId('broken')), '{ nope');
    const fleet = await loadFleet(root, { kind: 'operator' }, readers(new Map()), NOW);
    const rows = fleet.tenants[0]!.topics;
    expect(rows.map((row) => [row.topicId, row.problem === null])).toEqual([['broken', false], ['news', true]]);
    expect(rows[1]!.cadence).toBe('daily (default)');
  });
});
