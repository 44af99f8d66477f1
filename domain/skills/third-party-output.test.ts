import { describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import type { RawResponse } from './types.ts';
import { normalizeThirdPartyOutput } from './third-party-output.ts';

function raw(body: string, contentType = 'text/plain'): RawResponse {
  return { skill: 'agent-tool', body, contentType, httpStatus: 200, url: null, fetchedAt: '2026-04-25T02:29:00.000Z' };
}

const normalize = (body: string) => normalizeThirdPartyOutput(raw(body));

describe('normalizeThirdPartyOutput', () => {
  it('reads a skrya.ingest.v1 document', () => {
    const document = {
      interface_version: 'skrya.ingest.v1',
      topic_id: 'ai-browser',
      items: [{
        id: 'x1',
        title: 'Perplexity updates Comet browser',
        url: 'https://example.com/comet',
        source_name: 'Example News',
        published_at: '2026-04-25T08:12:00+08:00',
        fetched_at: '2026-04-25T10:29:00+08:00',
        language: 'en',
        content: 'Full text.',
        summary: 'Short summary.',
      }],
    };
    expect(normalize(JSON.stringify(document))).toEqual([{
      url: 'https://example.com/comet',
      title: 'Perplexity updates Comet browser',
      snippet: 'Short summary.',
      published_date: '2026-04-25T08:12:00+08:00',
      source: 'Example News',
      content: 'Full text.',
      language: 'en',
    }]);
  });

  it.each([
    ['a bare array', (list: unknown[]) => list],
    ['{results: […]}', (list: unknown[]) => ({ results: list })],
    ['{data: […]}', (list: unknown[]) => ({ data: list })],
    ['{organic_results: […]}', (list: unknown[]) => ({ organic_results: list })],
  ])('reads %s, with field aliases, skipping entries that are not records', (_name, wrap) => {
    const list = [
      { link: 'https://a.example/1', headline: 'First', description: 'one', pubDate: '2026-04-24', site_name: 'A' },
      'not a record',
      { href: 'https://b.example/2', name: 'Second', text: 'body', lang: 'zh-CN' },
    ];
    expect(normalize(JSON.stringify(wrap(list)))).toEqual([
      { url: 'https://a.example/1', title: 'First', snippet: 'one', published_date: '2026-04-24', source: 'A', content: null, language: null },
      { url: 'https://b.example/2', title: 'Second', snippet: '', published_date: null, source: '', content: 'body', language: 'zh-CN' },
    ]);
  });

  it('reads one JSON document with a url as one result', () => {
    expect(normalize('{"url": "https://a.example/1", "title": "Only one"}')).toMatchObject([{ url: 'https://a.example/1', title: 'Only one' }]);
  });

  it.each([
    ['an object without a list or a link', '{"status": "error", "message": "rate limited"}'],
    ['a number', '42'],
    ['null', 'null'],
    ['a nested list it does not know', '{"response": {"docs": [{"url": "https://a.example"}]}}'],
  ])('refuses JSON without a list (%s) with NORMALIZE_FAILED', (_name, body) => {
    let caught: unknown;
    try {
      normalize(body);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkryaError);
    expect((caught as SkryaError).code).toBe('NORMALIZE_FAILED');
  });

  it('reads markdown: one result per block with a link, skipping blocks without one', () => {
    const markdown = [
      '# Search results for AI browsers',
      '',
      '[Comet gets an agent mode](https://example.com/comet-agent)',
      'Perplexity shipped an agent mode to all Comet users.',
      '',
      '2026 roadmap for Firefox AI https://blog.mozilla.org/roadmap-2026',
      '',
      'That is all I found.',
    ].join('\n');
    expect(normalize(markdown)).toEqual([
      { url: 'https://example.com/comet-agent', title: 'Comet gets an agent mode', snippet: 'Perplexity shipped an agent mode to all Comet users.', published_date: null, source: '', content: null, language: null },
      { url: 'https://blog.mozilla.org/roadmap-2026', title: '2026 roadmap for Firefox AI', snippet: '2026 roadmap for Firefox AI https://blog.mozilla.org/roadmap-2026', published_date: null, source: '', content: null, language: null },
    ]);
  });

  it('reads a bullet list of links as one result per item', () => {
    const markdown = [
      'Top results:',
      '- [Comet gets an agent mode](https://example.com/comet-agent)',
      '  Perplexity shipped it to everyone.',
      '- [Edge adds admin controls](https://example.com/edge-admin)',
      '1. https://example.com/plain-link Plain link item',
    ].join('\n');
    expect(normalize(markdown).map((result) => [result.url, result.title])).toEqual([
      ['https://example.com/comet-agent', 'Comet gets an agent mode'],
      ['https://example.com/edge-admin', 'Edge adds admin controls'],
      ['https://example.com/plain-link', 'Plain link item'],
    ]);
  });

  it('returns nothing for empty output', () => {
    expect(normalize('  \n ')).toEqual([]);
  });
});
