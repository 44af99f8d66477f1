import { describe, expect, it } from 'vitest';
import { allocateBudget } from './budget-allocation.ts';
import type { SourceType } from './route-input.ts';

type Row = [string, Array<[SourceType, number]>, number, number, number, Array<[SourceType, number]>];

const rows: Row[] = [
  ['spec 004 example: web 5 / graph 2 / local_file 1 / counter 2', [['web', 1], ['graph', 2], ['local_file', 1], ['counter', 2]], 10, 50, 0, [['web', 5], ['graph', 2], ['local_file', 1], ['counter', 2]]],
  ['high freshness: web exactly 70 % of 10, not 8 from float rounding', [['web', 1], ['counter', 2]], 10, 70, 70, [['web', 7], ['counter', 3]]],
  ['high freshness: web floor is a ceiling of 70 %', [['web', 1], ['vector', 2], ['counter', 2]], 7, 70, 70, [['web', 5], ['vector', 1], ['counter', 1]]],
  ['high freshness: sources that do not fit beside the floor are dropped from the end', [['web', 1], ['vector', 2], ['graph', 2], ['counter', 2]], 4, 70, 70, [['web', 3], ['vector', 1]]],
  ['high freshness, budget 3: web takes everything', [['web', 1], ['counter', 2]], 3, 70, 70, [['web', 3]]],
  ['ties in the remainder go to the earlier source', [['vector', 2], ['graph', 2], ['local_file', 2]], 4, 50, 0, [['vector', 2], ['graph', 1], ['local_file', 1]]],
  ['no web: weights alone', [['vector', 2], ['local_file', 1]], 9, 50, 0, [['vector', 6], ['local_file', 3]]],
  ['web alone gets all', [['web', 1]], 13, 20, 0, [['web', 13]]],
  ['low freshness: web supplements with 20 %', [['vector', 2], ['graph', 2], ['web', 1]], 10, 20, 0, [['vector', 4], ['graph', 4], ['web', 2]]],
  ['budget 1 keeps only the first source', [['vector', 2], ['web', 1]], 1, 20, 0, [['vector', 1]]],
  ['budget smaller than the sources: every kept one gets a search', [['graph', 2], ['web', 1], ['vector', 2], ['counter', 2]], 3, 50, 0, [['graph', 1], ['web', 1], ['vector', 1]]],
  ['a large budget still sums exactly', [['web', 1], ['vector', 2], ['graph', 2], ['counter', 2]], 1_000_003, 70, 70, [['web', 700_003], ['vector', 100_000], ['graph', 100_000], ['counter', 100_000]]],
];

describe('allocateBudget', () => {
  it.each(rows)('%s', (_name, ordered, total, webPercent, webFloorPercent, expected) => {
    const result = allocateBudget({ ordered: ordered.map(([source, weight]) => ({ source, weight })), total, webPercent, webFloorPercent });
    expect(result.map(({ source, searches }) => [source, searches])).toEqual(expected);
    expect(result.reduce((sum, entry) => sum + entry.searches, 0)).toBe(total);
  });
});
