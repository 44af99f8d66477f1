/**
 * Each provider's error answers, as recorded in `fixtures/errors/errors.json` (status, headers and
 * body in the provider's documented format), served by a real local HTTP server: each maps to its
 * stable code, and only what waiting can fix is retried.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runSkill } from '../run-skill.ts';
import { startLocalServer, type Handler, type LocalServer } from '../testing/local-server.ts';
import { createTestRegistry, type TestRegistry } from '../testing/test-registry.ts';

const errorsFile = z.object({
  source: z.string(),
  errors: z.array(z.object({
    name: z.string(),
    status: z.number().int(),
    headers: z.record(z.string(), z.string()),
    body_file: z.string(),
    code: z.string(),
    retried: z.boolean(),
  })),
});

function recordedErrors(provider: string) {
  const dir = new URL(`./${provider}/fixtures/errors/`, import.meta.url);
  return errorsFile.parse(JSON.parse(readFileSync(new URL('errors.json', dir), 'utf8'))).errors.map((error) => ({
    ...error,
    body: readFileSync(new URL(error.body_file, dir), 'utf8'),
  }));
}

const SKILLS = [
  { skill: 'brave_web_search', errors: 'brave-web-search', env: { BRAVE_API_KEY: 'k', SKRYA_BRAVE_BASE_URL: '' }, input: { query: 'kafka' } },
  { skill: 'brave_news_search', errors: 'brave-web-search', env: { BRAVE_API_KEY: 'k', SKRYA_BRAVE_BASE_URL: '' }, input: { query: 'kafka' } },
  { skill: 'site_search', errors: 'brave-web-search', env: { BRAVE_API_KEY: 'k', SKRYA_BRAVE_BASE_URL: '' }, input: { domain: 'kafka.apache.org', query: 'kafka' } },
  { skill: 'tavily_search', errors: 'tavily-search', env: { TAVILY_API_KEY: 'k', SKRYA_TAVILY_BASE_URL: '' }, input: { query: 'kafka' } },
  { skill: 'exa_search', errors: 'exa-search', env: { EXA_API_KEY: 'k', SKRYA_EXA_BASE_URL: '' }, input: { query: 'kafka' } },
];

describe.each(SKILLS)("$skill: the provider's recorded error answers", ({ skill, errors, env, input }) => {
  let handler: Handler = () => undefined;
  let server: LocalServer;
  let harness: TestRegistry;
  beforeAll(async () => {
    server = await startLocalServer((request, response, index) => handler(request, response, index));
    const baseEnv = Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === '' ? server.origin : value]));
    harness = await createTestRegistry({ env: baseEnv, breaker: { failureThreshold: 1_000 } });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(recordedErrors(errors))('$name (HTTP $status) is $code', async (error) => {
    handler = (_request, response) => {
      response.writeHead(error.status, { 'content-type': 'application/json', ...error.headers }).end(error.body);
    };
    server.requests.length = 0;
    const result = await runSkill(harness.registry, skill, input, { tenant: 'acme', runId: 'run-1' });
    expect(result).toMatchObject({ status: 'error', code: error.code });
    // Retries: the harness allows 2 after the first attempt.
    expect(server.requests).toHaveLength(error.retried ? 3 : 1);
  });
});
