import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTENTS, type Intent } from '../../schemas/ingest.ts';
import { RANK_NEUTRAL } from './fusion.ts';
import { INTENT_WEIGHTS, SPEC_001_WEIGHTS } from './intent-weights.ts';
import { createItemScorer, scoreItem, type ScorableItem, type ScoringContext } from './score-item.ts';

const WINDOW_END = '2026-03-01T00:00:00Z';
const context = (intent: Intent | null, extra: Partial<ScoringContext> = {}): ScoringContext => ({ intent, subQueries: ['WebTransport API'], windowEnd: WINDOW_END, ...extra });
// keyword 0.5 (one of two terms), freshness 1 (published at the window end), authority 0.4 (tier 4, never boosted by default).
const halfMatchFreshUnknown: ScorableItem = { url: 'https://example.org/post', title: 'WebTransport explained', snippet: 'A look at HTTP/3 streams', published_at: WINDOW_END };

describe('scoreItem', () => {
  it.each([
    ['factual', 0.4, 0.1, 0.5],
    ['status', 0.3, 0.5, 0.2],
    ['comparison', 0.4, 0.2, 0.4],
    ['tutorial', 0.4, 0.1, 0.5],
    ['exploratory', 0.3, 0.2, 0.5],
    ['news', 0.3, 0.6, 0.1],
    ['resource', 0.5, 0.1, 0.4],
  ] as const)('%s: spec 001 weighs keyword %f, freshness %f, authority %f; the content score uses the fused weights over their content share', (intent, keyword, freshness, authority) => {
    // Issue 21 moved weight from these three components to the providers' rank and agreement (fusion.ts).
    expect(SPEC_001_WEIGHTS[intent]).toEqual({ keyword, freshness, authority, rank: 0, agreement: 0 });
    const weights = INTENT_WEIGHTS[intent];
    const result = scoreItem(halfMatchFreshUnknown, context(intent));
    expect(result.components).toMatchObject({ keyword: 0.5, freshness: 1, authority: 0.4, authorityTier: 4, boosted: false, weights, rank: RANK_NEUTRAL, freshnessBasis: 'published' });
    const expected = (weights.keyword * 0.5 + weights.freshness * 1 + weights.authority * 0.4) / (weights.keyword + weights.freshness + weights.authority);
    expect(result.score).toBeCloseTo(expected, 6);
  });

  it('has weights summing to 1 for every intent, with rank and agreement counted', () => {
    for (const intent of INTENTS) {
      const { keyword, freshness, authority, rank, agreement } = INTENT_WEIGHTS[intent];
      expect(keyword + freshness + authority + rank + agreement).toBeCloseTo(1, 10);
      expect(rank).toBeGreaterThan(0);
    }
  });

  it('without an intent scores nothing, so the caller keeps provider order (spec 001 backward compatibility)', () => {
    expect(scoreItem(halfMatchFreshUnknown, context(null))).toEqual({ score: null, components: null });
    expect(scoreItem(halfMatchFreshUnknown, context(null, { windowEnd: 'not a date' }))).toEqual({ score: null, components: null });
  });

  it.each([
    ['tutorial boosts dev.to (tier 2: 0.8 + 0.2)', 'tutorial', 'https://dev.to/a/post', [], 1, true, 2],
    ['resource boosts github.com, capped at 1', 'resource', 'https://github.com/a/b', [], 1, true, 1],
    ['resource boosts docs.* (tier 1, capped)', 'resource', 'https://docs.deno.com/runtime', [], 1, true, 1],
    ['news boosts techcrunch.com (tier 2)', 'news', 'https://techcrunch.com/2026/03/01/x', [], 1, true, 2],
    ['factual boosts nothing by default', 'factual', 'https://dev.to/a/post', [], 0.8, false, 2],
    ['a caller boost applies to any intent (tier 4: 0.4 + 0.2)', 'factual', 'https://example.org/post', ['example.org'], 0.6, true, 4],
    ['a caller boost covers subdomains', 'status', 'https://news.example.org/post', ['example.org'], 0.6, true, 4],
    ['an item without a URL gets the default tier', 'factual', null, ['example.org'], 0.4, false, 4],
  ] as const)('%s', (_name, intent, url, boostDomains, authority, boosted, tier) => {
    const { components } = scoreItem({ ...halfMatchFreshUnknown, url }, context(intent, { boostDomains }));
    expect(components).toMatchObject({ authority, boosted, authorityTier: tier });
  });

  it('records which tiers rule and file version decided the authority', () => {
    const { components } = scoreItem({ ...halfMatchFreshUnknown, url: 'https://docs.python.org/3/' }, context('factual'));
    expect(components?.authorityRule).toBe('docs.*');
    expect(components?.authorityVersion).toMatch(/\S/);
  });

  it.each([
    ['snippet', { snippet: 'WebTransport API guide', summary: null, content: null }, 1],
    ['summary when there is no snippet', { snippet: null, summary: 'WebTransport API guide', content: null }, 1],
    ['opening of the content when there is neither', { snippet: null, summary: null, content: 'WebTransport API guide' }, 1],
    ['rest of the content? no: only its opening', { snippet: null, summary: null, content: `${'x '.repeat(600)}API` }, 0.5],
  ])('matches keywords in the title plus the %s', (_name, text, keyword) => {
    const { components } = scoreItem({ url: 'https://example.org', title: 'WebTransport', published_at: null, ...text }, context('factual'));
    expect(components?.keyword).toBe(keyword);
  });

  it.each([['yesterday'], [''], ['2026-02-30T99:00:00Z']])('refuses a window end of %j with INVALID_INPUT', (windowEnd) => {
    expect(() => createItemScorer(context('news', { windowEnd }))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('refuses a malformed caller boost with INVALID_INPUT', () => {
    expect(() => createItemScorer(context('news', { boostDomains: ['https://x.com'] }))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  const itemArbitrary = fc.record({
    url: fc.option(fc.oneof(fc.webUrl(), fc.string()), { nil: null }),
    title: fc.string(),
    snippet: fc.option(fc.string(), { nil: null }),
    published_at: fc.option(fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.string()), { nil: null }),
  });

  it('keeps the score and every component in [0, 1] for any item, intent and query', () => {
    fc.assert(
      fc.property(itemArbitrary, fc.constantFrom(...INTENTS), fc.array(fc.string(), { maxLength: 4 }), (item, intent, subQueries) => {
        const { score, components } = scoreItem(item, context(intent, { subQueries }));
        for (const value of [score, components?.keyword, components?.freshness, components?.authority]) {
          expect(value).toBeGreaterThanOrEqual(0);
          expect(value).toBeLessThanOrEqual(1);
        }
      }),
    );
  });
});
