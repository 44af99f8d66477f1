/**
 * The bundled ai-browser sample topic: its sources.json loads, every file it names exists, and
 * the feeds still hold the entries (and deliberate cases) the demo README promises.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractFromJson, extractFromXml, type FeedData, type FeedEntry } from '@extractus/feed-extractor';
import { describe, expect, it } from 'vitest';
import { lintSourcesText, loadSourcesFile } from '../../services/monitor/sources-file.ts';

const TOPIC_DIR = path.dirname(fileURLToPath(import.meta.url));
const SOURCES_FILE = path.join(TOPIC_DIR, 'sources.json');

function readTopicFile(relative: string): string {
  return fs.readFileSync(path.join(TOPIC_DIR, relative), 'utf8');
}

/** Full entry content, which the library leaves out of its normalized entries. */
function withContent(entry: Record<string, unknown>): { content: string } {
  for (const candidate of [entry['content:encoded'], entry.content_html, entry.content_text]) {
    if (typeof candidate === 'string') return { content: candidate };
  }
  return { content: '' };
}

function parseFeed(relative: string): FeedData {
  const text = readTopicFile(relative);
  const options = { descriptionMaxLen: 0, getExtraEntryFields: withContent };
  return relative.endsWith('.json') ? extractFromJson(JSON.parse(text) as Record<string, unknown>, options) : extractFromXml(text, options);
}

function entriesOf(relative: string): Array<FeedEntry & { content?: string }> {
  return parseFeed(relative).entries ?? [];
}

function titled(relative: string, title: string): FeedEntry & { content?: string } {
  const entry = entriesOf(relative).find((candidate) => candidate.title === title);
  if (!entry) throw new Error(`${relative} has no entry titled ${JSON.stringify(title)}`);
  return entry;
}

describe('ai-browser sources.json', () => {
  it('passes the lint with no problems and loads its three enabled sources', () => {
    expect(lintSourcesText(SOURCES_FILE, fs.readFileSync(SOURCES_FILE, 'utf8'))).toEqual([]);
    const topic = loadSourcesFile(SOURCES_FILE);
    expect(topic.cadence).toBe('0 */6 * * *');
    expect(topic.recencyHours).toBe(72);
    expect(topic.sources.map((source) => [source.id, source.capabilities])).toEqual([
      ['browser-news-feeds', ['rss_feed']],
      ['analyst-notes', ['local_file']],
      ['public-web-ai-browser', ['web_search', 'news_search']],
    ]);
  });

  it('would fail the lint if a provider were bound in it (the check above can fail)', () => {
    const bound = JSON.parse(fs.readFileSync(SOURCES_FILE, 'utf8')) as { sources: Array<Record<string, unknown>> };
    bound.sources[2] = { ...bound.sources[2], provider: 'some-search-api' };
    const problems = lintSourcesText(SOURCES_FILE, JSON.stringify(bound, null, 2));
    expect(problems.map((problem) => problem.field)).toEqual(['sources[2].provider']);
  });

  it('names only feed files and note folders that exist beside it', () => {
    const topic = loadSourcesFile(SOURCES_FILE);
    const named = topic.sources.flatMap((source) => [...source.feeds, ...source.paths]);
    expect(named).toHaveLength(4);
    for (const relative of named) {
      expect(path.isAbsolute(relative), relative).toBe(false);
      expect(fs.existsSync(path.join(TOPIC_DIR, relative)), relative).toBe(true);
    }
    const notes = topic.sources.flatMap((source) => source.paths).flatMap((folder) => fs.readdirSync(path.join(TOPIC_DIR, folder)));
    expect(notes.map((note) => path.extname(note)).sort()).toEqual(['.html', '.md', '.md', '.md', '.txt']);
  });
});

describe('ai-browser feeds', () => {
  it.each([
    { feed: 'feeds/tech-news.rss.xml', entries: 9 },
    { feed: 'feeds/browser-vendors.atom.xml', entries: 9 },
    { feed: 'feeds/dev-blogs.feed.json', entries: 9 },
  ])('$feed parses into $entries entries, each with an https link', ({ feed, entries }) => {
    const parsed = entriesOf(feed);
    expect(parsed).toHaveLength(entries);
    for (const entry of parsed) expect(entry.link, entry.title).toMatch(/^https:\/\//);
  });

  it('dates entries between October and 29 November 2026', () => {
    const dates = ['feeds/tech-news.rss.xml', 'feeds/browser-vendors.atom.xml', 'feeds/dev-blogs.feed.json']
      .flatMap((feed) => entriesOf(feed).map((entry) => Date.parse(String(entry.published))));
    for (const date of dates) {
      expect(date).toBeGreaterThanOrEqual(Date.parse('2026-10-01T00:00:00Z'));
      expect(date).toBeLessThan(Date.parse('2026-11-30T00:00:00Z'));
    }
  });

  it('syndicates one story in two feeds, once with tracking parameters', () => {
    const title = 'Built-in AI APIs reach Chrome stable: Summarizer, Writer and Rewriter for every site';
    expect(readTopicFile('feeds/tech-news.rss.xml')).toContain('built-in-ai-apis-stable?utm_source=');
    expect(titled('feeds/tech-news.rss.xml', title).link).toBe(titled('feeds/browser-vendors.atom.xml', title).link);
  });

  it('carries a lightly edited rewrite of one story on another site', () => {
    const original = titled('feeds/tech-news.rss.xml', 'Tabwise raises $48M Series B to build an agentic browser for sales teams');
    const rewrite = titled('feeds/dev-blogs.feed.json', 'Tabwise lands $48M Series B to build an agentic browser for sales teams');
    expect(new URL(original.link ?? '').host).not.toBe(new URL(rewrite.link ?? '').host);
    expect(rewrite.content).toContain('Lena Hartmann told Startup Ledger');
  });

  it('hides exactly one prompt injection, in an HTML comment, and keeps the security article free of one', () => {
    const all = ['feeds/tech-news.rss.xml', 'feeds/browser-vendors.atom.xml', 'feeds/dev-blogs.feed.json'].flatMap(entriesOf);
    const injected = all.filter((entry) => /<!--[^>]*Note to AI assistants: ignore all previous instructions/.test(entry.content ?? ''));
    expect(injected.map((entry) => entry.title)).toEqual(['The 7 best AI browser extensions for productivity in 2026']);
    const research = titled('feeds/tech-news.rss.xml', 'Hidden instructions on web pages can still hijack AI browser agents, researchers find');
    expect(research.content).toContain('indirect prompt injection');
    expect(research.content).not.toContain('<!--');
  });

  it('has one entry without a title and one Chinese entry', () => {
    expect(entriesOf('feeds/browser-vendors.atom.xml').filter((entry) => !entry.title?.trim())).toHaveLength(1);
    const json = JSON.parse(readTopicFile('feeds/dev-blogs.feed.json')) as { items: Array<{ language?: string; title: string }> };
    expect(json.items.filter((item) => item.language === 'zh-CN').map((item) => /[\u4e00-\u9fff]/.test(item.title))).toEqual([true]);
  });
});
