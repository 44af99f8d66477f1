/**
 * The live adapters of the API search skills against a real HTTP server on 127.0.0.1:
 * each provider's documented format, auth header and failure answers, end to end through runSkill.
 */
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runSkill } from '../run-skill.ts';
import { sendJson, startLocalServer, type Handler, type LocalServer } from '../testing/local-server.ts';
import { createTestRegistry, type TestRegistry } from '../testing/test-registry.ts';

const fixture = (provider: string, file: string) => readFileSync(new URL(`./${provider}/fixtures/${file}`, import.meta.url), 'utf8');

interface ProviderCase {
  skill: string;
  keyEnv: string;
  baseUrlEnv: string;
  authHeader: string;
  authValue: (key: string) => string;
  method: 'GET' | 'POST';
  path: string;
  input: Record<string, unknown>;
  okBody: string;
  okCount: number;
  emptyBody: unknown;
}

const PROVIDERS: ProviderCase[] = [
  {
    skill: 'brave_web_search', keyEnv: 'BRAVE_API_KEY', baseUrlEnv: 'SKRYA_BRAVE_BASE_URL', authHeader: 'x-subscription-token', authValue: (key) => key,
    method: 'GET', path: '/res/v1/web/search', input: { query: 'kubernetes 1.31 release notes', freshness: 'pw' },
    okBody: fixture('brave-web-search', 'web-kubernetes-release-notes.json'), okCount: 3, emptyBody: { type: 'search', query: { original: 'x' } },
  },
  {
    skill: 'brave_news_search', keyEnv: 'BRAVE_API_KEY', baseUrlEnv: 'SKRYA_BRAVE_BASE_URL', authHeader: 'x-subscription-token', authValue: (key) => key,
    method: 'GET', path: '/res/v1/news/search', input: { query: 'kafka 4.0 release', freshness: 'pd' },
    okBody: fixture('brave-news-search', 'news-kafka-4-release.json'), okCount: 2, emptyBody: { type: 'news', results: [] },
  },
  {
    skill: 'exa_search', keyEnv: 'EXA_API_KEY', baseUrlEnv: 'SKRYA_EXA_BASE_URL', authHeader: 'x-api-key', authValue: (key) => key,
    method: 'POST', path: '/search', input: { query: 'stream processing exactly-once semantics', freshness: 'pm' },
    okBody: fixture('exa-search', 'search-exactly-once.json'), okCount: 2, emptyBody: { requestId: 'r', results: [] },
  },
  {
    skill: 'tavily_search', keyEnv: 'TAVILY_API_KEY', baseUrlEnv: 'SKRYA_TAVILY_BASE_URL', authHeader: 'authorization', authValue: (key) => `Bearer ${key}`,
    method: 'POST', path: '/search', input: { query: 'apache kafka kraft migration', topic: 'news', days: 7 },
    okBody: fixture('tavily-search', 'news-kraft-migration.json'), okCount: 2, emptyBody: { query: 'x', results: [], response_time: 0.2 },
  },
];

const SECRET = 'sk-test-7f3a9c1e5b';

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setUp(provider: ProviderCase, handler: Handler, overrides: Parameters<typeof createTestRegistry>[0] = {}) {
  server = await startLocalServer(handler);
  const harness = await createTestRegistry({ env: { [provider.keyEnv]: SECRET, [provider.baseUrlEnv]: server.origin }, ...overrides });
  const run = () => runSkill(harness.registry, provider.skill, provider.input, { tenant: 'acme', runId: 'run-1' });
  return { ...harness, server, run };
}

/**
 * One server and one registry per provider, the handler swapped per test: registry creation
 * (declarations, contracts, smoke tests) is the slow part. The breaker is set out of reach here;
 * its own tests below get fresh registries.
 */
function sharedHarness(provider: ProviderCase) {
  let handler: Handler = () => undefined;
  let local: LocalServer;
  let harness: TestRegistry;
  beforeAll(async () => {
    local = await startLocalServer((request, response, index) => handler(request, response, index));
    harness = await createTestRegistry({ env: { [provider.keyEnv]: SECRET, [provider.baseUrlEnv]: local.origin }, breaker: { failureThreshold: 1_000 } });
  });
  afterAll(async () => {
    await local.close();
  });
  return (next: Handler) => {
    handler = next;
    local.requests.length = 0;
    harness.sleeps.length = 0;
    return {
      ...harness,
      server: local,
      run: () => runSkill(harness.registry, provider.skill, provider.input, { tenant: 'acme', runId: 'run-1' }),
    };
  };
}

const ok = (provider: ProviderCase): Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(provider.okBody);
};

describe.each(PROVIDERS)('$skill live adapter', (provider) => {
  const use = sharedHarness(provider);

  it('sends the documented request with the credential header and parses the documented response', async () => {
    const { run, server: local } = use(ok(provider));
    const result = await run();
    expect(result.status).toBe('ok');
    expect(result.output?.results).toHaveLength(provider.okCount);
    for (const hit of result.output?.results ?? []) {
      expect(hit.url).toMatch(/^https:\/\//);
      expect(hit.title).not.toBe('');
      expect(hit.snippet).not.toMatch(/<strong>/);
    }
    expect(result.raw).toHaveLength(1);
    expect(result.raw[0]?.body).toBe(provider.okBody);
    const [request] = local.requests;
    expect(request?.method).toBe(provider.method);
    expect(request?.path.split('?')[0]).toBe(provider.path);
    expect(request?.headers[provider.authHeader]).toBe(provider.authValue(SECRET));
    if (provider.method === 'GET') {
      const query = new URL(request?.path ?? '', 'http://x').searchParams;
      expect(query.get('q')).toBe(provider.input.query);
      expect(query.get('freshness')).toBe(provider.input.freshness);
    } else {
      expect(JSON.parse(request?.body ?? '{}')).toMatchObject({ query: provider.input.query });
    }
  });

  it('re-parsing the kept raw response gives the same results (replays need no re-fetch)', async () => {
    const { run, registry } = use(ok(provider));
    const result = await run();
    const [raw] = result.raw;
    expect(raw).toBeDefined();
    expect(registry.get(provider.skill)?.definition.parseResponse(raw!)).toEqual(result.output?.results);
  });

  it.each([
    { name: '401', status: 401, code: 'AUTH_FAILED' },
    { name: '403', status: 403, code: 'AUTH_FAILED' },
    { name: '402', status: 402, code: 'QUOTA_EXHAUSTED' },
    { name: '404', status: 404, code: 'BAD_RESPONSE' },
  ])('answers HTTP $name with $code and does not retry', async ({ status, code }) => {
    const { run, server: local } = use((_request, response) => sendJson(response, status, { error: 'no' }));
    const result = await run();
    expect(result).toMatchObject({ status: 'error', code });
    expect(local.requests).toHaveLength(1);
  });

  it('waits the Retry-After seconds after a 429, then succeeds', async () => {
    const { run, server: local, sleeps } = use((request, response, index) => {
      if (index === 0) sendJson(response, 429, { error: 'slow down' }, { 'retry-after': '2' });
      else ok(provider)(request, response, index);
    });
    const result = await run();
    expect(result.status).toBe('ok');
    expect(local.requests).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    // HTTP dates have whole seconds; the manual clock may not (the rate limiter's waits advance it).
    let expected = 0;
    const { run, sleeps, clock } = use((request, response, index) => {
      if (index > 0) return ok(provider)(request, response, index);
      const sentAt = clock.now().getTime();
      const date = new Date(Math.ceil((sentAt + 3_000) / 1000) * 1000);
      expected = date.getTime() - sentAt;
      sendJson(response, 429, {}, { 'retry-after': date.toUTCString() });
    });
    expect((await run()).status).toBe('ok');
    expect(sleeps).toEqual([expected]);
    expect(expected).toBeGreaterThanOrEqual(3000);
  });

  it('gives up with RATE_LIMITED when 429 outlasts the retries', async () => {
    const { run, server: local } = use((_request, response) => sendJson(response, 429, {}, { 'retry-after': '1' }));
    const result = await run();
    expect(result).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(local.requests).toHaveLength(3);
  });

  it('does not wait out a Retry-After beyond the cap', async () => {
    const { run, server: local, sleeps } = use((_request, response) => sendJson(response, 429, {}, { 'retry-after': '3600' }));
    expect(await run()).toMatchObject({ status: 'error', code: 'RATE_LIMITED' });
    expect(local.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  it('retries a 500 with exponential backoff and jitter, then succeeds', async () => {
    const { run, server: local, sleeps } = use((request, response, index) => {
      if (index < 2) sendJson(response, 500, { error: 'boom' });
      else ok(provider)(request, response, index);
    });
    expect((await run()).status).toBe('ok');
    expect(local.requests).toHaveLength(3);
    // base 10 ms, random 0.5: half the step fixed + a quarter → 8 ms, then 15 ms.
    expect(sleeps).toEqual([8, 15]);
  });

  it('reports PROVIDER_UNAVAILABLE when 5xx outlasts the retries', async () => {
    const { run, server: local } = use((_request, response) => sendJson(response, 503, {}));
    expect(await run()).toMatchObject({ status: 'error', code: 'PROVIDER_UNAVAILABLE' });
    expect(local.requests).toHaveLength(3);
  });

  it('times out a provider that never answers', async () => {
    const { run } = await setUp(provider, () => undefined, { limits: { apiTimeoutMs: 150 } });
    // The server never answers: only the 150 ms timeout can have ended the call.
    const result = await run();
    expect(result).toMatchObject({ status: 'error', code: 'ADAPTER_TIMEOUT' });
  });

  it.each([
    { name: 'malformed JSON', body: '{"results": [ {"title": "cut off', code: 'BAD_RESPONSE' },
    { name: 'a JSON array', body: '[1, 2, 3]', code: 'BAD_RESPONSE' },
    { name: 'HTML from a proxy', body: '<html><body>Bad gateway</body></html>', code: 'BAD_RESPONSE' },
  ])('answers $name with $code and keeps the raw body', async ({ body, code }) => {
    const { run } = use((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    const result = await run();
    expect(result).toMatchObject({ status: 'error', code });
    expect(result.raw.map((raw) => raw.body)).toEqual([body]);
  });

  it('reports EMPTY_RESULTS for a valid answer without hits', async () => {
    const { run } = use((_request, response) => sendJson(response, 200, provider.emptyBody));
    const result = await run();
    expect(result).toMatchObject({ status: 'error', code: 'EMPTY_RESULTS', output: { results: [] } });
    expect(result.raw).toHaveLength(1);
  });

  it('refuses an oversized answer while streaming it', async () => {
    const { run } = use((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(`{"results": [${'"x",'.repeat(100_000)}"x"]}`);
    });
    expect(await run()).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
  });

  it('is skipped as NOT_CONFIGURED without its credential, never calling the provider', async () => {
    server = await startLocalServer(ok(provider));
    const { registry } = await createTestRegistry({ env: { [provider.baseUrlEnv]: server.origin } });
    const result = await runSkill(registry, provider.skill, provider.input, { tenant: 'acme', runId: 'run-1' });
    expect(result).toMatchObject({ status: 'error', code: 'NOT_CONFIGURED', message: `cannot be connected automatically: ${provider.keyEnv} is not set` });
    expect(server.requests).toHaveLength(0);
    expect(registry.report().find((entry) => entry.name === provider.skill)?.missingCredentials).toEqual([provider.keyEnv]);
  });
});

describe('provider-specific quota answers', () => {
  it.each([
    { provider: PROVIDERS[3]!, status: 432, body: { detail: { error: 'This request exceeds your plan\'s set usage limit.' } } },
    { provider: PROVIDERS[0]!, status: 429, body: { type: 'ErrorResponse', error: { code: 'QUOTA_LIMITED', status: 429, detail: 'Request quota exceeded' } } },
  ])('$provider.skill HTTP $status is QUOTA_EXHAUSTED, not retried', async ({ provider, status, body }) => {
    const { run, server: local } = await setUp(provider, (_request, response) => sendJson(response, status, body, { 'retry-after': '1' }));
    expect(await run()).toMatchObject({ status: 'error', code: 'QUOTA_EXHAUSTED' });
    expect(local.requests).toHaveLength(1);
  });
});

describe('circuit breaker (per skill)', () => {
  const brave = PROVIDERS[0]!;
  const breakerSettings = { retry: { maxRetries: 0 }, breaker: { failureThreshold: 2, coolDownMs: 1_000 } };

  it('opens after consecutive failures, refuses without calling, then lets one probe through after the cool-down', async () => {
    let healthy = false;
    const { run, server: local, clock, registry } = await setUp(brave, (request, response, index) => {
      if (healthy) ok(brave)(request, response, index);
      else sendJson(response, 502, {});
    }, breakerSettings);

    expect((await run()).code).toBe('PROVIDER_UNAVAILABLE');
    expect((await run()).code).toBe('PROVIDER_UNAVAILABLE');
    const refused = await run();
    expect(refused.code).toBe('CIRCUIT_OPEN');
    expect(local.requests).toHaveLength(2);

    // Other skills keep their own circuits.
    const news = await runSkill(registry, 'brave_news_search', { query: 'x' }, { tenant: 'acme', runId: 'run-1' });
    expect(news.code).not.toBe('CIRCUIT_OPEN');

    clock.advance(1_000);
    healthy = true;
    expect((await run()).status).toBe('ok');
    expect((await run()).status).toBe('ok');
  });

  it('re-opens when the half-open probe fails', async () => {
    const { run, server: local, clock } = await setUp(brave, (_request, response) => sendJson(response, 500, {}), breakerSettings);
    await run();
    await run();
    clock.advance(1_000);
    expect((await run()).code).toBe('PROVIDER_UNAVAILABLE');
    expect(local.requests).toHaveLength(3);
    expect((await run()).code).toBe('CIRCUIT_OPEN');
    expect(local.requests).toHaveLength(3);
  });
});

describe('rate limits per key (manual clock: waits are recorded, not waited)', () => {
  const brave = PROVIDERS[0]!;
  const braveHeaders = (remaining: string, policy = '1;w=1, 15000;w=2592000') => ({
    'x-ratelimit-limit': '1, 15000',
    'x-ratelimit-policy': policy,
    'x-ratelimit-remaining': remaining,
    'x-ratelimit-reset': '1, 1419704',
  });

  it('brave_web_search and brave_news_search on one key wait for each other; another key does not', async () => {
    server = await startLocalServer((request, response) => {
      const body = request.path.startsWith('/res/v1/news/') ? fixture('brave-news-search', 'news-kafka-4-release.json') : brave.okBody;
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    const shared = await createTestRegistry({ env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin } });
    const otherTenant = await createTestRegistry({ env: { BRAVE_API_KEY: 'another-key', SKRYA_BRAVE_BASE_URL: server.origin }, rateLimiter: shared.rateLimiter, clock: shared.clock });
    expect((await runSkill(shared.registry, 'brave_web_search', { query: 'a' }, { tenant: 'acme', runId: 'r' })).status).toBe('ok');
    expect((await runSkill(shared.registry, 'brave_news_search', { query: 'b' }, { tenant: 'acme', runId: 'r' })).status).toBe('ok');
    expect(shared.rateWaits).toEqual([1_050]);
    expect((await runSkill(otherTenant.registry, 'brave_web_search', { query: 'c' }, { tenant: 'globex', runId: 'r' })).status).toBe('ok');
    expect(shared.rateWaits).toEqual([1_050]);
  });

  it("spaces to the rate Brave's policy header states for the key", async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', ...braveHeaders('19, 14000', '20;w=1, 20000000;w=2592000') }).end(brave.okBody);
    });
    const { registry, rateWaits } = await createTestRegistry({ env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin } });
    for (let call = 0; call < 5; call += 1) expect((await runSkill(registry, 'brave_web_search', { query: `q${call}` }, { tenant: 'acme', runId: 'r' })).status).toBe('ok');
    expect(rateWaits).toEqual([]);
  });

  it('waits out a 429 by its X-RateLimit-Reset, retries, and the breaker (open after one failure) stays closed', async () => {
    server = await startLocalServer((_request, response, index) => {
      if (index === 0) sendJson(response, 429, readFileSync(new URL('./brave-web-search/fixtures/errors/rate-limited.json', import.meta.url), 'utf8'), braveHeaders('0, 14000'));
      else response.writeHead(200, { 'content-type': 'application/json', ...braveHeaders('0, 13999') }).end(brave.okBody);
    });
    const { registry, sleeps } = await createTestRegistry({ env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin }, breaker: { failureThreshold: 1, coolDownMs: 60_000 } });
    expect((await runSkill(registry, 'brave_web_search', { query: 'a' }, { tenant: 'acme', runId: 'r' })).status).toBe('ok');
    expect(sleeps).toEqual([1_000]);
    expect(server.requests).toHaveLength(2);
    expect((await runSkill(registry, 'brave_news_search', { query: 'b' }, { tenant: 'acme', runId: 'r' })).code).not.toBe('CIRCUIT_OPEN');
  });

  it('a 429 naming the monthly window as used up is QUOTA_EXHAUSTED at once', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 429, { type: 'ErrorResponse', error: { code: 'RATE_LIMITED' } }, braveHeaders('1, 0')));
    const { registry } = await createTestRegistry({ env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin } });
    expect(await runSkill(registry, 'brave_web_search', { query: 'a' }, { tenant: 'acme', runId: 'r' })).toMatchObject({ status: 'error', code: 'QUOTA_EXHAUSTED' });
    expect(server.requests).toHaveLength(1);
  });
});
