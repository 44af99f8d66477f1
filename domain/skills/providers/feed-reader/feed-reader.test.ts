import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../../runtime/errors.ts';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';
import type { RawResponse } from '../../types.ts';
import { parseFeedResponse } from './skill.ts';

const fixturesDir = fileURLToPath(new URL('./fixtures/', import.meta.url));
const fixture = (file: string) => readFileSync(`${fixturesDir}${file}`, 'utf8');

const raw = (body: string, contentType: string, url = 'https://feeds.example.org/feed'): RawResponse => ({
  skill: 'feed_reader', body, contentType, httpStatus: 200, url, fetchedAt: '2025-03-25T00:00:00.000Z',
});

describe('parseFeedResponse on realistic feeds', () => {
  it('RSS 2.0 with content:encoded, HTML descriptions and zoned pubDates', () => {
    const results = parseFeedResponse(raw(fixture('kubernetes-blog.rss.xml'), 'application/rss+xml', 'https://kubernetes.io/feed.xml'));
    expect(results).toHaveLength(3);
    expect(results[0]).toMatchObject({
      url: 'https://kubernetes.io/blog/2024/12/11/kubernetes-v1-32-release/',
      title: 'Kubernetes v1.32: Penelope',
      published_date: '2024-12-11T00:00:00.000Z',
      source: 'Kubernetes Blog',
      language: 'en',
    });
    expect(results[0]?.snippet).toContain('Announcing the release of Kubernetes v1.32');
    expect(results[0]?.snippet).not.toContain('<p>');
    expect(results[0]?.content).toContain('44 enhancements');
    expect(results[0]?.html).toContain('<p>');
    // -0800 is kept as the instant it names.
    expect(results[1]?.published_date).toBe('2025-03-24T20:00:00.000Z');
    expect(results[1]?.content).toBeNull();
  });

  it('Atom with xml:lang, summaries and HTML content', () => {
    const results = parseFeedResponse(raw(fixture('entwickler-blog.atom.xml'), 'application/atom+xml'));
    expect(results.map((result) => result.url)).toEqual([
      'https://blog.example.de/2025/03/kafka-ohne-zookeeper',
      'https://blog.example.de/2025/02/schema-registry-vergleich',
    ]);
    expect(results[0]).toMatchObject({ title: 'Kafka ohne ZooKeeper: Erfahrungen aus dem Betrieb', published_date: '2025-03-20T08:30:00.000Z', source: 'Das Entwickler-Blog', language: 'de' });
    expect(results[0]?.content).toContain('Metadaten liegen in einem eigenen Log');
  });

  it('number-like text (a title "007", a body "1.50", a year as pubDate) is kept as written, not read as a number', () => {
    const body = `<?xml version="1.0"?><rss version="2.0"><channel><title>Numbers</title><link>https://numbers.example.org/</link>
      <item><title>007</title><link>https://numbers.example.org/a</link><description>1.50</description><pubDate>2024</pubDate></item>
      <item><title>1e3</title><link>https://numbers.example.org/b</link><description>0x10</description></item>
    </channel></rss>`;
    const results = parseFeedResponse(raw(body, 'application/rss+xml'));
    expect(results.map((result) => [result.title, result.snippet])).toEqual([['007', '1.50'], ['1e3', '0x10']]);
    expect(results[0]?.published_date).toBe('2024-01-01T00:00:00.000Z');
  });

  it('JSON Feed 1.1 with content_html and content_text', () => {
    const results = parseFeedResponse(raw(fixture('changelog.feed.json'), 'application/feed+json'));
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      url: 'https://changelog.example.org/2025/03/18/replays',
      title: 'Replays re-score past runs without re-fetching',
      published_date: '2025-03-18T10:00:00.000Z',
      source: 'Skrya Changelog',
      language: 'en',
    });
    expect(results[1]?.content).toBe('Feeds in JSON Feed 1.1 format are read alongside RSS 2.0 and Atom.');
  });

  it.each([
    { name: 'broken XML', body: fixture('broken.rss.xml'), type: 'application/rss+xml' },
    { name: 'well-formed XML that is no feed', body: '<?xml version="1.0"?><html><body>hi</body></html>', type: 'application/xml' },
    { name: 'JSON that is no JSON Feed', body: '{"items": []}', type: 'application/json' },
    { name: 'truncated JSON', body: '{"version": "https://jsonfeed.org/version/1.1", "items": [', type: 'application/feed+json' },
  ])('$name → BAD_RESPONSE', ({ body, type }) => {
    let code = 'none';
    try {
      parseFeedResponse(raw(body, type));
    } catch (error) {
      code = isSkryaError(error) ? error.code : 'not a SkryaError';
    }
    expect(code).toBe('BAD_RESPONSE');
  });
});

describe('feed_reader through the live adapter', () => {
  let server: LocalServer | null = null;
  afterEach(async () => {
    await server?.close();
    server = null;
  });

  const feedServer = async (body: string, contentType: string) => {
    server = await startLocalServer((request, response) => {
      if (request.path === '/robots.txt') response.writeHead(404).end();
      else response.writeHead(200, { 'content-type': contentType }).end(body);
    });
    const { registry } = await createTestRegistry({
      network: { policy: { allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] } },
    });
    return { registry, url: `${server.origin}/feed.xml` };
  };

  it('fetches and parses an RSS feed, newest first, at most `count` entries', async () => {
    const { registry, url } = await feedServer(fixture('kubernetes-blog.rss.xml'), 'application/rss+xml');
    const result = await runSkill(registry, 'feed_reader', { url, count: 2 }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(result.output?.results.map((entry) => entry.title)).toEqual(['Ingress-nginx CVE-2025-1974: What You Need to Know', 'Spotlight on SIG Apps']);
    expect(result.raw[0]?.url).toBe(url);
  });

  it('a feed with broken XML ends in BAD_RESPONSE, raw kept', async () => {
    const { registry, url } = await feedServer(fixture('broken.rss.xml'), 'application/rss+xml');
    const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
    expect(result).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
    expect(result.raw).toHaveLength(1);
  });

  it('a feed URL on loopback is BLOCKED_URL under the default policy', async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/rss+xml' }).end(fixture('kubernetes-blog.rss.xml'));
    });
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { url: `${server.origin}/feed.xml` }, { tenant: 'acme', runId: 'r1' });
    expect(result).toMatchObject({ status: 'error', code: 'BLOCKED_URL' });
    expect(server.requests).toHaveLength(0);
  });

  it.each([
    { input: { path: 'entwickler-blog.atom.xml' }, status: 'ok', code: undefined },
    { input: { path: 'changelog.feed.json' }, status: 'ok', code: undefined },
    { input: { path: '../declaration.json' }, status: 'error', code: 'BLOCKED_URL' },
    { input: { path: '/etc/hostname' }, status: 'error', code: 'BLOCKED_URL' },
    { input: { url: 'https://example.org/feed', path: 'x.xml' }, status: 'error', code: 'INVALID_INPUT' },
    { input: {}, status: 'error', code: 'INVALID_INPUT' },
  ])('reads from a path inside the local root only: $input → $status $code', async ({ input, status, code }) => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', input, { tenant: 'acme', runId: 'r1', localRoot: fixturesDir });
    expect(result.status).toBe(status);
    expect(result.code).toBe(code);
  });
});
