/**
 * Spec 000's runtime retrieval through third-party skills, through the real broker: tool output
 * piped into `skrya ingest` (JSON and plain text) comes out in latest-ingest.json normalized and
 * screened with its producer recorded, and a capability bound to a local script runs it once per
 * sub-query. sources.json is never changed.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir, sourcesFile } from '../../runtime/data-paths.ts';
import { parseBindFlag } from '../../services/retriever/bindings.ts';
import { createHarness, listFiles, readLatestIfRun, waitFor, type Harness } from '../support/pipeline-harness.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const SCRIPT = path.resolve('test/fixtures/bin/fake-search.mjs');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

let harness: Harness;
let callLog: string;

beforeAll(async () => {
  harness = await createHarness('runtime-skills');
  harness.addTopic('acme', 'kraft', 'bound-web');
  callLog = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-binding-')), 'calls.jsonl');
  const binding = parseBindFlag(`web_search=${process.execPath} ${SCRIPT} --log ${callLog} --query {query} --since {since} --until {until} --max {max_items}`);
  await harness.start(['retriever', 'scorer', 'collector', 'sink', 'sink-raw'], { bindings: [{ ...binding, producer: 'fake-search' }] });
});

afterAll(async () => {
  await harness?.close();
});

function ingest(file: string, producer: string) {
  const config = harness.pipeline.config;
  return spawnSync(process.execPath, ['bin/skrya.js', 'ingest', '--tenant', 'acme', '--topic', 'kraft', '--producer', producer, file], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, SKRYA_KAFKA_BROKERS: config.SKRYA_KAFKA_BROKERS, SKRYA_REGISTRY_URL: config.SKRYA_REGISTRY_URL, SKRYA_TOPIC_PREFIX: config.SKRYA_TOPIC_PREFIX, SKRYA_DATA_ROOT: harness.dataRoot, SKRYA_LOG_LEVEL: 'warn' },
  });
}

describe('skrya ingest', () => {
  it.each([
    ['third-party JSON', 'test/fixtures/ingest/agent-output.json', 'agent-reach', ['https://kafka.apache.org/blog/kraft-only', 'https://ops.example/kraft-controllers']],
    ['plain text', 'test/fixtures/ingest/agent-notes.txt', 'notes-tool', ['https://wiki.example/kafka/kraft-checklist', 'https://ops.example/kraft-quorum-sizing']],
  ])('normalizes and screens %s output, recording the producer', async (_kind, file, producer, urls) => {
    const sources = sourcesFile(harness.dataRoot, parseTenantId('acme'), parseTopicId('kraft'));
    const before = sha256(sources);
    const result = ingest(file, producer);
    expect(result.status, result.stderr).toBe(0);
    const runId = result.stdout.split(':')[0]!;
    const latest = await waitFor(`latest-ingest.json of ${runId}`, () => readLatestIfRun(harness.latest('acme', 'kraft'), runId));
    expect(latest.items.map((item) => item.url).sort()).toEqual([...urls].sort());
    expect(latest.items.every((item) => item.producer === producer && typeof item.verdict === 'string' && 'injection' in item)).toBe(true);
    const document = JSON.parse(fs.readFileSync(harness.latest('acme', 'kraft'), 'utf8')) as { producer: { kind: string; name: string; persistent: boolean } };
    expect(document.producer).toEqual(expect.objectContaining({ kind: 'runtime-skill', name: producer, persistent: false }));
    const raw = await waitFor('the raw file', () => listFiles(path.join(ingestDir(harness.dataRoot, parseTenantId('acme'), parseTopicId('kraft')), 'raw')).find((name) => name.includes(`-${producer}-`)));
    expect(fs.readFileSync(path.join(ingestDir(harness.dataRoot, parseTenantId('acme'), parseTopicId('kraft')), 'raw', raw), 'utf8')).toContain(fs.readFileSync(file, 'utf8'));
    expect(sha256(sources)).toBe(before);
    expect(fs.readFileSync(sources, 'utf8')).not.toContain(producer);
  });

  it('refuses a skrya.ingest.v1 document for another topic or version', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-ingest-'));
    const wrongTopic = path.join(dir, 'wrong-topic.json');
    fs.writeFileSync(wrongTopic, JSON.stringify({ interface_version: 'skrya.ingest.v1', topic_id: 'other', items: [] }));
    const wrongVersion = path.join(dir, 'wrong-version.json');
    fs.writeFileSync(wrongVersion, JSON.stringify({ interface_version: 'skrya.ingest.v0', topic_id: 'kraft', items: [] }));
    for (const [file, message] of [[wrongTopic, 'is for topic "other", not "kraft"'], [wrongVersion, 'interface_version is "skrya.ingest.v0"']] as const) {
      const result = ingest(file, 'agent-reach');
      expect(result.status).toBe(2);
      expect(result.stderr).toContain(message);
    }
  });
});

describe('a capability bound to a local script', () => {
  it('runs the script once per sub-query with the request fields as arguments', async () => {
    // After the ingested runs: latest-ingest.json only ever moves to a newer run.
    const until = new Date();
    const request = await harness.request('acme', 'kraft', { since: new Date(until.getTime() - 3 * 86_400_000).toISOString(), until: until.toISOString() });
    const latest = await waitFor('latest-ingest.json of the bound run', () => readLatestIfRun(harness.latest('acme', 'kraft'), request.run_id));
    const calls = fs.readFileSync(callLog, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as string[]);
    const queries = calls.map((args) => args[args.indexOf('--query') + 1]);
    for (const subQuery of request.sub_queries) expect(queries.filter((query) => query === subQuery)).toHaveLength(1);
    for (const args of calls) {
      expect(args[args.indexOf('--since') + 1]).toBe(request.time_window.since);
      expect(args[args.indexOf('--max') + 1]).toBe(String(request.max_items));
    }
    expect(latest.items.length).toBeGreaterThan(0);
    expect(latest.items.every((item) => item.producer === 'fake-search')).toBe(true);
  });
});
