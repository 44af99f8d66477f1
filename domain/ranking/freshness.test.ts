import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../schemas/ingest.ts';
import { FRESHNESS_CURVES, STALE_AUTHORITY_FLOOR, UNDATED_FRESHNESS, UNDATED_FRESHNESS_BY_INTENT, curveFreshness, freshnessOf, freshnessScore, parsePublishedAt, staleAuthority } from './freshness.ts';

const WINDOW_END = Date.parse('2026-03-01T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const daysBefore = (days: number) => new Date(WINDOW_END - days * DAY).toISOString();

describe('freshnessScore', () => {
  // Issue 21: gentler curves by intent instead of spec 001's exponential half-lives (news 1 day,
  // status 7), and a penalty instead of a neutral 0.5 for undated items where freshness matters.
  it.each([
    // intent, age in days, freshness
    ['news', 0, 1], ['news', 0.5, 0.984615], ['news', 3, 0.64], ['news', 4, 0.5], ['news', 7, 0.246154], ['news', 30, 0.017467],
    ['status', 0, 1], ['status', 7, 0.898706], ['status', 30, 0.5], ['status', 90, 0.16139], ['status', 365, 0.023021],
    ['tutorial', 30, 0.996923], ['tutorial', 540, 0.5], ['tutorial', 1825, 0.080503],
    ['comparison', 365, 0.5], ['exploratory', 365, 0.5], ['factual', 1095, 0.5], ['resource', 1095, 0.5],
  ] as const)('%s at %f days is %f', (intent, days, expected) => {
    expect(freshnessScore(daysBefore(days), WINDOW_END, intent)).toBeCloseTo(expected, 5);
  });

  it('keeps a 5-day-old report above an undated page for news and status (the undated-evergreen failure)', () => {
    for (const intent of ['news', 'status'] as const) {
      expect(freshnessScore(daysBefore(5), WINDOW_END, intent)).toBeGreaterThan(freshnessScore(null, WINDOW_END, intent) + 0.2);
    }
  });

  it('decreases with age for every intent, from 1 at the window end', () => {
    for (const intent of INTENTS) {
      expect(FRESHNESS_CURVES[intent].midpointDays).toBeGreaterThan(0);
      expect(curveFreshness(0, intent)).toBe(1);
      const ages = [1, 7, 30, 180, 365, 1000, 3000];
      const values = ages.map((age) => curveFreshness(age, intent));
      values.slice(1).forEach((value, index) => expect(value).toBeLessThan(values[index]!));
    }
  });

  it.each([
    ['news', 0.05], ['status', 0.15], ['comparison', 0.35], ['tutorial', 0.4], ['exploratory', 0.4], ['factual', UNDATED_FRESHNESS], ['resource', UNDATED_FRESHNESS],
  ] as const)('an undated %s item gets %f', (intent, expected) => {
    expect(UNDATED_FRESHNESS_BY_INTENT[intent]).toBe(expected);
    for (const undated of [null, '', 'two days ago', '2026-06-01T00:00:00Z' /* far in the future: not believed */]) {
      expect(freshnessScore(undated, WINDOW_END, intent)).toBe(expected);
    }
  });

  it.each([
    ['a few hours after the window end (clock skew): the window end', '2026-03-01T06:00:00Z', 1],
    ['23 hours after: still inside the tolerance', '2026-03-01T23:00:00Z', 1],
    ['25 hours after: not believed, scored as undated', '2026-03-02T01:00:00Z', UNDATED_FRESHNESS_BY_INTENT.status],
  ] as const)('a date %s', (_name, published, expected) => {
    expect(freshnessScore(published, WINDOW_END, 'status')).toBe(expected);
  });

  it('is relative to the window end, not the clock: the same item scores the same in any replay', () => {
    const windowEnd = Date.parse('2020-01-31T00:00:00Z');
    expect(freshnessScore('2020-01-01T00:00:00Z', windowEnd, 'status')).toBeCloseTo(0.5, 10);
  });
});

describe('freshnessOf: undated items', () => {
  const undated = { published_at: null };
  it.each([
    ['a dated URL path', { url: 'https://kubernetes.io/blog/2026/02/20/gateway-api-v1-4/' }, 'estimated', '2026-02-20'],
    ['a dashed URL date', { url: 'https://example.com/posts/2026-02-10-release-notes' }, 'estimated', '2026-02-10'],
    ['a compact URL date', { url: 'https://openssl-library.org/news/secadv/20260218.txt' }, 'estimated', '2026-02-18'],
    ['a year/month URL (mid-month)', { url: 'https://example.com/2026/01/what-changed' }, 'estimated', '2026-01-15'],
    ['an English date in the title', { url: 'https://example.com/advisory', title: 'Security Advisory [18th February 2026]' }, 'estimated', '2026-02-18'],
    ['a US date in the snippet', { url: 'https://example.com/a', title: 'Release', snippet: 'Released on February 3, 2026 with fixes.' }, 'estimated', '2026-02-03'],
    ['a Chinese date in the snippet', { url: 'https://example.cn/a', title: '发布', snippet: '华为于 2026 年 2 月 18 日发布了新版本。' }, 'estimated', '2026-02-18'],
    ['an ISO date in the content', { url: 'https://example.com/a', title: 'Notes', content: 'Release date: 2026-02-13. This release contains fixes.' }, 'estimated', '2026-02-13'],
    ['nothing to go on', { url: 'https://en.wikipedia.org/wiki/OpenSSL', title: 'OpenSSL - Wikipedia', snippet: 'OpenSSL is a software library.' }, 'undated', null],
    ['only a date after the window end', { url: 'https://example.com/2027/05/01/future' }, 'undated', null],
    ['a version number that looks like a date', { url: 'https://example.com/releases/v2026.1', title: 'Version 2026.1' }, 'undated', null],
    ['a year/month URL in the window end\'s month: the window end, not a later 15th', { url: 'https://example.com/2026/03/what-changed' }, 'estimated', '2026-03-01'],
    ['the URL\'s date before a date in the text', { url: 'https://example.com/2026/02/20/notes', title: 'Notes', snippet: 'Released on February 3, 2026.' }, 'estimated', '2026-02-20'],
    ['an impossible day in a URL date: its month still counts', { url: 'https://example.com/2026/02/31/notes', title: 'Notes', snippet: 'Released on February 3, 2026.' }, 'estimated', '2026-02-15'],
    ['an impossible text date is skipped', { url: 'https://example.com/a', title: 'Notes', snippet: 'Released 2026-02-30.' }, 'undated', null],
    ['a date past the opening of the content is not read', { url: 'https://example.com/a', title: 'Notes', content: `${'x '.repeat(400)}Release date: 2026-02-13.` }, 'undated', null],
  ] as const)('%s', (_name, fields, basis, day) => {
    const result = freshnessOf({ ...undated, ...fields }, WINDOW_END, 'news');
    expect(result.basis).toBe(basis);
    expect(result.date?.slice(0, 10) ?? null).toBe(day);
    if (basis === 'undated') expect(result.score).toBe(UNDATED_FRESHNESS_BY_INTENT.news);
  });

  it.each(['news', 'status', 'tutorial', 'factual'] as const)('scores an estimated date on the %s curve, like a published one', (intent) => {
    const result = freshnessOf({ published_at: null, url: 'https://example.com/2026/02/22/post' }, WINDOW_END, intent);
    expect(result.score).toBe(curveFreshness(7, intent));
  });

  it('prefers the published date over any estimate', () => {
    const result = freshnessOf({ published_at: daysBefore(2), url: 'https://example.com/2020/01/01/old' }, WINDOW_END, 'news');
    expect(result).toMatchObject({ basis: 'published', score: curveFreshness(2, 'news') });
  });
});

describe('staleAuthority', () => {
  const dated = (score: number) => ({ score, basis: 'published' as const, date: '2021-01-01T00:00:00.000Z' });
  it.each([
    ['fresh enough: full authority', 'tutorial', dated(0.6), 1],
    ['stale tutorial: shrinks in proportion', 'tutorial', dated(0.15), 0.5],
    ['very stale: down to the floor', 'tutorial', dated(0.01), STALE_AUTHORITY_FLOOR],
    ['stale news', 'news', dated(0.03), STALE_AUTHORITY_FLOOR],
    ['factual answers do not go stale this way', 'factual', dated(0.01), 1],
    ['resource neither', 'resource', dated(0.01), 1],
    ['undated: left to the undated freshness', 'status', { score: 0.15, basis: 'undated' as const, date: null }, 1],
  ] as const)('%s', (_name, intent, freshness, expected) => {
    expect(staleAuthority(1, freshness, intent)).toBeCloseTo(expected, 10);
  });
});

describe('parsePublishedAt', () => {
  it.each([
    ['ISO with offset', '2026-02-28T20:00:00+08:00', Date.parse('2026-02-28T12:00:00Z')],
    ['ISO without offset is UTC', '2026-02-28T12:00:00', Date.parse('2026-02-28T12:00:00Z')],
    ['date only is UTC midnight', '2026-02-28', Date.parse('2026-02-28T00:00:00Z')],
    ['RFC 2822 with a zone (feeds)', 'Sat, 28 Feb 2026 12:00:00 GMT', Date.parse('2026-02-28T12:00:00Z')],
    ['RFC 2822 with a numeric zone', 'Sat, 28 Feb 2026 20:00:00 +0800', Date.parse('2026-02-28T12:00:00Z')],
    ['no zone: ambiguous across machines', 'Feb 28, 2026 12:00', null],
    ['not a date', 'yesterday', null],
    ['impossible ISO date', '2026-13-45', null],
  ])('%s', (_name, value, expected) => {
    expect(parsePublishedAt(value)).toBe(expected);
  });
});
