import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer } from '../../runtime/metrics.ts';
import { createCredentialRateLimiter } from './adapters/credential-rate-limiter.ts';
import { inputHash } from './canonical-json.ts';
import { runSkill } from './run-skill.ts';
import { sendJson, startLocalServer, type LocalServer } from './testing/local-server.ts';
import { createTestRegistry, manualClock } from './testing/test-registry.ts';

const SECRET = 'BSA-very-secret-token-0042';
const webFixture = readFileSync(new URL('./providers/brave-web-search/fixtures/web-kubernetes-release-notes.json', import.meta.url), 'utf8');

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function braveHarness(status = 200) {
  server = await startLocalServer((_request, response) => {
    if (status === 200) response.writeHead(200, { 'content-type': 'application/json' }).end(webFixture);
    else sendJson(response, status, { type: 'ErrorResponse', error: { code: 'SUBSCRIPTION_TOKEN_INVALID', detail: 'The provided subscription token is invalid.' } });
  });
  return createTestRegistry({ env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin } });
}

const callEvents = (events: Array<Record<string, unknown>>) => events.filter((event) => event.event === 'skill_call');

describe('runSkill observability', () => {
  it('emits exactly one structured event per call with the agreed fields', async () => {
    const { registry, logs } = await braveHarness();
    const input = { query: 'kubernetes 1.31 release notes', count: 5 };
    const before = callEvents(logs.events()).length;
    const result = await runSkill(registry, 'brave_web_search', input, { tenant: 'acme', runId: 'run-42' });
    const events = callEvents(logs.events()).slice(before);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      skill: 'brave_web_search',
      version: '1.0.0',
      input_hash: inputHash(input),
      status: 'ok',
      error_code: null,
      tenant: 'acme',
      run_id: 'run-42',
      raw_count: 1,
      result_count: 3,
    });
    expect(events[0]?.duration_ms).toBe(result.durationMs);
    expect(inputHash(input)).toMatch(/^[0-9a-f]{64}$/);
    expect(inputHash({ count: 5, query: 'kubernetes 1.31 release notes' })).toBe(inputHash(input));
  });

  it.each([
    { name: 'a success', status: 200 },
    { name: 'an auth failure', status: 401 },
  ])('never writes the credential into a log line (%s)', async ({ status }) => {
    const { registry, logs } = await braveHarness(status);
    await runSkill(registry, 'brave_web_search', { query: 'x' }, { tenant: 'acme', runId: 'r1' });
    expect(logs.text()).not.toContain(SECRET);
    expect(callEvents(logs.events()).at(-1)).toMatchObject({ status: status === 200 ? 'ok' : 'error', error_code: status === 200 ? null : 'AUTH_FAILED' });
  });

  it.each([
    { name: 'an input outside the contract', skill: 'brave_web_search', input: { query: '', count: 99 }, code: 'INVALID_INPUT' },
    { name: 'an extra field', skill: 'brave_web_search', input: { query: 'x', api_key: 'sneaky' }, code: 'INVALID_INPUT' },
    { name: 'an unknown skill', skill: 'no_such_skill', input: {}, code: 'INVALID_INPUT' },
  ])('answers $name with $code, one event, no throw', async ({ skill, input, code }) => {
    const { registry, logs } = await braveHarness();
    const before = callEvents(logs.events()).length;
    const result = await runSkill(registry, skill, input, { tenant: 'acme', runId: 'r1' });
    expect(result).toMatchObject({ status: 'error', code, raw: [] });
    expect(callEvents(logs.events()).slice(before)).toHaveLength(1);
    expect(server?.requests).toHaveLength(0);
  });

  it('counts calls, errors and durations in Prometheus metrics served on /metrics', async () => {
    const { registry, metrics } = await braveHarness();
    await runSkill(registry, 'brave_web_search', { query: 'a' }, { tenant: 'acme', runId: 'r1' });
    await runSkill(registry, 'brave_web_search', { query: 'b' }, { tenant: 'acme', runId: 'r1' });
    await runSkill(registry, 'exa_search', { query: 'c' }, { tenant: 'acme', runId: 'r1' });
    const endpoint = await startMetricsServer(metrics, 0);
    try {
      const text = await (await fetch(`http://127.0.0.1:${endpoint.port}/metrics`)).text();
      expect(text).toContain('skrya_skill_calls_total{skill="brave_web_search",status="ok",service="retriever-test"} 2');
      expect(text).toContain('skrya_skill_calls_total{skill="exa_search",status="error",service="retriever-test"} 1');
      expect(text).toContain('skrya_skill_errors_total{skill="exa_search",code="NOT_CONFIGURED",service="retriever-test"} 1');
      expect(text).toContain('skrya_skill_call_duration_seconds_count{service="retriever-test",skill="brave_web_search"} 2');
      // Registration smoke tests are not production traffic.
      expect(text).not.toContain('skill="tavily_search"');
    } finally {
      await endpoint.close();
    }
  });
});

describe('runSkill cancellation', () => {
  it('a call the caller cancels ends as ADAPTER_TIMEOUT without reaching the provider', async () => {
    const { registry } = await braveHarness();
    const controller = new AbortController();
    controller.abort(new Error('stop rule reached'));
    const result = await runSkill(registry, 'brave_web_search', { query: 'x' }, { tenant: 'acme', runId: 'r1', signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', code: 'ADAPTER_TIMEOUT' });
    expect(server?.requests).toHaveLength(0);
  });

  it('a cancel during backoff ends as ADAPTER_TIMEOUT too', async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 503, {}));
    const controller = new AbortController();
    const { registry } = await createTestRegistry({
      env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin },
      sleep: async () => {
        controller.abort(new Error('stop rule reached'));
        throw new Error('sleep interrupted');
      },
    });
    const result = await runSkill(registry, 'brave_web_search', { query: 'x' }, { tenant: 'acme', runId: 'r1', signal: controller.signal });
    expect(result).toMatchObject({ status: 'error', code: 'ADAPTER_TIMEOUT' });
    expect(server.requests).toHaveLength(1);
  });
});

describe('runSkill cancelled while queued on a key', () => {
  it('calls cancelled while waiting for the key (the stop rule) neither reach Brave nor open the breaker', async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"web":{"results":[{"title":"t","url":"https://a.example/","description":"d"}]}}');
    });
    const stop = new AbortController();
    let waitsBlock = true;
    const { registry } = await createTestRegistry({
      env: { BRAVE_API_KEY: SECRET, SKRYA_BRAVE_BASE_URL: server.origin },
      breaker: { failureThreshold: 1, coolDownMs: 60_000 },
      // While the run searches, the key's waits end only when the stop rule cancels them.
      rateLimiter: createCredentialRateLimiter({
        clock: manualClock(),
        sleep: (_ms, signal) => new Promise((resolve, reject) => {
          if (!waitsBlock) return resolve();
          signal.addEventListener('abort', () => reject(signal.reason));
        }),
      }),
    });
    const context = { tenant: 'acme', runId: 'r1', signal: stop.signal };
    expect((await runSkill(registry, 'brave_web_search', { query: 'first' }, context)).status).toBe('ok');
    const queued = [runSkill(registry, 'brave_web_search', { query: 'second' }, context), runSkill(registry, 'brave_web_search', { query: 'third' }, context)];
    stop.abort(new Error('stop rule met'));
    for (const result of await Promise.all(queued)) expect(result).toMatchObject({ status: 'error', code: 'ADAPTER_TIMEOUT' });
    expect(server.requests).toHaveLength(1);
    // One failure would open this breaker: the two cancellations did not count.
    waitsBlock = false;
    expect((await runSkill(registry, 'brave_web_search', { query: 'next run' }, { tenant: 'acme', runId: 'r2' })).status).toBe('ok');
    expect(server.requests).toHaveLength(2);
  });
});

describe('runSkill on the mock adapter', () => {
  it('replays the recording for a matching input and the default recording otherwise', async () => {
    const { registry } = await createTestRegistry({ adapters: 'mock' });
    const exact = await runSkill(registry, 'brave_web_search', { query: 'kubernetes 1.31 release notes' }, { tenant: 'acme', runId: 'r1' });
    expect(exact.status).toBe('ok');
    expect(exact.raw[0]?.url).toContain('api.search.brave.com');
    const other = await runSkill(registry, 'brave_web_search', { query: 'something else' }, { tenant: 'acme', runId: 'r1' });
    expect(other.status).toBe('ok');
  });

  it('needs no credentials', async () => {
    const { registry } = await createTestRegistry({ adapters: 'mock', env: {} });
    expect((await runSkill(registry, 'tavily_search', { query: 'x' }, { tenant: 'acme', runId: 'r1' })).status).toBe('ok');
  });
});
