import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../schemas/ingest.ts';
import { RRF_K } from '../ranking/fusion.ts';
import type { ScoringContext } from '../ranking/score-item.ts';
import { rankItems, type RankableItem } from './rank-items.ts';

const WINDOW_END = '2026-03-01T00:00:00Z';
const context = (overrides: Partial<ScoringContext> = {}): ScoringContext => ({ intent: 'status', subQueries: ['Deno 2 release'], windowEnd: WINDOW_END, ...overrides });
const item = (overrides: Partial<RankableItem> & { id: string }): RankableItem => ({
  url: `https://example.org/${overrides.id}`,
  title: 'Deno 2 release',
  snippet: 'What changed',
  published_at: WINDOW_END,
  provider: 'brave',
  ...overrides,
});

describe('rankItems', () => {
  it('fuses agreement and the providers\' rank into the score as components of their own', () => {
    // Issue 21: agreement is a weighted 0–1 component instead of a flat +0.05 bonus.
    const [ranked] = rankItems(
      [item({ id: 'a', url: 'https://example.org/blog/v2', provider: 'brave', providerRank: 1, resultList: 'brave/0' }), item({ id: 'b', url: 'https://www.example.org/blog/v2/?utm_source=hn', provider: 'exa', providerRank: 3, resultList: 'exa/0' })],
      context(),
    );
    expect(ranked?.components?.agreement).toBeCloseTo(1 / 3, 5);
    expect(ranked?.components?.rank).toBe(1);
    expect(ranked?.components?.independentSources).toBe(2);
    const weights = ranked!.components!.weights;
    const content = ranked!.components!.base * (weights.keyword + weights.freshness + weights.authority);
    expect(ranked?.score).toBeCloseTo(content + weights.rank * 1 + weights.agreement / 3, 5);
    expect(ranked?.canonicalUrl).toBe('https://example.org/blog/v2');
    expect(ranked?.sources.map((source) => source.provider)).toEqual(['brave', 'exa']);
  });

  it('puts the provider\'s top result above its tenth when the content scores tie, and fuses lists', () => {
    const ranked = rankItems(
      [
        item({ id: 'tenth', url: 'https://example.org/tenth', providerRank: 10, resultList: 'brave/0' }),
        item({ id: 'first', url: 'https://example.org/first', providerRank: 1, resultList: 'brave/0' }),
        item({ id: 'twice', url: 'https://example.org/twice', providerRank: 2, resultList: 'brave/1' }),
        item({ id: 'twice-exa', url: 'https://example.org/twice', provider: 'brave', providerRank: 2, resultList: 'brave/2' }),
      ],
      context(),
    );
    expect(ranked.map((entry) => entry.item.id)).toEqual(['twice', 'first', 'tenth']);
  });

  it('reads a merged copy\'s list place from the last item added with its id', () => {
    // Two exact repeats of one result (one id), at ranks 2 and 9 of exa's list, merged into `a`.
    const ranked = rankItems(
      [
        item({ id: 'a', url: 'https://example.org/x', providerRank: 1, resultList: 'brave/0' }),
        item({ id: 'copy', url: 'https://example.org/x/', provider: 'exa', providerRank: 2, resultList: 'exa/0' }),
        item({ id: 'lone', url: 'https://example.org/lone', provider: 'tavily', providerRank: 1, resultList: 'tavily/0' }),
        item({ id: 'copy', url: 'https://example.org/x/', provider: 'exa', providerRank: 9, resultList: 'exa/0' }),
      ],
      context(),
    );
    const [merged, lone] = [ranked.find((entry) => entry.item.id === 'a')!, ranked.find((entry) => entry.item.id === 'lone')!];
    expect(merged.merged.map((copy) => copy.id)).toEqual(['copy', 'copy']);
    // The document's reciprocal-rank sum is the run's highest: the lone result's rank component is its share of it.
    const documentSum = 1 / (RRF_K + 1) + 1 / (RRF_K + 9);
    expect(merged.components?.rank).toBe(1);
    expect(lone.components?.rank).toBe(Math.round((1 / (RRF_K + 1) / documentSum) * 1e6) / 1e6);
  });

  it('lets agreement lift a confirmed item above a lone one it tied with', () => {
    const ranked = rankItems(
      [item({ id: 'lone', url: 'https://example.org/lone' }), item({ id: 'pair', url: 'https://example.org/pair' }), item({ id: 'pair-copy', url: 'https://example.org/pair/', provider: 'tavily' })],
      context(),
    );
    expect(ranked.map((entry) => [entry.rank, entry.item.id])).toEqual([
      [1, 'pair'],
      [2, 'lone'],
    ]);
  });

  it('reaches at most 1: every component at its best', () => {
    const providers = ['brave', 'exa', 'tavily', 'rss'];
    const [ranked] = rankItems(
      providers.map((provider, index) => item({ id: `${index}`, url: 'https://github.com/denoland/deno', provider, providerRank: 1, resultList: provider })),
      context({ intent: 'resource', subQueries: ['Deno 2 release'] }),
    );
    expect(ranked?.components?.base).toBe(1);
    expect(ranked?.score).toBe(1);
  });

  it('without an intent keeps provider order and scores nothing, but still merges copies', () => {
    const ranked = rankItems(
      [item({ id: 'z', url: 'https://example.org/1' }), item({ id: 'a', url: 'https://example.org/2' }), item({ id: 'm', url: 'https://example.org/1/', provider: 'exa' })],
      context({ intent: null }),
    );
    expect(ranked.map((entry) => [entry.item.id, entry.score, entry.components])).toEqual([
      ['z', null, null],
      ['a', null, null],
    ]);
    expect(ranked[0]?.agreement.independentSources).toBe(2);
  });

  const itemsArbitrary = fc.uniqueArray(
    fc.record({
      id: fc.string({ minLength: 1, maxLength: 6 }),
      url: fc.option(fc.oneof(fc.constantFrom('https://github.com/a', 'https://www.github.com/a/', 'https://dev.to/x', 'http://example.org/p?utm_source=1', 'https://example.org/p'), fc.webUrl()), { nil: null }),
      title: fc.oneof(fc.constantFrom('Deno 2 release notes', 'Deno 2 vs Bun', 'Rust 异步编程'), fc.string()),
      snippet: fc.string(),
      published_at: fc.option(fc.date({ min: new Date('2020-01-01'), max: new Date('2027-01-01'), noInvalidDate: true }).map((date) => date.toISOString()), { nil: null }),
      provider: fc.constantFrom('brave', 'exa', 'tavily'),
    }),
    { selector: (entry) => entry.id, maxLength: 25 },
  );

  it('keeps every score in [0, 1], bonus included', () => {
    fc.assert(
      fc.property(itemsArbitrary, fc.constantFrom(...INTENTS), (items, intent) => {
        for (const ranked of rankItems(items, context({ intent }))) {
          expect(ranked.score).toBeGreaterThanOrEqual(0);
          expect(ranked.score).toBeLessThanOrEqual(1);
        }
      }),
    );
  });

  it('ranks the same input the same way in any order', () => {
    fc.assert(
      fc.property(
        itemsArbitrary.chain((items) => fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length }))),
        fc.constantFrom(...INTENTS),
        ([items, shuffled], intent) => {
          const summary = (list: RankableItem[]) => rankItems(list, context({ intent })).map((ranked) => [ranked.item.id, ranked.score, ranked.sources.map((source) => source.id)]);
          expect(summary(shuffled)).toEqual(summary(items));
        },
      ),
    );
  });

  it('orders best first, equal scores by canonical URL', () => {
    fc.assert(
      fc.property(itemsArbitrary, fc.constantFrom(...INTENTS), (items, intent) => {
        const ranked = rankItems(items, context({ intent }));
        for (let index = 1; index < ranked.length; index++) {
          const [previous, current] = [ranked[index - 1]!, ranked[index]!];
          expect(previous.score!).toBeGreaterThanOrEqual(current.score!);
          if (previous.score === current.score) expect((previous.canonicalUrl ?? '\uffff') <= (current.canonicalUrl ?? '\uffff')).toBe(true);
        }
      }),
    );
  });
});
