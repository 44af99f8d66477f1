import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../schemas/ingest.ts';
import { FRESHNESS_HALF_LIFE_DAYS, UNDATED_FRESHNESS, freshnessScore, parsePublishedAt } from './freshness.ts';

const WINDOW_END = Date.parse('2026-03-01T00:00:00Z');
const DAY = 24 * 60 * 60 * 1000;
const daysBefore = (days: number) => new Date(WINDOW_END - days * DAY).toISOString();

describe('freshnessScore', () => {
  it.each([
    ['news', 1], ['status', 7], ['exploratory', 180], ['comparison', 365], ['tutorial', 365], ['resource', 365], ['factual', 730],
  ] as const)('%s halves every %i days', (intent, halfLifeDays) => {
    expect(FRESHNESS_HALF_LIFE_DAYS[intent]).toBe(halfLifeDays);
    expect(freshnessScore(daysBefore(0), WINDOW_END, intent)).toBe(1);
    expect(freshnessScore(daysBefore(halfLifeDays), WINDOW_END, intent)).toBeCloseTo(0.5, 10);
    expect(freshnessScore(daysBefore(2 * halfLifeDays), WINDOW_END, intent)).toBeCloseTo(0.25, 10);
  });

  it('has a half-life for every intent', () => {
    for (const intent of INTENTS) expect(FRESHNESS_HALF_LIFE_DAYS[intent]).toBeGreaterThan(0);
  });

  it.each([
    ['undated', null, UNDATED_FRESHNESS],
    ['empty date', '', UNDATED_FRESHNESS],
    ['unparseable date', 'two days ago', UNDATED_FRESHNESS],
    ['a few hours after the window end (clock skew) counts as the window end', '2026-03-01T06:00:00Z', 1],
    ['far in the future is not believed', '2026-06-01T00:00:00Z', UNDATED_FRESHNESS],
    ['decays continuously between half-lives', daysBefore(3.5), 0.5 ** 0.5],
  ])('%s', (_name, publishedAt, expected) => {
    expect(freshnessScore(publishedAt, WINDOW_END, 'status')).toBeCloseTo(expected, 10);
  });

  it('is relative to the window end, not the clock: the same item scores the same in any replay', () => {
    const published = '2020-01-01T00:00:00Z';
    const windowEnd = Date.parse('2020-01-08T00:00:00Z');
    expect(freshnessScore(published, windowEnd, 'status')).toBeCloseTo(0.5, 10);
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
