import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir } from '../../runtime/data-paths.ts';
import type { HandlerContext, IncomingMessage } from '../../runtime/handler.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { rawResponseFixture, rawRunEndFixture } from '../../test/fixtures/messages.ts';
import { compactTimestamp, safeToken } from './file-names.ts';
import { createLocalStore } from '../../runtime/sink-store.ts';
import { createRawSink, rawFileName, renderRawFile } from './raw-sink.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

type Response = Extract<RawResult, { kind: 'RESPONSE' }>;

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-raw-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const context: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };

function message(value: RawResult): IncomingMessage<RawResult> {
  return { topic: 'raw-results', partition: 0, offset: '0', key: 'acme/ai-browser', value, headers: {}, timestamp: '0' };
}

function response(overrides: Parameters<typeof rawResponseFixture>[0] = {}, producerName?: string): Response {
  const raw = rawResponseFixture(overrides) as Response;
  return producerName === undefined ? raw : { ...raw, producer: { ...raw.producer, name: producerName } };
}

describe('compactTimestamp', () => {
  it.each([
    ['2026-04-25T02:30:00.123Z', '20260425T023000123Z'],
    ['2026-04-25T10:30:00+08:00', '20260425T023000000Z'],
    ['2026-04-25', '20260425T000000000Z'],
  ])('%s → %s', (iso, expected) => {
    expect(compactTimestamp(iso)).toBe(expected);
  });

  it('sorts in time order', () => {
    const stamps = ['2026-04-25T10:30:00+08:00', '2026-04-25T03:00:00Z', '2026-04-24T23:00:00-05:00'].map(compactTimestamp);
    expect([...stamps].sort()).toEqual([stamps[0], stamps[1], stamps[2]]);
  });

  it('refuses text that is not a timestamp', () => {
    expect(() => compactTimestamp('yesterday')).toThrow(RangeError);
  });
});

describe('safeToken', () => {
  it.each([
    ['brave_web_search', 'brave_web_search'],
    ['Brave Web/Search', 'brave-web-search'],
    ['../../etc/passwd', 'etc-passwd'],
    ['..', 'unknown'],
    ['', 'unknown'],
    ['头条', 'unknown'],
    ['a'.repeat(100), 'a'.repeat(64)],
  ])('%j → %j', (name, expected) => {
    expect(safeToken(name)).toBe(expected);
  });
});

describe('raw sink', () => {
  it('names a file <run timestamp>-<provider>-<sequence>.txt', () => {
    expect(rawFileName(response({ sequence: 7 }))).toBe('20260425T023000000Z-rss_feed-007.txt');
    expect(rawFileName(response({ sequence: 1234 }, 'Some Tool/v2'))).toBe('20260425T023000000Z-some-tool-v2-1234.txt');
  });

  it('writes the payload verbatim after a short header', () => {
    const raw = response({ payload: '<rss>\n\n  <item>ü</item></rss>\n', sub_query: null, url: null });
    const text = renderRawFile(raw);
    const [header, ...rest] = text.split('\n\n');
    expect(rest.join('\n\n')).toBe(raw.response.payload);
    expect(header!.split('\n')).toEqual([
      `run: ${raw.run_id}`,
      'producer: rss_feed (provider)',
      'capability: rss_feed',
      'sub_query: -',
      'url: -',
      'http_status: 200',
      'content_type: application/rss+xml',
      `fetched_at: ${raw.response.fetched_at}`,
    ]);
  });

  it('writes one file per response under ingest/raw, the same bytes when redelivered, and ignores run-end markers', async () => {
    const rawSink = createRawSink({ store: createLocalStore(root) });
    const first = response({ sequence: 0 });
    const second = response({ sequence: 1, payload: 'second' });
    for (const value of [first, second, first, rawRunEndFixture()]) expect(await rawSink.handle(message(value), context)).toEqual([]);
    const dir = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('ai-browser')), 'raw');
    expect(fs.readdirSync(dir).sort()).toEqual(['20260425T023000000Z-rss_feed-000.txt', '20260425T023000000Z-rss_feed-001.txt']);
    expect(fs.readFileSync(path.join(dir, '20260425T023000000Z-rss_feed-000.txt'), 'utf8')).toBe(renderRawFile(first));
  });

  it('keeps a hostile provider name inside the raw folder', async () => {
    await createRawSink({ store: createLocalStore(root) }).handle(message(response({}, '../../../../escape')), context);
    const dir = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('ai-browser')), 'raw');
    expect(fs.readdirSync(dir)).toEqual(['20260425T023000000Z-escape-000.txt']);
  });
});
