import { describe, expect, it } from 'vitest';
import { keywordCoverage, prepareQueries } from './keyword-coverage.ts';

describe('keywordCoverage', () => {
  it.each([
    ['every term found', ['WebTransport API'], 'WebTransport API explained', 1],
    ['half the terms found', ['WebTransport API'], 'WebTransport explained', 0.5],
    ['no term found', ['WebTransport API'], 'HTTP/3 overview', 0],
    ['stop words in the query do not count', ['What is the WebTransport API'], 'WebTransport API', 1],
    ['case and width are folded', ['webtransport'], 'ＷＥＢＴＲＡＮＳＰＯＲＴ', 1],
    ['a term must match a whole word', ['go'], 'good golang tips', 0],
    ['Chinese terms match inside differently segmented text', ['Rust 异步编程'], 'Rust 的异步编程指南', 1],
    ['Chinese term missing', ['Rust 异步编程'], 'Rust 所有权指南', 1 / 3],
    // Sub-queries {bun, deno}, {bun, advantages}, {deno, advantages}: best 1, union 2/3 → 0.7·1 + 0.3·2/3.
    ['best sub-query dominates, the union adds a little', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun advantages', 0.9],
    // Best {bun, deno} = 1, union {bun, deno, advantages} 2/3.
    ['covering the main query but no expansion', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun and Deno compared', 0.9],
    ['all angles covered', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun vs Deno: advantages of each', 1],
    ['no sub-queries', [], 'anything', 0],
    ['sub-queries of stop words only', ['what is the'], 'what is the', 0],
  ])('%s', (_name, subQueries, text, expected) => {
    expect(keywordCoverage(prepareQueries(subQueries), text)).toBeCloseTo(expected, 10);
  });
});
