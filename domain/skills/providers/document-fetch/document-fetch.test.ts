import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';
import { parseDocumentResponse } from './skill.ts';

const announcement = readFileSync(new URL('./fixtures/kafka-4-0-announcement.html', import.meta.url), 'utf8');

const GERMAN_PAGE = `<!doctype html><html><head><title>Betriebshandbuch</title></head><body><nav>Start | Suche</nav><article><h1>Betriebshandbuch für Kafka</h1>
<p>Dieses Handbuch beschreibt, wie die Cluster im Rechenzentrum betrieben werden. Jeder Broker schreibt seine Protokolle auf eigene Datenträger, und die Controller laufen getrennt von den Brokern.</p>
<p>Bevor eine neue Version eingespielt wird, prüfen wir die Kompatibilität der Clients und beobachten die Replikation während des Neustarts jedes einzelnen Brokers.</p></article></body></html>`;

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function pageServer(pages: Record<string, { type: string; body: string }>) {
  server = await startLocalServer((request, response) => {
    const page = pages[request.path];
    if (!page) response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': page.type }).end(page.body);
  });
  const { registry } = await createTestRegistry({ network: { policy: { allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] } } });
  return { registry, origin: server.origin };
}

describe('document_fetch', () => {
  it('extracts the main content, title, date and language of a page', async () => {
    const { registry, origin } = await pageServer({ '/blog/kafka-4-0': { type: 'text/html; charset=utf-8', body: announcement } });
    const result = await runSkill(registry, 'document_fetch', { url: `${origin}/blog/kafka-4-0` }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    const [page] = result.output?.results ?? [];
    expect(page).toMatchObject({
      url: `${origin}/blog/kafka-4-0`,
      title: 'Apache Kafka 4.0 Release Announcement',
      published_date: '2025-03-18T00:00:00.000Z',
      source: 'Apache Kafka',
      language: 'en',
    });
    expect(page?.content).toContain('first major release to operate entirely without Apache ZooKeeper');
    expect(page?.content).not.toContain('Copyright');
    expect(page?.content).not.toContain('Community');
  });

  it('detects a language the page does not declare (ISO 639-1)', async () => {
    const { registry, origin } = await pageServer({ '/handbuch': { type: 'text/html', body: GERMAN_PAGE } });
    const result = await runSkill(registry, 'document_fetch', { url: `${origin}/handbuch` }, { tenant: 'acme', runId: 'r1' });
    expect(result.output?.results[0]).toMatchObject({ title: 'Betriebshandbuch', language: 'de' });
  });

  it('refuses what is not a page with BAD_RESPONSE', async () => {
    const { registry, origin } = await pageServer({ '/file.zip': { type: 'application/zip', body: 'PK\u0003\u0004' } });
    expect(await runSkill(registry, 'document_fetch', { url: `${origin}/file.zip` }, { tenant: 'acme', runId: 'r1' })).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
  });

  it.each([
    'http://127.0.0.1:9/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'file:///etc/passwd',
  ])('refuses %s with BLOCKED_URL under the default policy', async (url) => {
    const { registry } = await createTestRegistry();
    expect(await runSkill(registry, 'document_fetch', { url }, { tenant: 'acme', runId: 'r1' })).toMatchObject({ status: 'error', code: 'BLOCKED_URL' });
  });

  it('parses plain text pages and keeps parsing pure (same raw → same result)', () => {
    const raw = { skill: 'document_fetch', body: 'Release notes\n\nKafka 4.0 removes ZooKeeper entirely and runs only in KRaft mode.', contentType: 'text/plain', httpStatus: 200, url: 'https://example.org/notes.txt', fetchedAt: '2025-03-20T00:00:00.000Z' };
    const first = parseDocumentResponse(raw);
    expect(first[0]).toMatchObject({ title: 'Release notes', language: 'en', source: 'example.org' });
    expect(parseDocumentResponse(raw)).toEqual(first);
  });
});
