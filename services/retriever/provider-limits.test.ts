/**
 * A first run on real keys, against a local server that answers as Brave does: it allows one
 * request per second per subscription token and answers anything faster with Brave's 429 and
 * X-RateLimit headers (no Retry-After). Runs go through the retriever handler with the real clock,
 * so the spacing is measured from the server's own request log.
 */
import { readFileSync } from 'node:fs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type http from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { createMetricsRegistry, createSkillMetrics } from '../../runtime/metrics.ts';
import { retrieve } from './testing/retrieve.ts';
import type { RawResult, RetrievalRequest } from '../../schemas/messages.ts';
import { retrievalRequestFixture } from '../../test/fixtures/messages.ts';
import { createRetriever } from './handler.ts';
import { createCredentialRateLimiter, type CredentialRateLimiter } from '../../domain/skills/adapters/credential-rate-limiter.ts';
import { sleep } from '../../domain/skills/adapters/retry-policy.ts';
import { builtinSkills } from '../../domain/skills/builtin-skills.ts';
import { createSkillRegistry, type SkillRegistry } from '../../domain/skills/registry.ts';
import { sendJson, startLocalServer, type LocalServer, type RecordedRequest } from '../../domain/skills/testing/local-server.ts';
import { parseRunId, parseTenantId } from '../../runtime/ids.ts';

const fixture = (file: string) => readFileSync(new URL(`../../domain/skills/providers/${file}`, import.meta.url), 'utf8');
const NEWS = fixture('brave-news-search/fixtures/news-kafka-4-release.json');
const SITE = fixture('site-search/fixtures/site-kafka-consumer-groups.json');
const RATE_LIMITED = fixture('brave-web-search/fixtures/errors/rate-limited.json');

const KEY = 'BSA-first-real-key';
const systemClock = { now: () => new Date() };

/** Brave's per-second window as the server sees it: at most one accepted request per 1000 ms per token. */
function braveAt1PerSecond(options: { firstAnswer429?: boolean } = {}) {
  const accepted = new Map<string, number>();
  let refusedFirst = false;
  return (request: RecordedRequest, response: http.ServerResponse) => {
    const token = String(request.headers['x-subscription-token']);
    const last = accepted.get(token);
    const tooSoon = last !== undefined && request.receivedAt - last < 1_000;
    if (tooSoon || (options.firstAnswer429 && !refusedFirst)) {
      refusedFirst = true;
      const resetSeconds = tooSoon ? Math.ceil((1_000 - (request.receivedAt - last!)) / 1_000) : 1;
      sendJson(response, 429, RATE_LIMITED, {
        'x-ratelimit-limit': '1, 15000',
        'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
        'x-ratelimit-remaining': '0, 14990',
        'x-ratelimit-reset': `${resetSeconds}, 1419704`,
      });
      return;
    }
    accepted.set(token, request.receivedAt);
    const body = request.path.startsWith('/res/v1/news/') ? NEWS : SITE;
    response.writeHead(200, {
      'content-type': 'application/json',
      'x-ratelimit-limit': '1, 15000',
      'x-ratelimit-policy': '1;w=1, 15000;w=2592000',
      'x-ratelimit-remaining': '0, 14990',
      'x-ratelimit-reset': '1, 1419704',
    }).end(body);
  };
}

let server: LocalServer | null = null;
let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-limits-'));
});
afterEach(async () => {
  await server?.close();
  server = null;
  fs.rmSync(root, { recursive: true, force: true });
});

async function registryOn(origin: string, limiter: CredentialRateLimiter, breaker = { failureThreshold: 1 }): Promise<SkillRegistry> {
  return createSkillRegistry({
    skills: builtinSkills(),
    adapters: 'live',
    env: { BRAVE_API_KEY: KEY, SKRYA_BRAVE_BASE_URL: origin },
    logger: createLogger({ level: 'silent' }),
    metrics: createSkillMetrics(createMetricsRegistry('limits-test')),
    clock: systemClock,
    rateLimiter: limiter,
    breaker,
  });
}


const markerOf = (messages: RawResult[], runId: string) => messages.find((message): message is Extract<RawResult, { kind: 'RUN_END' }> => message.kind === 'RUN_END' && message.run_id === runId)!;

function braveRequest(overrides: Partial<RetrievalRequest> = {}): RetrievalRequest {
  return retrievalRequestFixture({
    capabilities: ['news_search', 'site_search'],
    intent: null,
    queries: ['kafka 4.0 release'],
    sub_queries: ['kafka 4.0 release', 'apache kafka 4 kraft'],
    languages: ['en'],
    locations: { feeds: [], paths: [], urls: [], sites: ['kafka.apache.org'] },
    ...overrides,
  });
}

const gaps = (requests: RecordedRequest[]) => requests.slice(1).map((request, index) => request.receivedAt - requests[index]!.receivedAt);

describe('Brave on one key, as a real first run meets it', () => {
  it('two Brave skills and two tenants on one key stay at 1 request per second, measured from the server log: no 429, every run complete', { timeout: 30_000 }, async () => {
    server = await startLocalServer(braveAt1PerSecond());
    const limiter = createCredentialRateLimiter({ clock: systemClock, sleep });
    // The operator's registry and a tenant registry that resolved the same key, as the catalog builds them.
    const operator = await registryOn(server.origin, limiter);
    const tenant = await registryOn(server.origin, limiter);
    const handler = createRetriever({
      registry: operator,
      registries: { forTenant: async (credentials) => (Object.keys(credentials).length > 0 ? tenant : operator) },
      dataRoot: root,
    });
    fs.mkdirSync(path.join(root, 'globex'), { recursive: true });
    fs.writeFileSync(path.join(root, 'globex', 'tenant.json'), JSON.stringify({ credentials: { BRAVE_API_KEY: 'env:GLOBEX_BRAVE_API_KEY' } }));
    process.env.GLOBEX_BRAVE_API_KEY = KEY;
    try {
      const acme = braveRequest({ run_id: parseRunId('run-acme') });
      const globex = braveRequest({ tenant: parseTenantId('globex'), run_id: parseRunId('run-globex') });
      const messages = await retrieve(handler, [acme, globex]);

      const log = server.requests;
      const paths = new Set(log.map((request) => request.path.split('?')[0]));
      expect(paths).toEqual(new Set(['/res/v1/news/search', '/res/v1/web/search']));
      expect(log.length).toBeGreaterThanOrEqual(8);
      // The server's own timestamps: never two requests on the key within Brave's one-second window.
      for (const gap of gaps(log)) expect(gap).toBeGreaterThanOrEqual(1_000);
      for (const run of [acme, globex]) {
        const statuses = markerOf(messages, run.run_id).run_end.provider_status;
        expect(statuses).toContainEqual(expect.objectContaining({ provider: 'brave_news_search', status: 'ok' }));
        expect(statuses).toContainEqual(expect.objectContaining({ provider: 'site_search', status: 'ok' }));
      }
    } finally {
      delete process.env.GLOBEX_BRAVE_API_KEY;
    }
  });

  it('a 429 with X-RateLimit-Reset and no Retry-After is waited out, the run completes, and the breaker stays closed', { timeout: 30_000 }, async () => {
    server = await startLocalServer(braveAt1PerSecond({ firstAnswer429: true }));
    const limiter = createCredentialRateLimiter({ clock: systemClock, sleep });
    const registry = await registryOn(server.origin, limiter, { failureThreshold: 1 });
    const request = braveRequest({ capabilities: ['news_search'], sub_queries: ['kafka 4.0 release'], run_id: parseRunId('run-429') });
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [request]);

    const [refused, retried] = server.requests;
    expect(refused?.path).toMatch(/^\/res\/v1\/news\/search/);
    expect(retried?.path).toBe(refused?.path);
    // Waited for the reset Brave named (1 s), measured by the server.
    expect(retried!.receivedAt - refused!.receivedAt).toBeGreaterThanOrEqual(1_000);
    const statuses = markerOf(messages, request.run_id).run_end.provider_status;
    expect(statuses).toContainEqual(expect.objectContaining({ provider: 'brave_news_search', status: 'ok' }));
    expect(messages.filter((message) => message.kind === 'RESPONSE').length).toBeGreaterThan(0);
    // A threshold of one failure: had the 429 counted, the circuit would be open now.
    const again = await retrieve(createRetriever({ registry, dataRoot: root }), [{ ...request, run_id: parseRunId('run-after-429') }]);
    expect(markerOf(again, 'run-after-429').run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'brave_news_search', status: 'ok' }));
  });
});
