import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../schemas/ingest.ts';
import { createScoreColumns } from './score-columns.ts';
import { createItemScorer, type ItemScore } from './score-item.ts';

const WINDOW_END = '2026-03-01T00:00:00Z';

describe('createScoreColumns', () => {
  it('gives back every score and its components as the scorer returned them, keys in the same order', () => {
    const item = fc.record({
      url: fc.oneof(fc.constant(null), fc.constantFrom('https://kafka.apache.org/blog', 'https://docs.example.com/a', 'https://github.com/x/y', 'not a url'), fc.webUrl()),
      title: fc.string(),
      snippet: fc.string(),
      published_at: fc.oneof(fc.constant(null), fc.date({ min: new Date('2020-01-01'), max: new Date('2026-04-01'), noInvalidDate: true }).map((date) => date.toISOString())),
      providerRank: fc.oneof(fc.constant(undefined), fc.integer({ min: 1, max: 50 })),
    });
    fc.assert(
      fc.property(fc.constantFrom(null, ...INTENTS), fc.array(item, { maxLength: 30 }), (intent, items) => {
        const scoreOf = createItemScorer({ intent, subQueries: ['kafka release notes'], windowEnd: WINDOW_END, boostDomains: ['docs.*'] });
        const scores: ItemScore[] = items.map(scoreOf);
        const columns = createScoreColumns();
        for (const score of scores) columns.push(score);
        scores.forEach((score, index) => {
          expect(columns.scoreAt(index)).toBe(score.score);
          expect(JSON.stringify(columns.componentsAt(index))).toBe(JSON.stringify(score.components));
        });
      }),
      { numRuns: 100 },
    );
  });

  it('gives each item its own copy of the weights: changing one changes no other', () => {
    const scoreOf = createItemScorer({ intent: 'status', subQueries: ['kafka'], windowEnd: WINDOW_END });
    const columns = createScoreColumns();
    columns.push(scoreOf({ url: 'https://a.example/1', title: 'Kafka', published_at: null }));
    columns.push(scoreOf({ url: 'https://a.example/2', title: 'Kafka', published_at: null }));
    const first = columns.componentsAt(0)!;
    first.weights.keyword = 9;
    expect(columns.componentsAt(1)!.weights.keyword).not.toBe(9);
    expect(columns.componentsAt(0)!.weights.keyword).not.toBe(9);
  });
});
