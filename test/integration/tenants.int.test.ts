/**
 * Multi-tenant fleet controls against the real broker and registry.
 *
 * Flood: tenant `flood` sends FLOOD requests (daily quota FLOOD_QUOTA) on topics that all share one
 * partition with tenant `calm`'s topic, then `calm` sends one. Every flood request past the quota
 * closes with a quota status and no provider call; calm's request, behind the whole flood in its
 * partition, completes within the bound the scheduler gives (see FAIRNESS_BOUND_MS).
 *
 * Credentials: tenant `acme` names its Brave key by reference; `globex` references a variable that
 * is not set. The provider sees acme's key (not the operator's), globex's Brave cannot be connected,
 * and the key appears in no log line, Kafka message or file.
 */
import '../../runtime/kafkajs-replacements.ts';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Partitioners, type Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRunId, topicKey } from '../../runtime/ids.ts';
import type { RawResult, RetrievalRequest } from '../../schemas/messages.ts';
import type { ServiceName } from '../../services/run-services.ts';
import { TOPIC_NAMES, physicalTopic } from '../../topics/topics.ts';
import { createHarness, readLatestIfRun, waitFor, type Harness } from '../support/pipeline-harness.ts';
import { readMessages } from '../support/kafka-context.ts';

/** A harness whose stages log at debug into `logs`, with a watch on raw-results and tenant settings. */
interface Fleet extends Omit<Harness, 'request'> {
  logs: () => string;
  /** RUN_END markers seen on raw-results, by run id, with the time they arrived. */
  runEnds: Map<string, { at: number; marker: Extract<RawResult, { kind: 'RUN_END' }> }>;
  responses: Map<string, number>;
  setTenant(tenant: string, config: unknown): void;
  /** The topic's request under its own run id (the window is the same for every run), not yet published. */
  request(tenant: string, topicId: string, runId: string): RetrievalRequest;
}

async function createFleet(label: string, providerEnv: Record<string, string>, stages: readonly ServiceName[]): Promise<Fleet> {
  const lines: string[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const harness = await createHarness(label, { SKRYA_RUN_TIMEOUT_MS: '60000', SKRYA_LOG_LEVEL: 'debug' }, providerEnv, capture);
  const { pipeline, dataRoot } = harness;
  const runEnds: Fleet['runEnds'] = new Map();
  const responses = new Map<string, number>();
  const watcher: Consumer = pipeline.kafka.consumer({ groupId: `watch-${randomBytes(6).toString('hex')}`, maxWaitTimeInMs: 20 });
  await watcher.connect();
  await watcher.subscribe({ topic: physicalTopic(pipeline.port.naming, 'raw-results'), fromBeginning: true });
  await watcher.run({
    eachMessage: async ({ message }) => {
      if (!message.value) return;
      const value = await pipeline.port.serde.decode('raw-results', message.value);
      if (value.kind === 'RUN_END') runEnds.set(value.run_id, { at: Date.now(), marker: value });
      else responses.set(value.run_id, (responses.get(value.run_id) ?? 0) + 1);
    },
  });
  await harness.start(stages);
  return {
    ...harness,
    logs: () => lines.join(''),
    runEnds,
    responses,
    setTenant: (tenant, tenantConfig) => {
      fs.mkdirSync(path.join(dataRoot, tenant), { recursive: true });
      fs.writeFileSync(path.join(dataRoot, tenant, 'tenant.json'), JSON.stringify(tenantConfig));
    },
    request: (tenant, topicId, runId) => ({ ...harness.buildRequest(tenant, topicId), run_id: parseRunId(runId) }),
    async close() {
      await watcher.disconnect();
      await harness.close();
    },
  };
}

const publish = (fleet: Fleet, request: RetrievalRequest) => fleet.publisher.publish('retrieval-requests', topicKey({ tenant: request.tenant, topicId: request.topic_id }), request);

/** The partition the producers' default partitioner gives a key on a 6-partition topic. */
const partitioner = Partitioners.DefaultPartitioner();
const partitionOf = (key: string) => partitioner({ topic: 'retrieval-requests', partitionMetadata: Array.from({ length: 6 }, (_unused, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] })), message: { key, value: null } });

/**
 * A Brave-compatible search API answering after `delayMs`: provider calls that take time, like real
 * ones. It states a paid plan's rate (`X-RateLimit-Policy: 20;w=1`) as Brave does, so the per-key
 * rate limiter spaces calls to 20/s rather than the declared free plan's 1/s and the calls' own
 * time, not the key's rate, is what the fairness bound measures.
 */
async function slowBrave(delayMs: number): Promise<{ origin: string; calls: () => number; close: () => void }> {
  let calls = 0;
  const server = http.createServer((_request, response) => {
    calls += 1;
    setTimeout(() => response.writeHead(200, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '20, 20000000',
      'x-ratelimit-policy': '20;w=1, 20000000;w=2592000',
      'x-ratelimit-remaining': '19, 19999000',
      'x-ratelimit-reset': '1, 1419704',
    }).end(JSON.stringify({
      type: 'search',
      web: { type: 'search', results: [{ title: 'KRaft migration status', url: `https://kafka.example/kraft/${calls}`, description: 'Six clusters remain on ZooKeeper.', page_age: '2026-11-27T10:00:00' }] },
    })), delayMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls: () => calls, close: () => server.close() };
}

describe('a flooding tenant', () => {
  const FLOOD = 400;
  const FLOOD_QUOTA = 30;
  const FLOOD_TOPICS = 8;
  const CALL_MS = 100;
  let fleet: Fleet;
  let brave: Awaited<ReturnType<typeof slowBrave>>;
  const floodTopics: string[] = [];

  beforeAll(async () => {
    brave = await slowBrave(CALL_MS);
    fleet = await createFleet('tenants-flood', { BRAVE_API_KEY: 'flood-test-key', SKRYA_BRAVE_BASE_URL: brave.origin }, ['retriever', 'scorer', 'collector', 'sink']);
    fleet.addTopic('calm', 'news', 'bound-web');
    fleet.setTenant('calm', { quotas: { requests_per_day: 5 } });
    fleet.setTenant('flood', { quotas: { requests_per_day: FLOOD_QUOTA, items_per_run: 2 }, concurrency: 2 });
    // Flood topics on calm's partition: calm's request is read after every flood request.
    const shared = partitionOf('calm/news');
    for (let index = 0; floodTopics.length < FLOOD_TOPICS; index += 1) if (partitionOf(`flood/topic-${index}`) === shared) floodTopics.push(`topic-${index}`);
    for (const topicId of floodTopics) fleet.addTopic('flood', topicId, 'bound-web');
  });

  afterAll(async () => {
    await fleet?.close();
    brave?.close();
  });

  it('hits its quota with a clear status while the other tenant\'s run completes within the bound', async () => {
    // Calm alone first: its run on an idle retriever (claim, Brave calls at CALL_MS each, tick).
    const alone = fleet.request('calm', 'news', 'run-calm-alone');
    const aloneSent = Date.now();
    await publish(fleet, alone);
    const aloneMs = (await waitFor('calm alone', () => fleet.runEnds.get(alone.run_id))).at - aloneSent;
    /**
     * The bound on calm's run behind the flood. Its request is read after the flood requests ahead
     * of it in the partition (queued, not run: ~1 ms each), starts at once (flood holds at most 4
     * of the 8 run slots), and each of its Brave calls (Brave allows one call in flight) waits
     * behind at most the flood's 2 calls in flight or queued (its tenant concurrency) before its
     * own: at most 3 times its run alone. 1 s covers a slow claim round trip on a busy broker.
     */
    const boundMs = FLOOD + 3 * aloneMs + 1_000;

    const floodSent = Date.now();
    const flood = Array.from({ length: FLOOD }, (_unused, index) => fleet.request('flood', floodTopics[index % FLOOD_TOPICS]!, `run-flood-${index}`));
    for (let start = 0; start < FLOOD; start += 50) await Promise.all(flood.slice(start, start + 50).map((request) => publish(fleet, request)));
    const calm = fleet.request('calm', 'news', 'run-calm-behind-flood');
    const calmSent = Date.now();
    await publish(fleet, calm);
    const calmLatestFile = path.join(fleet.dataRoot, 'calm', 'runs', 'news', 'ingest', 'latest-ingest.json');
    const calmWritten = waitFor('calm latest-ingest.json', () => readLatestIfRun(calmLatestFile, calm.run_id), 120_000).then((document) => ({ document, ms: Date.now() - calmSent }));

    const calmEnd = await waitFor('calm behind the flood', () => fleet.runEnds.get(calm.run_id), 120_000);
    const calmMs = calmEnd.at - calmSent;
    const floodOpenAtCalm = flood.filter((request) => !fleet.runEnds.has(request.run_id)).length;
    await waitFor('every flood run closed', () => flood.every((request) => fleet.runEnds.has(request.run_id)), 180_000);
    const floodEnds = flood.map((request) => fleet.runEnds.get(request.run_id)!);
    const floodDrainedMs = Math.max(...floodEnds.map((end) => end.at)) - floodSent;
    const { document: calmLatest, ms: calmFileMs } = await calmWritten;
    console.info(JSON.stringify({ fairness: { flood: FLOOD, floodQuota: FLOOD_QUOTA, callMs: CALL_MS, aloneMs, calmBehindFloodMs: calmMs, boundMs, floodRunsOpenWhenCalmClosed: floodOpenAtCalm, floodDrainedMs, calmLatestFileMs: calmFileMs, braveCalls: brave.calls() } }));

    // Flood: exactly the quota ran; every other run closed with the quota status and no provider call.
    const refusedByQuota = (end: (typeof floodEnds)[number]) => end.marker.run_end.provider_status.some((status) => status.code === 'TENANT_QUOTA_EXCEEDED');
    const admitted = floodEnds.filter((end) => !refusedByQuota(end));
    const refused = floodEnds.filter(refusedByQuota);
    expect(admitted).toHaveLength(FLOOD_QUOTA);
    expect(refused).toHaveLength(FLOOD - FLOOD_QUOTA);
    for (const end of refused) {
      expect(end.marker.run_end.provider_status).toEqual([expect.objectContaining({ provider: 'tenant', status: 'skipped', code: 'TENANT_QUOTA_EXCEEDED', message: expect.stringMatching(new RegExp(`^quota exceeded: \\d+ requests today, limit ${FLOOD_QUOTA}$`)), calls: 0 })]);
      expect(Number(/(\d+) requests/.exec(end.marker.run_end.provider_status[0]!.message ?? '')?.[1])).toBeGreaterThan(FLOOD_QUOTA);
      expect(end.marker.run_end.response_count).toBe(0);
      expect(fleet.responses.get(end.marker.run_id)).toBeUndefined();
    }
    // Admitted flood runs were cut to the tenant's items per run, and say so.
    for (const end of admitted) {
      expect(end.marker.request.max_items).toBe(2);
      expect(end.marker.run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'tenant', status: 'ok', message: 'items per run cut to 2 by the tenant quota (the request asked for 20)' }));
      expect(end.marker.run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'brave_web_search', status: 'ok' }));
    }

    // Calm is unaffected: its run searched, closed within the bound, and long before the flood drained.
    expect(calmEnd.marker.run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'brave_web_search', status: 'ok' }));
    expect(calmLatest.items.length).toBeGreaterThan(0);
    expect(calmMs).toBeLessThanOrEqual(boundMs);
    expect(floodOpenAtCalm).toBeGreaterThan(0);

    // The usage log holds the day's claims; its first FLOOD_QUOTA distinct flood runs are exactly those admitted.
    const { kafka } = fleet.pipeline;
    const { naming } = fleet.pipeline.port;
    const admin = kafka.admin();
    await admin.connect();
    const claimCount = (await admin.fetchTopicOffsets(physicalTopic(naming, 'tenant-usage'))).reduce((sum, partition) => sum + Number(partition.high), 0);
    await admin.disconnect();
    const claims = await Promise.all((await readMessages(kafka, physicalTopic(naming, 'tenant-usage'), claimCount)).map((message) => fleet.pipeline.port.serde.decode('tenant-usage', message.value)));
    const floodClaims = [...new Set(claims.filter((claim) => claim.tenant === 'flood').map((claim) => claim.run_id))];
    expect(floodClaims.slice(0, FLOOD_QUOTA).sort()).toEqual(admitted.map((end) => end.marker.run_id).sort());
    expect(new Set(claims.filter((claim) => claim.tenant === 'calm').map((claim) => claim.run_id))).toEqual(new Set([alone.run_id, calm.run_id]));
  });
});

describe('provider credentials by reference', () => {
  const acmeSecret = `sk-acme-${randomBytes(12).toString('hex')}`;
  const operatorSecret = `sk-operator-${randomBytes(12).toString('hex')}`;
  const tokens: string[] = [];
  let server: http.Server;
  let fleet: Fleet;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      tokens.push(String(request.headers['x-subscription-token'] ?? ''));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
        type: 'search',
        web: { type: 'search', results: [{ title: 'KRaft is the default', url: 'https://kafka.example/kraft', description: 'ZooKeeper mode is gone in Kafka 4.', page_age: '2026-11-20T08:00:00' }] },
      }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fleet = await createFleet('tenants-credentials', { BRAVE_API_KEY: operatorSecret, ACME_BRAVE_API_KEY: acmeSecret, SKRYA_BRAVE_BASE_URL: origin }, ['retriever', 'scorer', 'collector', 'sink', 'sink-raw']);
    for (const tenant of ['acme', 'globex']) {
      fleet.addTopic(tenant, 'kraft', 'bound-web');
      fleet.setTenant(tenant, { credentials: { BRAVE_API_KEY: `env:${tenant.toUpperCase()}_BRAVE_API_KEY` } });
    }
  });

  afterAll(async () => {
    await fleet?.close();
    server?.close();
  });

  it('each tenant\'s provider calls use its own key; a missing one cannot be connected; no secret leaks', async () => {
    const acme = fleet.request('acme', 'kraft', 'run-acme-1');
    const globex = fleet.request('globex', 'kraft', 'run-globex-1');
    await publish(fleet, acme);
    await publish(fleet, globex);
    const acmeLatest = await waitFor('acme latest', () => readLatestIfRun(path.join(fleet.dataRoot, 'acme', 'runs', 'kraft', 'ingest', 'latest-ingest.json'), acme.run_id));
    // globex's only source cannot be connected: its run is a failed attempt, named in its digest, never its latest.
    const globexIngest = path.join(fleet.dataRoot, 'globex', 'runs', 'kraft', 'ingest');
    await waitFor('globex attempt recorded', () => (fs.existsSync(path.join(globexIngest, 'digest.md')) && fs.readFileSync(path.join(globexIngest, 'digest.md'), 'utf8').includes(globex.run_id)) || null);
    expect(fs.existsSync(path.join(globexIngest, 'latest-ingest.json'))).toBe(false);
    const globexEnd = await waitFor('globex run end', () => fleet.runEnds.get(globex.run_id));

    // The provider saw acme's key only: never the operator's, and nothing for globex.
    expect(tokens.length).toBeGreaterThan(0);
    expect(new Set(tokens)).toEqual(new Set([acmeSecret]));
    expect(acmeLatest.items.map((item) => item.url)).toContain('https://kafka.example/kraft');
    expect(globexEnd.marker.run_end.provider_status).toContainEqual(expect.objectContaining({
      provider: 'brave_web_search', status: 'not_connected', message: 'cannot be connected automatically: BRAVE_API_KEY is not set',
    }));

    // No secret in any log line, any message on any topic (keys, values, headers), or any file.
    const { kafka } = fleet.pipeline;
    const { naming } = fleet.pipeline.port;
    const admin = kafka.admin();
    await admin.connect();
    const everything: string[] = [fleet.logs()];
    for (const topic of TOPIC_NAMES) {
      const physical = physicalTopic(naming, topic);
      const count = (await admin.fetchTopicOffsets(physical)).reduce((sum, partition) => sum + Number(partition.high) - Number(partition.low), 0);
      if (count === 0) continue;
      for (const message of await readMessages(kafka, physical, count)) everything.push(message.key ?? '', message.value.toString('latin1'), JSON.stringify(message.headers));
    }
    await admin.disconnect();
    for (const entry of fs.readdirSync(fleet.dataRoot, { recursive: true, withFileTypes: true })) {
      if (entry.isFile()) everything.push(fs.readFileSync(path.join(entry.parentPath, entry.name), 'latin1'));
    }
    const haystack = everything.join('\n');
    expect(haystack).toContain('run-acme-1');
    expect(haystack).toContain('skill_call');
    expect(haystack.includes(acmeSecret)).toBe(false);
    expect(haystack.includes(operatorSecret)).toBe(false);
  });
});
