/**
 * Pages as they come: a legacy charset named only by <meta>, words in separate blocks that must
 * stay apart, a four-word page, hidden text. Through the real document_fetch skill over HTTP.
 */
import iconv from 'iconv-lite';
import { afterEach, describe, expect, it } from 'vitest';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function fetchPage(body: Buffer, contentType: string) {
  server = await startLocalServer((request, response) => {
    if (request.path === '/robots.txt') response.writeHead(404).end();
    else response.writeHead(200, { 'content-type': contentType }).end(body);
  });
  const { registry } = await createTestRegistry({ network: { policy: { allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] } } });
  return runSkill(registry, 'document_fetch', { url: `${server.origin}/page` }, { tenant: 'acme', runId: 'r1' });
}

describe('document_fetch on real-world pages', () => {
  it('a windows-1250 page named only by <meta charset> reads intact, its paragraphs apart', async () => {
    const html = `<!doctype html><html lang="cs"><head><meta charset="windows-1250"><title>Provozní příručka</title></head><body><article>
<h1>Provozní příručka pro Kafku</h1><p>Tato příručka popisuje, jak se provozují clustery v datovém centru. Každý broker zapisuje své logy na vlastní disky.</p><p>Před nasazením nové verze kontrolujeme kompatibilitu klientů a sledujeme replikaci během restartu každého brokeru.</p>
</article></body></html>`;
    const result = await fetchPage(iconv.encode(html, 'windows-1250'), 'text/html');
    expect(result.status).toBe('ok');
    const [page] = result.output?.results ?? [];
    expect(JSON.stringify(page)).not.toContain('\uFFFD');
    expect(page?.title).toBe('Provozní příručka');
    expect(page?.content).toContain('vlastní disky.\nPřed nasazením');
    expect(page?.language).toBe('cs');
  });

  it('a four-word page keeps its declared language instead of a guess', async () => {
    const html = '<!doctype html><html lang="en"><head><title>Hello</title></head><body><p>Hello</p><p>Para one.</p><p>Para two.</p></body></html>';
    const result = await fetchPage(Buffer.from(html, 'utf8'), 'text/html; charset=utf-8');
    expect(result.output?.results[0]).toMatchObject({ language: 'en' });
    expect(result.output?.results[0]?.content).not.toContain('HelloPara');
  });
});
