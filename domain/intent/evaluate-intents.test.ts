import { describe, expect, it } from 'vitest';
import type { Intent } from '../../schemas/ingest.ts';
import { evaluateIntents, parseIntentCorpus } from './evaluate-intents.ts';

describe('evaluateIntents', () => {
  const rows: Array<{ id: string; query: string; intent: Intent }> = [
    { id: 'a', query: 'q-news', intent: 'news' },
    { id: 'b', query: 'q-news-2', intent: 'news' },
    { id: 'c', query: 'q-status', intent: 'status' },
    { id: 'd', query: 'q-factual', intent: 'factual' },
  ];
  // A stand-in classifier: calls every query news, except the factual one.
  const classify = (query: string): Intent => (query === 'q-factual' ? 'factual' : 'news');

  it('computes accuracy, per-intent precision and recall, and lists the confusions', () => {
    const evaluation = evaluateIntents(rows, classify);
    expect(evaluation).toMatchObject({ total: 4, correct: 3, accuracy: 0.75 });
    expect(evaluation.perIntent.news).toEqual({ support: 2, predicted: 3, correct: 2, precision: 2 / 3, recall: 1 });
    expect(evaluation.perIntent.status).toEqual({ support: 1, predicted: 0, correct: 0, precision: 0, recall: 0 });
    expect(evaluation.perIntent.factual).toEqual({ support: 1, predicted: 1, correct: 1, precision: 1, recall: 1 });
    expect(evaluation.perIntent.resource).toEqual({ support: 0, predicted: 0, correct: 0, precision: 0, recall: 0 });
    expect(evaluation.confusions).toEqual([{ id: 'c', query: 'q-status', expected: 'status', predicted: 'news' }]);
  });

  it('scores an empty corpus as 0 without dividing by zero', () => {
    expect(evaluateIntents([], classify)).toMatchObject({ total: 0, correct: 0, accuracy: 0, confusions: [] });
  });

  it('uses the rule classifier by default', () => {
    expect(evaluateIntents([{ id: 'x', query: 'kafka vs pulsar', intent: 'comparison' }]).accuracy).toBe(1);
  });
});

describe('parseIntentCorpus', () => {
  it('reads JSON Lines and skips blank lines', () => {
    const text = '{"id":"1","query":"what is rust","lang":"en","intent":"factual"}\n\n{"id":"2","query":"rust 新闻","intent":"news","note":"x"}\n';
    expect(parseIntentCorpus(text).map((row) => row.intent)).toEqual(['factual', 'news']);
  });

  it.each<[string, string, number]>([
    ['a line that is not JSON', '{"id":"1","query":"q","intent":"news"}\n{oops', 2],
    ['an unknown intent', '{"id":"1","query":"q","intent":"gossip"}', 1],
    ['an empty query', '{"id":"1","query":"","intent":"news"}', 1],
  ])('rejects %s with INVALID_INPUT naming the line', (_case, text, line) => {
    expect(() => parseIntentCorpus(text)).toThrowError(expect.objectContaining({ code: 'INVALID_INPUT', details: { line } }));
  });
});
