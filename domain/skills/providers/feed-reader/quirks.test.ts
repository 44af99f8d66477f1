/**
 * Feed quirks mainstream parsers accept, each in a fixture written for this test
 * (fixtures/quirks/), read by the real feed_reader skill from a file and over HTTP.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { screenItem } from '../../../screening/screen-item.ts';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';

const quirksDir = fileURLToPath(new URL('./fixtures/quirks/', import.meta.url));
const quirk = (file: string) => readFileSync(path.join(quirksDir, file));

interface Expectation {
  file: string;
  titles: string[];
  links: string[];
}

const FROM_FILE: Expectation[] = [
  {
    file: 'leading-whitespace-0.91.rss.xml',
    titles: ['Ferry timetable changes from Monday', 'Harbour wall repairs finished'],
    links: ['https://gazette.example.net/news/ferry-timetable', 'https://gazette.example.net/news/harbour-wall'],
  },
  {
    file: 'xml-base.atom.xml',
    titles: ['Moving our brokers to KRaft', 'Schema registry failover drill', 'Consumer lag alerts that page less'],
    links: [
      'https://engineering.example.com/blog/2026/11/kraft-migration',
      'https://engineering.example.com/archive/2026/10/registry-drill.html',
      'https://mirror.example.org/notes/lag-alerts',
    ],
  },
  {
    // No xml:base and no URL of its own: the channel's link is the base.
    file: 'relative-links.rss.xml',
    titles: ['Version 3.2 ships with offline mode', 'Security advisory for 3.1'],
    links: ['https://press.example.org/releases/3-2-offline-mode', 'https://press.example.org/releases/advisories/2026-003'],
  },
  {
    file: 'rss-1.0.rdf',
    titles: ['Extended opening hours during exams', 'Historic map collection digitised'],
    links: ['https://library.example.edu/news/extended-hours', 'https://library.example.edu/news/map-collection'],
  },
  {
    file: 'atom-0.3.xml',
    titles: ['Planting garlic before the frost', 'Leaf mould in wire bins'],
    links: ['https://garden.example.net/2026/11/garlic', 'https://garden.example.net/2026/11/leaf-mould'],
  },
  {
    file: 'relative.feed.json',
    titles: ['Issue 48: command-line JSON tools', 'Issue 47: terminal multiplexers'],
    links: ['https://tools.example.io/weekly/issues/48', 'https://tools.example.io/weekly/issues/47'],
  },
];

const scratch = mkdtempSync(path.join(os.tmpdir(), 'skrya-quirks-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('feed quirks through the real feed_reader', () => {
  it.each(FROM_FILE)('$file from a file: every entry, titles and absolute links', async ({ file, titles, links }) => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { path: file }, { tenant: 'acme', runId: 'r1', localRoot: quirksDir });
    expect(result.status).toBe('ok');
    const entries = result.output?.results ?? [];
    expect(entries.map((entry) => entry.title)).toEqual(titles);
    expect(entries.map((entry) => entry.url)).toEqual(links);
    expect(JSON.stringify(entries)).not.toContain('\uFFFD');
  });

  it('Atom 0.3 keeps its dates (issued/modified) and its escaped HTML content as text', async () => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { path: 'atom-0.3.xml' }, { tenant: 'acme', runId: 'r1', localRoot: quirksDir });
    expect(result.output?.results[0]).toMatchObject({ published_date: '2026-11-20T18:00:00.000Z', content: 'Cloves go in pointy end up, five centimetres deep.', language: 'en' });
  });

  it('a BOM and blank lines before <?xml are read past', async () => {
    const body = Buffer.concat([Buffer.from('\uFEFF\r\n \t\n', 'utf8'), quirk('rss-1.0.rdf')]);
    writeFileSync(path.join(scratch, 'bom-whitespace.rdf'), body);
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { path: 'bom-whitespace.rdf' }, { tenant: 'acme', runId: 'r1', localRoot: scratch });
    expect(result.output?.results.map((entry) => entry.title)).toEqual(['Extended opening hours during exams', 'Historic map collection digitised']);
  });

  it('hidden markup in <description> is kept out of the visible text and screened as HTML, as in content:encoded', async () => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { path: 'hidden-description.rss.xml' }, { tenant: 'acme', runId: 'r1', localRoot: quirksDir });
    const entries = result.output?.results ?? [];
    expect(entries.map((entry) => entry.title)).toEqual(['Nimbus Browser 12.1 fixes sync', 'Nimbus Browser 12 adds tab groups']);
    const [fromContent, fromDescription] = entries;
    expect(fromDescription?.snippet).toBe('Nimbus 12 adds tab groups and a faster reader view. Sync now covers bookmarks.');
    for (const entry of entries) {
      expect(`${entry.snippet} ${entry.content ?? ''}`).not.toContain('ignore all previous instructions');
      expect(entry.html).toContain('display:none');
    }
    // Screened the way the scorer screens a feed result: both carriers get the same verdict.
    const screen = (entry: (typeof entries)[number] | undefined) => screenItem({ id: entry?.url ?? '', title: entry?.title ?? '', content: entry?.content, summary: entry?.snippet, url: entry?.url, html: entry?.html });
    const description = screen(fromDescription);
    const content = screen(fromContent);
    expect(description.verdict).not.toBe('accept');
    expect(description.verdict).toBe(content.verdict);
    expect(description.evidence.some((hit) => hit.field === 'html' && hit.technique === 'hidden_html')).toBe(true);
  });

  describe('over HTTP', () => {
    let server: LocalServer | null = null;
    afterEach(async () => {
      await server?.close();
      server = null;
    });

    const serve = async (body: Buffer, contentType: string, limits = {}) => {
      server = await startLocalServer((request, response) => {
        if (request.path === '/robots.txt') response.writeHead(404).end();
        else response.writeHead(200, { 'content-type': contentType }).end(body);
      });
      const { registry } = await createTestRegistry({
        network: { policy: { allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] } },
        limits: { apiTimeoutMs: 300, pageDeadlineMs: 2_000, maxResponseBytes: 256 * 1024, ...limits },
      });
      return { registry, url: `${server.origin}/feeds/press.xml` };
    };

    it('relative links without xml:base resolve against the URL the feed was fetched from', async () => {
      const { registry, url } = await serve(quirk('relative-links.rss.xml'), 'application/rss+xml');
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      const origin = new URL(url).origin;
      expect(result.output?.results.map((entry) => entry.url)).toEqual([`${origin}/releases/3-2-offline-mode`, `${origin}/feeds/advisories/2026-003`]);
    });

    it('an absolute xml:base wins over the fetch URL', async () => {
      const { registry, url } = await serve(quirk('xml-base.atom.xml'), 'application/atom+xml');
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      expect(result.output?.results.map((entry) => entry.url)).toEqual(FROM_FILE[1]?.links);
    });

    it('leading whitespace before <?xml over HTTP', async () => {
      const { registry, url } = await serve(quirk('leading-whitespace-0.91.rss.xml'), 'text/xml');
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      expect(result.status).toBe('ok');
      expect(result.output?.results).toHaveLength(2);
    });

    it('a feed over 1 MiB is read whole from a URL, and one cap refuses it when set lower', async () => {
      const big = bigFeed();
      expect(big.length).toBeGreaterThan(1024 * 1024);
      let fetched = await serve(big, 'application/rss+xml');
      const ok = await runSkill(fetched.registry, 'feed_reader', { url: fetched.url, count: 200 }, { tenant: 'acme', runId: 'r1' });
      expect(ok.status).toBe('ok');
      expect(ok.output?.results).toHaveLength(200);
      await server?.close();
      fetched = await serve(big, 'application/rss+xml', { maxDocumentBytes: 1024 * 1024 });
      const refused = await runSkill(fetched.registry, 'feed_reader', { url: fetched.url }, { tenant: 'acme', runId: 'r1' });
      expect(refused).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
    });
  });

  it('a feed over 1 MiB is read whole from a file, and the same cap refuses it when set lower', async () => {
    const big = bigFeed();
    writeFileSync(path.join(scratch, 'podcast.rss.xml'), big);
    const { registry } = await createTestRegistry();
    const ok = await runSkill(registry, 'feed_reader', { path: 'podcast.rss.xml', count: 5 }, { tenant: 'acme', runId: 'r1', localRoot: scratch });
    expect(ok.status).toBe('ok');
    expect(ok.output?.results[0]).toMatchObject({ title: 'Episode 600: listener questions', url: 'https://podcast.example.fm/episodes/600' });
    const capped = await createTestRegistry({ limits: { apiTimeoutMs: 300, pageDeadlineMs: 500, maxResponseBytes: 256 * 1024, maxDocumentBytes: 1024 * 1024 } });
    const refused = await runSkill(capped.registry, 'feed_reader', { path: 'podcast.rss.xml' }, { tenant: 'acme', runId: 'r1', localRoot: scratch });
    expect(refused).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
  });
});

/** A podcast feed of 600 episodes with long show notes: about 1.5 MB. */
function bigFeed(): Buffer {
  const notes = 'In this episode we answer listener questions about tides, boats and weather, read your letters and talk through the week. '.repeat(18);
  const items = Array.from({ length: 600 }, (_, index) => {
    const number = index + 1;
    const date = new Date(Date.UTC(2015, 0, 1) + number * 7 * 86_400_000).toUTCString();
    return `<item><title>Episode ${number}: listener questions</title><link>https://podcast.example.fm/episodes/${number}</link><pubDate>${date}</pubDate><description><![CDATA[<p>${notes}</p>]]></description><enclosure url="https://cdn.example.fm/ep${number}.mp3" type="audio/mpeg" length="${number * 1000}"/></item>`;
  });
  return Buffer.from(`<?xml version="1.0" encoding="utf-8"?>\n<rss version="2.0"><channel><title>Harbour Hour</title><link>https://podcast.example.fm/</link><description>A weekly show</description>${items.join('\n')}</channel></rss>\n`, 'utf8');
}
