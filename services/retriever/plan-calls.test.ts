import { describe, expect, it } from 'vitest';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { retrievalRequestFixture } from '../../test/fixtures/messages.ts';
import { INTENT_PROFILES } from '../../domain/intent/intent-profiles.ts';
import { PROVIDER_CHAINS, planCalls, type PlannedCall } from './plan-calls.ts';

function request(overrides: Partial<RetrievalRequest> = {}): RetrievalRequest {
  return retrievalRequestFixture({
    capabilities: [],
    queries: ['q-plain'],
    sub_queries: ['q1', 'q2'],
    locations: { feeds: [], paths: [], urls: [], sites: [] },
    max_items: 30,
    intent: 'news',
    ...overrides,
  });
}

const summary = (calls: PlannedCall[]) => calls.map((call) => [call.capability, call.subQuery, call.counterEvidence]);

describe('planCalls', () => {
  it('reads feed URLs by url and feed files by path, with the item limit', () => {
    const calls = planCalls(request({ capabilities: ['rss_feed'], locations: { feeds: ['https://example.com/feed.xml', 'feeds/a.atom.xml', 'HTTP://EXAMPLE.ORG/rss'], paths: [], urls: [], sites: [] } }));
    expect(calls.map((call) => call.inputFor('feed_reader'))).toEqual([
      { url: 'https://example.com/feed.xml', count: 30 },
      { path: 'feeds/a.atom.xml', count: 30 },
      { url: 'HTTP://EXAMPLE.ORG/rss', count: 30 },
    ]);
    expect(calls.every((call) => call.chain === PROVIDER_CHAINS.rss_feed && call.subQuery === null)).toBe(true);
  });

  it.each([
    { languages: ['ja'], brave: 'ja' },
    { languages: ['zh-CN'], brave: 'zh-cn' },
    { languages: ['zh-CN', 'en'], brave: undefined },
    { languages: [], brave: undefined },
  ])('asks Brave for the language of a $languages request (mapped to its list by the skill), others never', ({ languages, brave }) => {
    const [call] = planCalls(request({ capabilities: ['web_search'], languages, sub_queries: ['q1'] }));
    expect(call!.inputFor('brave_web_search').search_lang).toBe(brave);
    expect(call!.inputFor('tavily_search')).not.toHaveProperty('search_lang');
    expect(call!.inputFor('exa_search')).not.toHaveProperty('search_lang');
  });

  it('caps the per-location item count at 200', () => {
    const [call] = planCalls(request({ capabilities: ['local_file'], max_items: 5000, locations: { feeds: [], paths: ['notes'], urls: [], sites: [] } }));
    expect(call!.inputFor('local_file')).toEqual({ path: 'notes', count: 200 });
  });

  it('fetches each document URL once', () => {
    const calls = planCalls(request({ capabilities: ['document_fetch'], locations: { feeds: [], paths: [], urls: ['https://a.example/1', 'https://b.example/2'], sites: [] } }));
    expect(calls.map((call) => call.inputFor('document_fetch'))).toEqual([{ url: 'https://a.example/1' }, { url: 'https://b.example/2' }]);
  });

  it('searches every site with every sub-query', () => {
    const calls = planCalls(request({ capabilities: ['site_search'], locations: { feeds: [], paths: [], urls: [], sites: ['a.example', 'b.example'] } }));
    expect(calls.map((call) => [call.inputFor('site_search').domain, call.inputFor('site_search').query])).toEqual([
      ['a.example', 'q1'], ['a.example', 'q2'], ['b.example', 'q1'], ['b.example', 'q2'],
    ]);
  });

  it.each([
    ['web_search', 'tavily_search', { topic: 'general' }],
    ['news_search', 'tavily_search', { topic: 'news' }],
    ['web_search', 'brave_web_search', {}],
    ['news_search', 'brave_news_search', {}],
    ['web_search', 'exa_search', {}],
  ] as const)('gives %s on %s its own input', (capability, skill, extra) => {
    const [call] = planCalls(request({ capabilities: [capability] }));
    expect(call!.inputFor(skill)).toEqual({ query: 'q1', count: 10, freshness: INTENT_PROFILES.news.freshness, ...extra });
  });

  it('leaves freshness out when the request has no intent, and searches the plain queries when there are no sub-queries', () => {
    const calls = planCalls(request({ capabilities: ['web_search'], intent: null, sub_queries: [] }));
    expect(calls.map((call) => call.inputFor('brave_web_search'))).toEqual([{ query: 'q-plain', count: 10 }]);
  });

  it('runs counter-evidence queries once, on the first search capability', () => {
    const calls = planCalls(request({ capabilities: ['news_search', 'web_search'] }), { counterQueries: ['q1 criticism', 'q1 problems'] });
    expect(summary(calls)).toEqual([
      ['news_search', 'q1', false],
      ['news_search', 'q2', false],
      ['news_search', 'q1 criticism', true],
      ['news_search', 'q1 problems', true],
      ['web_search', 'q1', false],
      ['web_search', 'q2', false],
    ]);
  });

  it('drops counter-evidence queries when nothing is searched', () => {
    expect(planCalls(request({ capabilities: ['rss_feed'], locations: { feeds: ['f.xml'], paths: [], urls: [], sites: [] } }), { counterQueries: ['x'] })).toHaveLength(1);
  });

  it('plans social_search with an empty chain (nothing can serve it)', () => {
    const calls = planCalls(request({ capabilities: ['social_search'] }));
    expect(calls.map((call) => call.chain)).toEqual([[], []]);
  });

  it('uses the chains it is given instead of the defaults', () => {
    const [call] = planCalls(request({ capabilities: ['web_search'] }), { chains: { web_search: ['exa_search', 'brave_web_search'] } });
    expect(call!.chain).toEqual(['exa_search', 'brave_web_search']);
  });

  it('keeps the order of the request: capabilities, then locations or queries', () => {
    const calls = planCalls(request({
      capabilities: ['local_file', 'rss_feed', 'web_search'],
      locations: { feeds: ['f1.xml', 'f2.xml'], paths: ['notes'], urls: [], sites: [] },
    }));
    expect(summary(calls)).toEqual([
      ['local_file', null, false],
      ['rss_feed', null, false],
      ['rss_feed', null, false],
      ['web_search', 'q1', false],
      ['web_search', 'q2', false],
    ]);
    expect(summary(planCalls(request({ capabilities: ['local_file', 'rss_feed', 'web_search'], locations: { feeds: ['f1.xml', 'f2.xml'], paths: ['notes'], urls: [], sites: [] } })))).toEqual(summary(calls));
  });

  it('plans nothing for a capability without locations', () => {
    expect(planCalls(request({ capabilities: ['rss_feed', 'local_file', 'document_fetch', 'site_search'] }))).toEqual([]);
  });
});
