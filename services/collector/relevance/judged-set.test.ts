import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../schemas/ingest.ts';
import { codeOf } from '../../../test/support/error-code.ts';
import { JUDGED_SET_DIR, loadJudgedSet, parseJudgedPools } from './judged-set.ts';

const HEADER = '@pool p1 | news | en | dev | 2026-11-20T00:00:00Z\n@query q\n@sub 1 q\n';
const row = (rank: number, url: string, grade = 2, group = '') => `${grade}|brave|${rank}|1|2026-11-18|${url}|Title ${rank}|Snippet ${rank}|${group}`;
const rows = (count: number) => Array.from({ length: count }, (_unused, index) => row(index + 1, `https://example.com/${index}`)).join('\n');

const POOLS_PER_SLICE: Partial<Record<(typeof INTENTS)[number], number>> = { factual: 3, resource: 2 };

describe('the judged relevance set', () => {
  const pools = loadJudgedSet(fileURLToPath(JUDGED_SET_DIR));

  it('has a pool per intent, language and split (three for factual and two for resource, the intents re-tuned in the second round), each with 25–30 rows and graded documents', () => {
    expect(pools).toHaveLength(40);
    for (const intent of INTENTS) {
      for (const language of ['en', 'zh'] as const) {
        for (const split of ['dev', 'test'] as const) {
          expect(pools.filter((pool) => pool.intent === intent && pool.language === language && pool.split === split), `${intent}/${language}/${split}`).toHaveLength(POOLS_PER_SLICE[intent] ?? 1);
        }
      }
    }
    for (const pool of pools) {
      expect(pool.results.length).toBeGreaterThanOrEqual(25);
      expect(pool.results.length).toBeLessThanOrEqual(30);
      expect([...pool.grades.values()].some((grade) => grade === 3), pool.id).toBe(true);
    }
  });

  it('gives copies of one document (same group) one grade, and + rows the grade of their page', () => {
    const [pool] = parseJudgedPools(`${HEADER}${rows(24)}\n${row(25, 'https://mirror.example.net/a', 3, 'g1')}\n${row(26, 'https://example.org/a', 3, 'g1')}\n+|exa|1|1|https://example.org/a\n`, 'inline');
    expect(pool!.results.at(-1)).toMatchObject({ provider: 'exa_search', providerRank: 1, grade: 3, doc: 'group:g1' });
    expect(pool!.grades.get('group:g1')).toBe(3);
  });

  it.each([
    ['too few rows', `${HEADER}${rows(10)}\n`],
    ['a grade outside 0–3', `${HEADER}${rows(24)}\n${row(25, 'https://x.example/1', 4)}\n`],
    ['a + row for an unknown page', `${HEADER}${rows(25)}\n+|exa|1|1|https://nowhere.example/\n`],
    ['one document graded twice', `${HEADER}${rows(24)}\n${row(25, 'https://x.example/1', 3, 'g')}\n${row(26, 'https://y.example/1', 1, 'g')}\n`],
    ['a rank repeated in one list', `${HEADER}${rows(25)}\n${row(3, 'https://x.example/again')}\n`],
    ['an unknown provider', `${HEADER}${rows(24)}\n2|bing|1|1|-|https://x.example/|t|s|\n`],
  ])('rejects %s with INVALID_INPUT', (_name, text) => {
    expect(codeOf(() => parseJudgedPools(text, 'inline'))).toBe('INVALID_INPUT');
  });
});
