/**
 * Provider fallback through Kafka: the live skills call local HTTP servers that answer in the
 * providers' documented formats. Tavily's quota is exhausted, so web search falls back to Brave;
 * Brave news answers with nothing, so news search falls back to Tavily (exhausted) and ends empty.
 * Every step is in the run's degradation log, and the run still delivers Brave's results.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, readLatestIfRun, waitFor, type Harness } from '../support/pipeline-harness.ts';

const BRAVE_WEB = {
  type: 'search',
  query: { original: 'kafka kraft migration' },
  web: {
    type: 'search',
    results: [
      { title: 'Migrating from ZooKeeper to KRaft, step by step', url: 'https://kafka-ops.example/kraft-step-by-step', description: 'How we moved forty Kafka clusters from ZooKeeper to KRaft without downtime.', page_age: '2026-11-20T08:00:00' },
      { title: 'KRaft migration status across the fleet', url: 'https://platform.example/blog/kraft-status', description: 'Six clusters remain on ZooKeeper; all move to KRaft before the December freeze.', page_age: '2026-11-27T10:00:00' },
    ],
  },
};

let harness: Harness;
let server: http.Server;
const calls: string[] = [];

beforeAll(async () => {
  server = http.createServer((request, response) => {
    calls.push(`${request.method} ${request.url?.split('?')[0]}`);
    if (request.url?.startsWith('/res/v1/web/search')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(BRAVE_WEB));
    if (request.url?.startsWith('/res/v1/news/search')) return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'news', results: [] }));
    // Tavily answers 432 when the plan's credits are used up.
    return void response.writeHead(432, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error: 'This request exceeds your plan\'s set usage limit.' } }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  harness = await createHarness('fallback', {}, {
    BRAVE_API_KEY: 'test-brave-key',
    TAVILY_API_KEY: 'test-tavily-key',
    SKRYA_BRAVE_BASE_URL: origin,
    SKRYA_TAVILY_BASE_URL: origin,
  });
  harness.addTopic('acme', 'kraft', 'web-fallback');
  await harness.start(['retriever', 'scorer', 'collector', 'sink']);
});

afterAll(async () => {
  await harness?.close();
  server?.close();
});

describe('fallback chain through Kafka', () => {
  it('walks the chain on quota exhaustion and empty results, logging every step', async () => {
    const request = await harness.request('acme', 'kraft');
    const latest = await waitFor('latest-ingest.json', () => readLatestIfRun(harness.latest('acme', 'kraft'), request.run_id));

    expect(latest.items.map((item) => item.url)).toEqual(expect.arrayContaining(['https://kafka-ops.example/kraft-step-by-step', 'https://platform.example/blog/kraft-status']));
    expect(latest.items.every((item) => item.producer === 'brave_web_search')).toBe(true);

    const log = latest.stats.degradation_log as Array<{ capability: string; from: string; to: string | null; trigger: string; code: string | null }>;
    expect(log).toContainEqual(expect.objectContaining({ capability: 'web_search', from: 'tavily_search', to: 'brave_web_search', trigger: 'quota_exhausted', code: 'QUOTA_EXHAUSTED' }));
    expect(log).toContainEqual(expect.objectContaining({ capability: 'news_search', from: 'brave_news_search', to: 'tavily_search', trigger: 'empty_results' }));
    expect(log).toContainEqual(expect.objectContaining({ capability: 'news_search', from: 'tavily_search', to: null, trigger: 'quota_exhausted' }));

    const providers = latest.stats.providers as Array<{ provider: string; capability: string; status: string; code: string | null }>;
    expect(providers).toContainEqual(expect.objectContaining({ provider: 'tavily_search', capability: 'web_search', status: 'error', code: 'QUOTA_EXHAUSTED' }));
    expect(providers).toContainEqual(expect.objectContaining({ provider: 'brave_web_search', capability: 'web_search', status: 'ok' }));
    expect(latest.stats.plan).toMatchObject({ task_id: expect.stringMatching(/^SR-[0-9a-f]{8}$/) });
    expect(calls.some((call) => call.startsWith('POST /search'))).toBe(true);
  });
});
