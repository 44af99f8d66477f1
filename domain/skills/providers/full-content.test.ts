/**
 * What the search skills ask each provider for, and what they make of it, against a real local HTTP
 * server serving recorded full-content answers: content is asked for and lands in `content`; Brave's
 * input limits are applied before the call (cut, mapped or left out, never a 422).
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { runSkill } from '../run-skill.ts';
import { startLocalServer, type Handler, type LocalServer } from '../testing/local-server.ts';
import { createTestRegistry } from '../testing/test-registry.ts';
import { BRAVE_MAX_QUERY_CHARS, BRAVE_MAX_QUERY_WORDS, braveCountry, braveSearchLang, cutBraveQuery } from './brave-params.ts';

const fixture = (provider: string, file: string) => readFileSync(new URL(`./${provider}/fixtures/${file}`, import.meta.url), 'utf8');

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function serve(handler: Handler, env: Record<string, string>) {
  server = await startLocalServer(handler);
  const origin = server.origin;
  const harness = await createTestRegistry({ env: Object.fromEntries(Object.entries(env).map(([name, value]) => [name, value === 'ORIGIN' ? origin : value])) });
  return { ...harness, server };
}

const json = (body: string): Handler => (_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json' }).end(body);
};
const queryOf = (path: string | undefined) => new URL(path ?? '', 'http://x').searchParams;
const BRAVE_ENV = { BRAVE_API_KEY: 'k', SKRYA_BRAVE_BASE_URL: 'ORIGIN' };

describe('full content is asked for and lands in content', () => {
  it.each([
    { skill: 'brave_web_search', provider: 'brave-web-search', file: 'web-full-content-page-1.json', env: BRAVE_ENV, count: 2 },
    { skill: 'brave_news_search', provider: 'brave-news-search', file: 'news-full-content.json', env: BRAVE_ENV, count: 2 },
  ])('$skill sends extra_snippets=true and makes the extra snippets the content', async ({ skill, provider, file, env, count }) => {
    const { registry, server: local } = await serve(json(fixture(provider, file)), env);
    const result = await runSkill(registry, skill, { query: 'kafka exactly once semantics' }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(queryOf(local.requests[0]?.path).get('extra_snippets')).toBe('true');
    expect(result.output?.results).toHaveLength(count);
    for (const hit of result.output?.results ?? []) {
      expect(hit.content).toBeTruthy();
      expect(hit.content!.length).toBeGreaterThan(hit.snippet.length);
      expect(hit.content).not.toMatch(/<strong>/);
    }
  });

  it('tavily_search asks for the raw content as text and makes it the content', async () => {
    const { registry, server: local } = await serve(json(fixture('tavily-search', 'search-full-content.json')), { TAVILY_API_KEY: 'k', SKRYA_TAVILY_BASE_URL: 'ORIGIN' });
    const result = await runSkill(registry, 'tavily_search', { query: 'kafka share groups' }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(JSON.parse(local.requests[0]?.body ?? '{}')).toMatchObject({ include_raw_content: 'text', search_depth: 'basic' });
    const [first, second] = result.output?.results ?? [];
    expect(first?.content).toContain('share-partition leader on the broker tracks which records are acquired');
    expect(second?.content).toContain('a poison record can be parked');
  });

  it('exa_search asks for text and highlights by maxCharacters (not the deprecated numSentences / highlightsPerUrl) and makes the text the content', async () => {
    const { registry, server: local } = await serve(json(fixture('exa-search', 'search-exactly-once.json')), { EXA_API_KEY: 'k', SKRYA_EXA_BASE_URL: 'ORIGIN' });
    const result = await runSkill(registry, 'exa_search', { query: 'stream processing exactly-once semantics' }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    const body = JSON.parse(local.requests[0]?.body ?? '{}') as { contents: { text: Record<string, unknown>; highlights: Record<string, unknown> } };
    expect(body.contents.text).toEqual({ maxCharacters: 4000 });
    expect(body.contents.highlights).toEqual({ maxCharacters: 500 });
    for (const hit of result.output?.results ?? []) expect(hit.content?.length).toBeGreaterThan(300);
  });
});

describe('Brave input limits, before the call', () => {
  const longQuery = Array.from({ length: 70 }, (_, index) => `w${index}`).join(' ');

  it('a long site query is cut, not refused: site: kept first, within 400 characters and 50 words, reported in the call', async () => {
    const { registry, server: local } = await serve(json(fixture('site-search', 'site-kafka-consumer-groups.json')), BRAVE_ENV);
    expect(longQuery.length).toBeLessThanOrEqual(400);
    const result = await runSkill(registry, 'site_search', { domain: 'kafka.apache.org', query: longQuery }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(local.requests).toHaveLength(1);
    const q = queryOf(local.requests[0]?.path).get('q') ?? '';
    expect(q.startsWith('site:kafka.apache.org w0 w1 ')).toBe(true);
    expect(q.length).toBeLessThanOrEqual(BRAVE_MAX_QUERY_CHARS);
    expect(q.split(' ')).toHaveLength(BRAVE_MAX_QUERY_WORDS);
    expect(result.message).toMatch(/query cut/);
    // Only hits on the domain are kept, parsed again from the raw response as replays do.
    expect(result.output?.results.every((hit) => new URL(hit.url).hostname === 'kafka.apache.org')).toBe(true);
  });

  it('a 400-character query with a 400-character site query refuses nothing either', async () => {
    const { registry, server: local } = await serve(json(fixture('site-search', 'site-kafka-consumer-groups.json')), BRAVE_ENV);
    const result = await runSkill(registry, 'site_search', { domain: 'kafka.apache.org', query: 'x'.repeat(400) }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(queryOf(local.requests[0]?.path).get('q')).toBe('site:kafka.apache.org');
  });

  it.each([
    { input: { search_lang: 'ja', country: 'JP' }, sent: { search_lang: 'jp', country: 'JP' }, note: /search_lang ja sent as jp/ },
    { input: { search_lang: 'zh-cn', country: 'ALL' }, sent: { search_lang: 'zh-hans', country: 'ALL' }, note: /zh-cn sent as zh-hans/ },
    { input: { search_lang: 'sw', country: 'KE' }, sent: { search_lang: null, country: null }, note: /sw is not a language Brave offers.*KE is not a country Brave offers/ },
    { input: { search_lang: 'en', country: 'US' }, sent: { search_lang: 'en', country: 'US' }, note: undefined },
  ])('search_lang $input.search_lang / country $input.country → $sent.search_lang / $sent.country', async ({ input, sent, note }) => {
    const { registry, server: local } = await serve(json(fixture('brave-web-search', 'web-kubernetes-release-notes.json')), BRAVE_ENV);
    const result = await runSkill(registry, 'brave_web_search', { query: 'kubernetes', ...input }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    const query = queryOf(local.requests[0]?.path);
    expect(query.get('search_lang')).toBe(sent.search_lang);
    expect(query.get('country')).toBe(sent.country);
    if (note) expect(result.message).toMatch(note);
    else expect(result.message).toBeUndefined();
  });

  it('reads further pages with offset until Brave says there are no more; each page is kept raw', async () => {
    const { registry, server: local } = await serve((request, response) => {
      const page = queryOf(request.path).get('offset') ?? '0';
      response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('brave-web-search', page === '0' ? 'web-full-content-page-1.json' : 'web-full-content-page-2.json'));
    }, BRAVE_ENV);
    const result = await runSkill(registry, 'brave_web_search', { query: 'kafka exactly once semantics', pages: 5 }, { tenant: 'acme', runId: 'r1' });
    expect(result.status).toBe('ok');
    expect(local.requests.map((request) => queryOf(request.path).get('offset'))).toEqual([null, '1']);
    expect(result.raw).toHaveLength(2);
    expect(result.output?.results.map((hit) => new URL(hit.url).pathname)).toEqual([
      '/blog/exactly-once-semantics-are-possible-heres-how-apache-kafka-does-it/',
      '/confluence/display/KAFKA/KIP-98+-+Exactly+Once+Delivery+and+Transactional+Messaging',
      '/blog/transactions-apache-kafka/',
    ]);
  });

  it('a later page that fails keeps the pages already read, with a note', async () => {
    const { registry } = await serve((request, response) => {
      if (queryOf(request.path).get('offset')) response.writeHead(422, { 'content-type': 'application/json' }).end(fixture('brave-web-search', 'errors/validation.json'));
      else response.writeHead(200, { 'content-type': 'application/json' }).end(fixture('brave-web-search', 'web-full-content-page-1.json'));
    }, BRAVE_ENV);
    const result = await runSkill(registry, 'brave_web_search', { query: 'kafka', pages: 3 }, { tenant: 'acme', runId: 'r1' });
    expect(result).toMatchObject({ status: 'ok', message: expect.stringMatching(/page 2 not read \(INVALID_INPUT\)/) });
    expect(result.output?.results).toHaveLength(2);
  });
});

describe('brave-params', () => {
  it.each([
    ['ja', 'jp'], ['JA', 'jp'], ['ja-JP', 'jp'], ['zh', 'zh-hans'], ['zh-CN', 'zh-hans'], ['zh-TW', 'zh-hant'], ['pt', 'pt-br'], ['pt-PT', 'pt-pt'],
    ['en', 'en'], ['en-US', 'en'], ['en-GB', 'en-gb'], ['de-AT', 'de'], ['no', 'nb'], ['sw', null], ['xx-YY', null],
  ])('search_lang %s → %s', (code, expected) => {
    expect(braveSearchLang(code).value).toBe(expected);
  });

  it.each([['US', 'US'], ['us', 'US'], ['UK', 'GB'], ['ALL', 'ALL'], ['KE', null]])('country %s → %s', (code, expected) => {
    expect(braveCountry(code).value).toBe(expected);
  });

  it.each([
    ['a short query is untouched', 'kafka release', 'kafka release', false],
    ['whitespace is collapsed, not reported', '  kafka   release ', 'kafka release', false],
    ['more than 50 words keep the first 50', Array.from({ length: 60 }, () => 'w').join(' '), Array.from({ length: 50 }, () => 'w').join(' '), true],
    ['past 400 characters whole words are dropped', `${'a'.repeat(300)} ${'b'.repeat(150)}`, 'a'.repeat(300), true],
    ['one overlong word is cut at 400', 'c'.repeat(450), 'c'.repeat(400), true],
  ])('%s', (_name, query, expected, noted) => {
    const cut = cutBraveQuery(query);
    expect(cut.q).toBe(expected);
    expect(cut.note !== null).toBe(noted);
  });
});
