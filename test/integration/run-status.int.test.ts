/**
 * Continuous monitoring that tells the truth, through the real broker and every stage from the
 * retriever to the files: a second run over the same evidence reports no change and the same items;
 * a run in which every source failed and an ingest of output that holds no result never replace
 * latest-ingest.json, and show up as failed attempts; `skrya ingest` refuses output with no usable
 * result (exit 1) and publishes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir, topicDir } from '../../runtime/data-paths.ts';
import { parseRunId, parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { compactTimestamp } from '../../services/sink/file-names.ts';
import { createHarness, listFiles, runCli, waitFor, type Harness } from '../support/pipeline-harness.ts';

const TENANT = 'acme';
const TOPIC = 'kafka-ops';
const WINDOW = { since: '2026-11-01T00:00:00Z', until: '2026-11-30T00:00:00Z' };

interface Document {
  run_id: string;
  status: string;
  status_reason: string;
  last_attempt: { run_id: string; status: string; reason: string; file: string } | null;
  changes: { previous_run_id: string | null; new: unknown[]; changed: unknown[]; moved_in: unknown[]; moved_out: unknown[]; removed: unknown[] } | null;
  items: Array<Record<string, unknown>>;
}

let harness: Harness;
const ingest = () => ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC));
const readDocument = (file: string): Document | null => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as Document;
  } catch {
    return null;
  }
};
const runFileOf = (requestedAt: string) => path.join(ingest(), 'normalized', `${compactTimestamp(requestedAt)}.json`);
const withoutAttempt = (text: string) => JSON.stringify({ ...(JSON.parse(text) as object), last_attempt: null });
const withoutFetchTimes = (items: Array<Record<string, unknown>>) => JSON.stringify(items.map(({ fetched_at: _fetchedAt, ...rest }) => rest));

/** Publishes the topic's request over WINDOW under another run id and request time: the same sources, the same window. */
async function requestAgain(label: string, requestedAt: string) {
  const base = harness.buildRequest(TENANT, TOPIC, WINDOW);
  const request = { ...base, run_id: parseRunId(base.run_id.replace(/-[0-9a-f]{8}$/, `-${label}`)), requested_at: requestedAt };
  await harness.publisher.publish('retrieval-requests', topicKey({ tenant: parseTenantId(TENANT), topicId: parseTopicId(TOPIC) }), request);
  return request;
}

beforeAll(async () => {
  harness = await createHarness('run-status');
  harness.addTopic(TENANT, TOPIC, 'kafka-ops');
  await harness.start(['retriever', 'scorer', 'collector', 'sink', 'sink-raw']);
});

afterAll(async () => {
  await harness?.close();
});

describe('runs over the same evidence, failed runs and empty ingests', () => {
  let goodLatest = '';
  let goodRunId = '';

  it('two runs over the same evidence: zero changes and the same items', async () => {
    const first = await requestAgain('0000000a', '2026-11-30T00:00:00.000Z');
    const one = await waitFor('the first run', () => readDocument(runFileOf(first.requested_at)));
    expect(one).toMatchObject({ run_id: first.run_id, status: 'ok', last_attempt: null });
    expect(one.items.length).toBeGreaterThan(0);

    const second = await requestAgain('0000000b', '2026-11-30T01:00:00.000Z');
    const two = await waitFor('the second run', () => readDocument(runFileOf(second.requested_at)));
    expect(two.changes).toEqual({ previous_run_id: first.run_id, new: [], changed: [], moved_in: [], moved_out: [], removed: [] });
    // Apart from when the feed was read, item for item the same bytes: ids, order, scores.
    expect(withoutFetchTimes(two.items)).toBe(withoutFetchTimes(one.items));
    const latest = await waitFor('latest-ingest.json of the second run', () => readDocument(harness.latest(TENANT, TOPIC))?.run_id === second.run_id);
    expect(latest).toBe(true);
    goodLatest = fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8');
    goodRunId = second.run_id;
    expect(fs.readFileSync(path.join(ingest(), 'digest.md'), 'utf8')).toContain('No new, changed or removed items.');
  });

  it('a run in which every source failed is recorded, and latest-ingest.json keeps the last good run', async () => {
    // The topic's only feed is gone: the feed reader fails, so every source of the run failed.
    fs.rmSync(path.join(topicDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC)), 'feeds', 'kafka.atom.xml'));
    const failed = await requestAgain('0000000c', '2026-11-30T02:00:00.000Z');
    const record = await waitFor('the failed run', () => readDocument(runFileOf(failed.requested_at)));
    expect(record).toMatchObject({ run_id: failed.run_id, status: 'failed', changes: null, items: [] });
    expect(record.status_reason).toMatch(/^every source failed: /);

    const latest = await waitFor('latest-ingest.json naming the attempt', () => readDocument(harness.latest(TENANT, TOPIC))?.last_attempt?.run_id === failed.run_id);
    expect(latest).toBe(true);
    const text = fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8');
    expect(withoutAttempt(text)).toBe(withoutAttempt(goodLatest));
    expect(readDocument(harness.latest(TENANT, TOPIC))).toMatchObject({ run_id: goodRunId, last_attempt: { status: 'failed', file: `normalized/${compactTimestamp(failed.requested_at)}.json` } });
    const digest = fs.readFileSync(path.join(ingest(), 'digest.md'), 'utf8');
    expect(digest).toContain(`**Last attempt failed**: ${failed.run_id}`);
    expect(digest).toContain(`What follows is still the last good run, ${goodRunId}.`);
  });

  it('skrya ingest of output with no usable result exits 1 and publishes nothing; with --allow-empty it is a failed attempt', async () => {
    const inputs = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-run-status-'));
    const garbage = path.join(inputs, 'passwd');
    fs.writeFileSync(garbage, 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n');
    const args = ['ingest', '--tenant', TENANT, '--topic', TOPIC, '--producer', 'some-tool', garbage];

    const refused = await runCli(harness, args);
    expect(refused.code, refused.stderr).toBe(1);
    expect(refused.stderr).toContain('nothing was published');
    expect(refused.stdout).toBe('');

    const recorded = await runCli(harness, [...args, '--allow-empty']);
    expect(recorded.code, recorded.stderr).toBe(0);
    const runId = recorded.stdout.split(':')[0]!;
    await waitFor('latest-ingest.json naming the ingest attempt', () => readDocument(harness.latest(TENANT, TOPIC))?.last_attempt?.run_id === runId);
    const latest = fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8');
    expect(withoutAttempt(latest)).toBe(withoutAttempt(goodLatest));
    expect(readDocument(harness.latest(TENANT, TOPIC))!.last_attempt).toMatchObject({ status: 'failed', reason: expect.stringContaining('some-tool (web_search) error — EMPTY_RESULTS') });
    // The refused ingest never reached the pipeline: the only raw file of the tool is the recorded attempt's.
    // (Both would share one partition, in order: once the second's raw file is there, the first's would be too.)
    const rawFiles = await waitFor('the raw file of the recorded attempt', () => {
      const files = listFiles(path.join(ingest(), 'raw')).filter((name) => name.includes('-some-tool-'));
      return files.length > 0 && files;
    });
    expect(rawFiles).toHaveLength(1);
    fs.rmSync(inputs, { recursive: true, force: true });
  });
});
