/**
 * The original Skrya tool's two topic shapes (fixtures written in its format under
 * test/fixtures/topics/original-*): a runtime-retrieval source with its own recency_hours, and a
 * folder of `"type": "rss"` sources with `"adapter": "rss"`. Both load with the right window and
 * sources, lint clean, and can be requested; `sources migrate` rewrites the second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { registerSourcesCommand } from '../../cli/commands/sources.ts';
import { buildRetrievalRequest } from './build-request.ts';
import { migrateSourcesText, unifiedDiff } from './migrate-sources.ts';
import { lintSourcesText, loadSourcesFile } from './sources-file.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../test/fixtures/topics');
const RUNTIME_48H = path.join(FIXTURES, 'original-runtime-48h', 'sources.json');
const RSS_FEEDS = path.join(FIXTURES, 'original-rss-feeds', 'sources.json');
const NOW = new Date('2026-11-30T12:00:00Z');

const request = (file: string) => buildRetrievalRequest({ tenant: parseTenantId('acme'), topicId: parseTopicId('original'), topic: loadSourcesFile(file), now: NOW, trigger: 'CLI' });

describe("the original tool's topic shapes", () => {
  it("a source's own recency_hours (48) sets the window", () => {
    expect(lintSourcesText(RUNTIME_48H, fs.readFileSync(RUNTIME_48H, 'utf8'))).toEqual([]);
    expect(loadSourcesFile(RUNTIME_48H).recencyHours).toBe(48);
    expect(request(RUNTIME_48H).time_window).toEqual({ since: '2026-11-28T12:00:00.000Z', until: '2026-11-30T12:00:00.000Z' });
  });

  it('"type": "rss" sources with "adapter": "rss" lint clean and are requested as rss_feed with their URLs as feeds', () => {
    expect(lintSourcesText(RSS_FEEDS, fs.readFileSync(RSS_FEEDS, 'utf8'))).toEqual([]);
    const topic = loadSourcesFile(RSS_FEEDS);
    expect(topic.sources.map((source) => source.id)).toEqual(['harbour-gazette', 'harbour-sports']);
    const built = request(RSS_FEEDS);
    expect(built.capabilities).toEqual(['rss_feed']);
    expect(built.locations.feeds).toEqual(['https://gazette.example.net/feed.xml', 'https://gazette.example.net/sport/feed.xml']);
    expect(built.time_window.since).toBe('2026-11-29T12:00:00.000Z');
  });

  it.each([
    {
      name: 'an adapter naming a provider',
      source: { id: 'web', type: 'runtime-retrieval', capabilities: ['web_search'], queries: ['x'], adapter: 'serpapi' },
      field: 'sources[0].adapter',
      fix: /remove "adapter" and give the source "capabilities" \(rss_feed, web_search/,
    },
    {
      name: 'an rss source without its feed',
      source: { id: 'feed', type: 'rss', adapter: 'rss' },
      field: 'sources[0]',
      fix: /needs its feed: "url"/,
    },
    {
      name: 'only sources of types Skrya does not retrieve',
      source: { id: 'manual', type: 'manual', items: ['x'] },
      field: 'sources',
      fix: /no enabled source Skrya can retrieve: .*"type": "runtime-retrieval" with "capabilities"/,
    },
  ])('refuses $name with the exact fix', ({ source, field, fix }) => {
    const problems = lintSourcesText('sources.json', JSON.stringify({ sources: [source] }, null, 2));
    expect(problems).toHaveLength(1);
    expect(problems[0]?.field).toBe(field);
    expect(problems[0]?.message).toMatch(fix);
  });

  it('a file of disabled sources does not lint clean, so nothing that lints clean fails to be requested', () => {
    const text = JSON.stringify({ sources: [{ id: 'off', type: 'runtime-retrieval', enabled: false, capabilities: ['web_search'] }] });
    expect(lintSourcesText('sources.json', text).map((problem) => problem.field)).toEqual(['sources']);
  });
});

describe('migrateSourcesText', () => {
  it('rewrites rss sources into the capability form; the result lints clean and requests the same', () => {
    const original = fs.readFileSync(RSS_FEEDS, 'utf8');
    const migration = migrateSourcesText(original);
    expect(migration.changes).toHaveLength(3);
    const migrated = JSON.parse(migration.text) as { sources: Array<Record<string, unknown>> };
    expect(migrated.sources[0]).toEqual({
      id: 'harbour-gazette', name: 'Harbour Town Gazette', type: 'runtime-retrieval', enabled: true,
      capabilities: ['rss_feed'], binding: 'runtime', feeds: ['https://gazette.example.net/feed.xml'],
    });
    expect(migrated.sources[2]?.enabled).toBe(false);
    expect(lintSourcesText('migrated.json', migration.text)).toEqual([]);
    expect(migrateSourcesText(migration.text).changes).toEqual([]);
  });

  it('leaves a file already in the capability form untouched', () => {
    const text = fs.readFileSync(RUNTIME_48H, 'utf8');
    expect(migrateSourcesText(text)).toEqual({ text, changes: [] });
  });

  it.each(['{"sources": [', '[]'])('refuses %j with INVALID_INPUT', (text) => {
    expect(() => migrateSourcesText(text)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('a unified diff shows the removed and added lines', () => {
    const diff = unifiedDiff('a\nb\nc\n', 'a\nx\nc\n', 'f.json');
    expect(diff).toBe('--- f.json\n+++ f.json (migrated)\n@@ -1,3 +1,3 @@\n a\n-b\n+x\n c\n');
  });
});

describe('skrya sources migrate', () => {
  let dir: string;
  let out: string[];
  let err: string[];
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-migrate-'));
    out = [];
    err = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (...args: string[]) => {
    const program = new Command().exitOverride();
    registerSourcesCommand(program);
    await program.parseAsync(['sources', ...args], { from: 'user' });
  };

  it('prints the diff without --write and leaves the file alone; --write rewrites it', async () => {
    const file = path.join(dir, 'sources.json');
    fs.copyFileSync(RSS_FEEDS, file);
    const before = fs.readFileSync(file, 'utf8');
    await cli('migrate', file);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    expect(out.join('')).toContain('-      "type": "rss",');
    expect(out.join('')).toContain('+      "capabilities": [');
    expect(err.join('')).toContain('3 source(s) to migrate');
    await cli('migrate', file, '--write');
    expect(lintSourcesText(file, fs.readFileSync(file, 'utf8'))).toEqual([]);
    expect(loadSourcesFile(file).sources.map((source) => source.feeds)).toEqual([['https://gazette.example.net/feed.xml'], ['https://gazette.example.net/sport/feed.xml']]);
    expect(fs.readdirSync(dir)).toEqual(['sources.json']);
  });

  it('says when there is nothing to migrate', async () => {
    await cli('migrate', RUNTIME_48H);
    expect(out.join('')).toContain('already in the capability form');
  });
});

describe('skrya topic init --from', () => {
  let dataRoot: string;
  let from: string;
  beforeEach(() => {
    dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-init-'));
    from = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-init-from-'));
    vi.stubEnv('SKRYA_DATA_ROOT', dataRoot);
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    fs.rmSync(dataRoot, { recursive: true, force: true });
    fs.rmSync(from, { recursive: true, force: true });
  });

  const init = async (...args: string[]) => {
    const { registerTopicCommand } = await import('../../cli/commands/topic.ts');
    const program = new Command().exitOverride();
    registerTopicCommand(program);
    await program.parseAsync(['topic', 'init', ...args], { from: 'user' });
  };

  it('refuses a folder whose sources.json would not load, with its problems, and copies nothing', async () => {
    fs.writeFileSync(path.join(from, 'sources.json'), JSON.stringify({ sources: [{ id: 'manual', type: 'manual' }] }));
    await expect(init('broken', '--tenant', 'acme', '--from', from)).rejects.toMatchObject({ code: 'CONFIG_INVALID', message: expect.stringContaining('no enabled source Skrya can retrieve') });
    expect(fs.existsSync(path.join(dataRoot, 'acme', 'topics', 'broken'))).toBe(false);
  });

  it("copies the original tool's rss folder, which loads", async () => {
    fs.copyFileSync(RSS_FEEDS, path.join(from, 'sources.json'));
    await init('harbour', '--tenant', 'acme', '--from', from);
    expect(loadSourcesFile(path.join(dataRoot, 'acme', 'topics', 'harbour', 'sources.json')).sources).toHaveLength(2);
  });
});
