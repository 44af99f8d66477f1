import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';

const body = readFileSync(new URL('./fixtures/site-kafka-consumer-groups.json', import.meta.url), 'utf8');

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('site_search', () => {
  it('asks the web search provider with site: and keeps only hits on that domain', async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    const { registry } = await createTestRegistry({ env: { BRAVE_API_KEY: 'k', SKRYA_BRAVE_BASE_URL: server.origin } });
    const result = await runSkill(registry, 'site_search', { domain: 'kafka.apache.org', query: 'consumer group protocol', freshness: 'py' }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    const query = new URL(server.requests[0]?.path ?? '', 'http://x').searchParams;
    expect(query.get('q')).toBe('site:kafka.apache.org consumer group protocol');
    expect(query.get('freshness')).toBe('py');
    expect(result.output?.results.map((hit) => new URL(hit.url).hostname)).toEqual(['kafka.apache.org', 'kafka.apache.org']);
    expect(result.raw[0]?.skill).toBe('site_search');
    expect(registry.get('site_search')?.definition.parseResponse(result.raw[0]!)).toEqual(result.output?.results);
  });
});
