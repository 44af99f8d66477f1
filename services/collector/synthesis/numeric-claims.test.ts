import { describe, expect, it } from 'vitest';
import { extractNumericClaims } from './numeric-claims.ts';

describe('extractNumericClaims', () => {
  it.each([
    ['a count with its noun', 'Deno 2 has 500 contributors', [['contributors', 500, '500 contributors']]],
    ['thousands separators', '1,200 users joined', [['users', 1200, '1,200 users']]],
    ['a unit from the list', 'Startup takes 10 ms', [['ms', 10, '10 ms']]],
    ['a share keeps what it is a share of', 'installs are 30% faster', [['% faster', 30, '30%']]],
    ['a currency with a multiplier', 'Raised $5 million', [['usd', 5_000_000, '$5 million']]],
    ['Chinese multiplier and unit', '下载量达到 500 万次', [['次', 5_000_000, '500 万 次']]],
    ['a version is not a claim', 'Deno 2 release is out', []],
    ['a year is not a claim', 'released in 2024', []],
    ['a bare number is not a claim', 'chapter 7', []],
  ])('%s', (_name, text, expected) => {
    expect(extractNumericClaims(text).map((claim) => [claim.unit, claim.value, claim.text])).toEqual(expected);
  });

  it('ignores units the caller names (the query terms)', () => {
    expect(extractNumericClaims('Top 10 frameworks', new Set(['frameworks']))).toEqual([]);
  });
});
