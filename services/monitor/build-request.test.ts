import { describe, expect, it } from 'vitest';
import { retrievalRequestSchema } from '../../schemas/messages.ts';
import { codeOf } from '../../test/support/error-code.ts';
import { classifyQuery } from '../../domain/intent/classify-query.ts';
import { buildRetrievalRequest, runIdFor, type RequestInput } from './build-request.ts';
import { DEFAULT_MAX_ITEMS, runtimeSourceSchema, type TopicSources } from './sources-file.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const NOW = new Date('2026-04-25T02:30:00.000Z');

function source(fields: Record<string, unknown>) {
  return runtimeSourceSchema.parse({ type: 'runtime-retrieval', ...fields });
}

function topic(overrides: Partial<TopicSources> = {}): TopicSources {
  return {
    file: '/data/acme/topics/ai-browser/sources.json',
    cadence: null,
    recencyHours: 24,
    intent: null,
    boostDomains: [],
    sources: [
      source({ id: 'feeds', capabilities: ['rss_feed'], feeds: ['feeds/a.xml', 'https://example.com/feed'], languages: ['en'], max_items: 30 }),
      source({ id: 'web', capabilities: ['web_search', 'news_search', 'rss_feed'], queries: ['AI browser product update', 'agentic browser security'], languages: ['zh-CN', 'en'], max_items: 50, feeds: ['feeds/a.xml'] }),
      source({ id: 'notes', capabilities: ['local_file'], paths: ['notes'], urls: ['https://example.com/post'], sites: ['example.org'], queries: ['AI browser product update'] }),
    ],
    ...overrides,
  };
}

function build(overrides: Partial<RequestInput> = {}) {
  return buildRetrievalRequest({ tenant: parseTenantId('acme'), topicId: parseTopicId('ai-browser'), topic: topic(), now: NOW, trigger: 'SCHEDULE', ...overrides });
}

describe('buildRetrievalRequest', () => {
  it('takes the union of capabilities, queries, languages and locations of the enabled sources, in first-seen order', () => {
    const request = build();
    expect(request.capabilities).toEqual(['rss_feed', 'web_search', 'news_search', 'local_file']);
    expect(request.queries).toEqual(['AI browser product update', 'agentic browser security']);
    expect(request.languages).toEqual(['en', 'zh-CN']);
    expect(request.locations).toEqual({
      feeds: ['feeds/a.xml', 'https://example.com/feed'],
      paths: ['notes'],
      urls: ['https://example.com/post'],
      sites: ['example.org'],
    });
    expect(request).toMatchObject({ tenant: 'acme', topic_id: 'ai-browser', trigger: 'SCHEDULE', requested_at: NOW.toISOString(), plan_json: null });
  });

  it.each([
    ['the largest max_items', [30, 50, undefined], 50],
    ['one set', [undefined, 7, undefined], 7],
    ['the default when none is set', [undefined, undefined, undefined], DEFAULT_MAX_ITEMS],
  ])('uses %s', (_name, limits, expected) => {
    const sources = topic().sources.map((entry, index) => {
      const { max_items: _dropped, ...rest } = entry;
      const limit = limits[index];
      return limit === undefined ? rest : { ...rest, max_items: limit };
    });
    expect(build({ topic: topic({ sources }) }).max_items).toBe(expected);
  });

  it.each([
    ['explicit since and until', { since: '2026-04-24T00:00:00+08:00', until: '2026-04-25T23:59:59+08:00' }, '2026-04-23T16:00:00.000Z', '2026-04-25T15:59:59.000Z'],
    ['since only: until is now', { since: '2026-04-24T00:00:00Z' }, '2026-04-24T00:00:00.000Z', NOW.toISOString()],
    ['a date without time is UTC midnight', { since: '2026-04-20', until: '2026-04-21' }, '2026-04-20T00:00:00.000Z', '2026-04-21T00:00:00.000Z'],
    ['the end of the last run', { lastRunUntil: '2026-04-24T20:00:00.000Z' }, '2026-04-24T20:00:00.000Z', NOW.toISOString()],
    ['explicit since wins over the last run', { since: '2026-04-20T00:00:00Z', lastRunUntil: '2026-04-24T20:00:00.000Z' }, '2026-04-20T00:00:00.000Z', NOW.toISOString()],
    ['recency_hours back from now', {}, '2026-04-24T02:30:00.000Z', NOW.toISOString()],
    ['recency_hours back from an explicit until', { until: '2026-04-10T12:00:00Z', topic: topic({ recencyHours: 6 }) }, '2026-04-10T06:00:00.000Z', '2026-04-10T12:00:00.000Z'],
  ])('takes the window from %s', (_name, overrides, since, until) => {
    expect(build(overrides).time_window).toEqual({ since, until });
  });

  it.each([
    ['an unparseable --since', { since: 'yesterday' }],
    ['a bare number', { since: '1' }],
    ['a day that does not exist', { until: '2026-02-30T00:00:00Z' }],
    ['a time without an offset (server-zone dependent)', { since: '2026-04-24T10:00' }],
    ['an empty string', { until: '' }],
    ['a corrupt last run end', { lastRunUntil: 'not-a-date' }],
    ['since after until', { since: '2026-04-26T00:00:00Z', until: '2026-04-25T00:00:00Z' }],
    ['since equal to until', { since: '2026-04-25T00:00:00Z', until: '2026-04-25T00:00:00Z' }],
    ['a last run that ended after now', { lastRunUntil: '2026-04-26T00:00:00.000Z' }],
  ])('refuses %s with INVALID_INPUT', (_name, overrides) => {
    expect(codeOf(() => build(overrides))).toBe('INVALID_INPUT');
  });

  it('refuses a topic without an enabled source with CONFIG_INVALID', () => {
    expect(codeOf(() => build({ topic: topic({ sources: [] }) }))).toBe('CONFIG_INVALID');
  });

  it('uses the explicit intent of the topic over the classification of its queries', () => {
    const classified = classifyQuery('AI browser product update').intent;
    const explicit = classified === 'tutorial' ? 'resource' : 'tutorial';
    expect(build().intent).toBe(classified);
    expect(build({ topic: topic({ intent: explicit }) }).intent).toBe(explicit);
  });

  it('classifies the first query and expands sub-queries from every query, original first', () => {
    const request = build({ topic: topic({ intent: 'news' }) });
    expect(request.sub_queries.length).toBeGreaterThanOrEqual(request.queries.length);
    expect(request.sub_queries.length).toBeLessThanOrEqual(12);
    expect(request.sub_queries[0]).toBe('AI browser product update');
    expect(request.sub_queries).toContain('agentic browser security');
    expect(new Set(request.sub_queries).size).toBe(request.sub_queries.length);
  });

  it('has no intent and the plain queries as sub-queries when there is nothing to classify', () => {
    const sources = [source({ id: 'feeds', capabilities: ['rss_feed'], feeds: ['feeds/a.xml'] })];
    const request = build({ topic: topic({ sources }) });
    expect(request.intent).toBeNull();
    expect(request.sub_queries).toEqual([]);
  });

  it('carries the boost domains', () => {
    expect(build({ topic: topic({ boostDomains: ['example.com'] }) }).boost_domains).toEqual(['example.com']);
  });

  it('passes retrievalRequestSchema', () => {
    for (const overrides of [{}, { topic: topic({ intent: 'comparison' }) }, { since: '2026-04-01', until: '2026-04-02' }]) {
      expect(retrievalRequestSchema.safeParse(build(overrides)).success).toBe(true);
    }
  });

  it('is deterministic: the same input gives the same request', () => {
    expect(build()).toEqual(build());
  });
});

describe('runIdFor', () => {
  const window = { since: '2026-04-24T02:30:00.000Z', until: '2026-04-25T02:30:00.000Z' };

  it('is the same for the same tenant, topic and window, and a valid run id', () => {
    const id = runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), window);
    expect(id).toBe(runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), { ...window }));
    expect(id).toMatch(/^run-20260425t023000z-[0-9a-f]{8}$/);
  });

  it.each([
    ['tenant', runIdFor(parseTenantId('beta'), parseTopicId('ai-browser'), window)],
    ['topic', runIdFor(parseTenantId('acme'), parseTopicId('kafka-ops'), window)],
    ['since', runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), { ...window, since: '2026-04-24T02:31:00.000Z' })],
    ['until', runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), { ...window, until: '2026-04-25T02:30:01.000Z' })],
  ])('differs when the %s differs', (_name, other) => {
    expect(other).not.toBe(runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), window));
  });

  it('is the run id of a built request', () => {
    const request = build();
    expect(request.run_id).toBe(runIdFor(parseTenantId('acme'), parseTopicId('ai-browser'), request.time_window));
  });
});
