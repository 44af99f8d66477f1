import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ingestBatchSchema, type RunCounts, type ScoredItem } from '../../schemas/messages.ts';
import { positionOf, requestContextFixture, scoredItemFixture } from '../../test/fixtures/messages.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import { compileScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { assembleBatch, type ClosedRun } from './assemble-batch.ts';
import { parseRunId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';
import { canonicalUrl } from '../../domain/urls/canonical-url.ts';

const PRODUCER = { kind: 'provider', name: 'retriever', persistent: true, capabilities: ['rss_feed', 'web_search'] } as const;
const COUNTS: RunCounts = { raw_responses: 4, raw_items: 0, accepted: 0, downweighted: 0, quarantined: 0, dropped: 0, normalize_failures: 2 };

/** Distinct short titles: too short for near-duplicate matching, so only URLs merge. */
function item(id: string, fields: Partial<ScoredItem> = {}): ScoredItem {
  const url = fields.url ?? `https://example.com/${id}`;
  return scoredItemFixture({
    id,
    title: `Story ${id}`,
    url,
    // As the scorer gives it: the canonical form of the URL, which the collector's dedupe takes.
    canonical_url: canonicalUrl(url),
    content: `Body ${id}`,
    summary: null,
    sources: [{ provider: fields.producer_name ?? 'rss_feed', url, item_id: id }],
    position: positionOf(id),
    ...fields,
  });
}

function run(items: ScoredItem[], overrides: Partial<ClosedRun> = {}): ClosedRun {
  return {
    tenant: parseTenantId('acme'),
    topicId: parseTopicId('ai-browser'),
    runId: parseRunId('run-20260425t023000z-0a1b2c3d'),
    request: requestContextFixture,
    producer: { ...PRODUCER, capabilities: [...PRODUCER.capabilities] },
    items,
    marker: { counts: COUNTS, finishedAt: '2026-04-25T10:29:05+08:00', providerStatus: [], degradationLogJson: '[]', planJson: null },
    incompleteReason: null,
    ...overrides,
  };
}

const ids = (batch: ReturnType<typeof assembleBatch>) => batch.items.map((entry) => entry.id);

describe('assembleBatch', () => {
  it('merges copies with one canonical URL, listing every source and fusing rank and agreement into the score', () => {
    // Issue 21: agreement is a weighted component (0–1) instead of a flat bonus, and the providers' rank is fused in.
    const weights = { weight_keyword: 0.3, weight_freshness: 0.2, weight_authority: 0.1, weight_rank: 0.3, weight_agreement: 0.1 };
    const fixture = scoredItemFixture().components!;
    const brave = item('a1', { url: 'https://www.example.com/story?utm_source=brave', producer_name: 'brave_web_search', capability: 'web_search', score: 0.6, response_sequence: 1, position: 0, components: { ...fixture, ...weights } });
    const feed = item('a2', { url: 'https://example.com/story', producer_name: 'feed_reader', score: 0.5, response_sequence: 0, components: { ...fixture, ...weights } });
    const other = item('b1', { score: 0.4, capability: 'web_search', response_sequence: 1, position: 1, components: { ...fixture, ...weights } });
    const batch = assembleBatch(run([feed, other, brave]));
    expect(ids(batch)).toEqual(['a1', 'b1']);
    const merged = batch.items[0]!;
    expect(merged.sources.map((source) => [source.provider, source.item_id])).toEqual([['brave_web_search', 'a1'], ['feed_reader', 'a2']]);
    // Content 0.6 × 0.6 + rank 1 (best in the run) × 0.3 + agreement (2 sources → 1/3) × 0.1.
    expect(merged.score).toBeCloseTo(0.6 * 0.6 + 0.3 + 0.1 / 3, 5);
    expect(merged.components).toMatchObject({ base: 0.6, rank: 1, agreement: 0.333333, independent_sources: 2 });
    // b1 is rank 2 of the same list: 1/(10+2) over 1/(10+1).
    expect(batch.items[1]!.components!.rank).toBeCloseTo(11 / 12, 5);
    expect(batch.stats.merged_duplicates).toBe(1);
    expect(batch.stats.counts).toMatchObject({ raw_items: 3, accepted: 3 });
    expect(ingestBatchSchema.safeParse(batch).success).toBe(true);
  });

  it('fuses with the scoring model it was given and names it in the batch', () => {
    const weights = { weight_keyword: 0.3, weight_freshness: 0.2, weight_authority: 0.1, weight_rank: 0.3, weight_agreement: 0.1 };
    const fixture = scoredItemFixture().components!;
    const items = [
      item('a1', { url: 'https://example.com/story', producer_name: 'brave_web_search', capability: 'web_search', score: 0.6, response_sequence: 1, position: 0, components: { ...fixture, ...weights } }),
      item('a2', { url: 'https://example.com/story', producer_name: 'feed_reader', score: 0.5, response_sequence: 0, components: { ...fixture, ...weights } }),
      item('b1', { score: 0.4, capability: 'web_search', response_sequence: 1, position: 1, components: { ...fixture, ...weights } }),
    ];
    const definition = structuredClone(DEFAULT_SCORING_MODEL.definition);
    definition.id = 'steep-fusion';
    definition.ranking.fusion = { rrfK: 0, rankNeutral: 0.5, agreementSaturation: 1 };
    const shipped = assembleBatch(run(items));
    const steep = assembleBatch(run(items), compileScoringModel(definition));
    expect([shipped.scoring_model, steep.scoring_model]).toEqual([DEFAULT_SCORING_MODEL.tag, `steep-fusion@${definition.version}`]);
    // Two sources saturate agreement at once; with k = 0 the second place of a list is worth half the first.
    expect(steep.items.map((entry) => [entry.id, entry.components!.agreement, entry.components!.rank])).toEqual([['a1', 1, 1], ['b1', 0, 0.5]]);
    expect(shipped.items.map((entry) => [entry.id, entry.components!.agreement])).toEqual([['a1', 0.333333], ['b1', 0]]);
    expect(steep.items[0]!.score).toBeCloseTo(0.6 * 0.6 + 0.3 + 0.1, 5);
  });

  it('counts dropped items but does not keep them', () => {
    const batch = assembleBatch(run([
      item('a', { score: 0.5 }),
      item('b', { verdict: 'DROPPED', score: null, components: null }),
      item('c', { verdict: 'QUARANTINED', score: 0.1 }),
      item('d', { verdict: 'DOWNWEIGHTED', score: 0.2 }),
    ]));
    expect(ids(batch)).toEqual(['a', 'd', 'c']);
    expect(batch.stats.counts).toEqual({ raw_responses: 4, raw_items: 4, accepted: 1, downweighted: 1, quarantined: 1, dropped: 1, normalize_failures: 2 });
  });

  it('ranks by score, ties by canonical URL', () => {
    const batch = assembleBatch(run([item('low', { score: 0.1 }), item('zz', { score: 0.9 }), item('aa', { score: 0.9 }), item('mid', { score: 0.5 })]));
    expect(ids(batch)).toEqual(['aa', 'zz', 'mid', 'low']);
  });

  it('cuts ties by canonical URL, then content hash, never by ids that change with the run', () => {
    // 12 items with one score, cut to 5: whatever ids a run gives them and whatever order they
    // arrive in, the same five URLs are kept, in the same order.
    const evidence = Array.from({ length: 12 }, (_unused, index) => ({ url: `https://example.com/story-${String((index * 7) % 12).padStart(2, '0')}`, hash: index.toString(16).padStart(32, '0') }));
    const keptUrls = (runTag: string, order: number[]) => {
      const items = order.map((index) => {
        const { url, hash } = evidence[index]!;
        return item(`${runTag}-${index}`, { url, canonical_url: url, content_hash: hash, score: 0.5, position: index });
      });
      return assembleBatch(run(items, { request: { ...requestContextFixture, max_items: 5 } })).items.map((entry) => entry.canonical_url);
    };
    const expected = evidence.map((entry) => entry.url).sort().slice(0, 5);
    fc.assert(fc.property(
      fc.stringMatching(/^[a-z]{1,8}$/),
      fc.shuffledSubarray(evidence.map((_entry, index) => index), { minLength: evidence.length, maxLength: evidence.length }),
      (runTag, order) => {
        expect(keptUrls(runTag, order)).toEqual(expected);
      },
    ), { numRuns: 50 });
  });

  it('keeps provider order (response, then position) when there are no scores', () => {
    const unscored = { score: null, components: null };
    const batch = assembleBatch(run([
      item('r1p1', { ...unscored, response_sequence: 1, position: 1 }),
      item('r0p1', { ...unscored, response_sequence: 0, position: 1 }),
      item('r1p0', { ...unscored, response_sequence: 1, position: 0 }),
      item('r0p0', { ...unscored, response_sequence: 0, position: 0 }),
    ]));
    expect(ids(batch)).toEqual(['r0p0', 'r0p1', 'r1p0', 'r1p1']);
    expect(batch.items.every((entry) => entry.score === null)).toBe(true);
  });

  it('cuts to max_items and counts the cut', () => {
    const items = Array.from({ length: 7 }, (_unused, index) => item(`i${index}`, { score: index / 10 }));
    const batch = assembleBatch(run(items, { request: { ...requestContextFixture, max_items: 3 } }));
    expect(ids(batch)).toEqual(['i6', 'i5', 'i4']);
    expect(batch.stats.cut_by_max_items).toBe(4);
    // The cut items travel on by identity only, so the sink can remember them as found.
    expect(batch.cut.map((entry) => entry.id)).toEqual(['i3', 'i2', 'i1', 'i0']);
    expect(batch.cut[0]).toEqual({ id: 'i3', title: 'Story i3', url: 'https://example.com/i3', canonical_url: 'https://example.com/i3', content_hash: items[3]!.content_hash });
    expect(batch.stats.counts.raw_items).toBe(7);
  });

  it('counts a redelivered item once', () => {
    const a = item('a', { score: 0.5 });
    const batch = assembleBatch(run([a, item('b', { score: 0.4 }), structuredClone(a), structuredClone(a)]));
    expect(ids(batch)).toEqual(['a', 'b']);
    expect(batch.stats.counts.raw_items).toBe(2);
    expect(batch.stats.merged_duplicates).toBe(0);
  });

  it('gives the identical batch for the same items in any order', () => {
    const items = [
      item('a1', { url: 'https://www.example.com/story?utm_source=x', producer_name: 'brave_web_search', score: 0.6, response_sequence: 1 }),
      item('a2', { url: 'https://example.com/story', producer_name: 'feed_reader', score: 0.6, response_sequence: 0 }),
      item('b', { score: 0.4 }),
      item('c', { verdict: 'DROPPED', score: null, components: null }),
      item('d', { score: null, components: null, response_sequence: 2 }),
      item('e', { score: null, components: null, response_sequence: 2, position: 1 }),
      item('f', { score: 0.4, response_sequence: 3 }),
    ];
    const expected = assembleBatch(run(items));
    fc.assert(fc.property(fc.shuffledSubarray(items, { minLength: items.length, maxLength: items.length }), (shuffled) => {
      expect(assembleBatch(run(shuffled))).toEqual(expected);
    }), { numRuns: 50 });
  });

  it('reports a run closed without its marker as incomplete, with counts of its own', () => {
    const batch = assembleBatch(run([
      item('a', { response_sequence: 0, fetched_at: '2026-04-25T02:29:00.000Z' }),
      item('b', { response_sequence: 2, fetched_at: '2026-04-25T02:29:30.000Z' }),
    ], { marker: null, incompleteReason: 'no run-end marker within 300 s' }));
    expect(batch.stats).toMatchObject({
      complete: false,
      incomplete_reason: 'no run-end marker within 300 s',
      provider_status: [],
      degradation_log_json: '[]',
      counts: { raw_responses: 2, raw_items: 2, normalize_failures: 0 },
    });
    expect(batch.retrieved_at).toBe('2026-04-25T02:29:30.000Z');
  });

  it('carries the plan from the marker, and none without one', () => {
    const withPlan = run([], { marker: { counts: COUNTS, finishedAt: '2026-04-25T10:29:05+08:00', providerStatus: [], degradationLogJson: '[]', planJson: '{"task_id":"SR-1"}' } });
    expect(assembleBatch(withPlan).stats.plan_json).toBe('{"task_id":"SR-1"}');
    expect(assembleBatch(run([], { marker: null, incompleteReason: 'timeout' })).stats.plan_json).toBeNull();
  });

  it('closes an empty run with its marker', () => {
    const batch = assembleBatch(run([]));
    expect(batch.items).toEqual([]);
    expect(batch.stats).toMatchObject({ complete: true, counts: { raw_items: 0, raw_responses: 4 } });
    expect(batch.retrieved_at).toBe('2026-04-25T10:29:05+08:00');
    expect(batch.digest_markdown).toContain('No results for this run');
  });
});
