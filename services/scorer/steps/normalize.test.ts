import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Capability } from '../../../schemas/ingest.ts';
import { builtinParsers } from '../normalize-response.ts';
import { providerResult, responseMessage } from '../testing/step-fixtures.ts';
import { candidatesOf, createNormalizeStep } from './normalize.ts';

const FEED = fs.readFileSync(path.resolve(import.meta.dirname, '../../../examples/ai-browser/feeds/tech-news.rss.xml'), 'utf8');
const normalize = createNormalizeStep(builtinParsers());

describe('normalize step', () => {
  it.each<[string, string, { kind: string; code?: string }]>([
    ['a feed the parser reads', FEED, { kind: 'normalized' }],
    ['a feed cut off mid-item', '<rss><channel><item><title>cut off', { kind: 'normalize-failed', code: 'NORMALIZE_FAILED' }],
  ])('%s → %s', (_name, payload, expected) => {
    const message = responseMessage();
    const outcome = normalize({ ...message, response: { ...message.response, payload } });
    expect(outcome).toMatchObject(expected);
    if (outcome.kind === 'normalized') {
      expect(outcome.results.length).toBeGreaterThanOrEqual(5);
      // In the feed's order: the provider's order is what the scorer keeps as each result's place.
      expect(outcome.results[0]!.title).toBe('Tabwise raises $48M Series B to build an agentic browser for sales teams');
    }
  });

  it('fails a response from a provider it has no parser for, with NORMALIZE_FAILED naming it', () => {
    const message = responseMessage();
    expect(normalize({ ...message, producer: { ...message.producer, name: 'retired_provider' } })).toEqual({ kind: 'normalize-failed', code: 'NORMALIZE_FAILED', message: expect.stringContaining('retired_provider') });
  });
});

describe('candidatesOf', () => {
  it('places each result where it stood in the response', () => {
    const urls = ['https://example.org/a', 'https://example.org/b', 'https://example.org/c'];
    const candidates = candidatesOf(responseMessage(), urls.map((url) => providerResult({ url })));
    expect(candidates.map((candidate) => [candidate.position, candidate.fields.url])).toEqual(urls.map((url, index) => [index, url]));
  });

  it.each<[Capability, string]>([
    ['rss_feed', 'news'],
    ['news_search', 'news'],
    ['web_search', 'web'],
    ['site_search', 'web'],
    ['social_search', 'social'],
    ['document_fetch', 'document'],
    ['local_file', 'note'],
  ])('a %s result is evidence of type %s', (capability, evidenceType) => {
    const [candidate] = candidatesOf(responseMessage({ capability }), [providerResult()]);
    expect(candidate!.fields.evidence_type).toBe(evidenceType);
  });

  it.each([
    ['a url and a source', {}, { url: 'https://www.theverge.com/2026/04/24/comet-agent-mode', source_name: 'The Verge', summary: 'The AI browser product update adds an agent that books and buys on its own.' }],
    ['no source: the host stands in', { source: '' }, { source_name: 'www.theverge.com' }],
    ['no url and no source', { url: '', source: '' }, { url: null, source_name: null }],
    ['no snippet', { snippet: '' }, { summary: null }],
  ] as const)('%s', (_name, fields, expected) => {
    const message = responseMessage();
    const [candidate] = candidatesOf(message, [providerResult(fields)]);
    expect(candidate!.fields).toMatchObject({ ...expected, fetched_at: message.response.fetched_at, confidence: null });
  });
});
