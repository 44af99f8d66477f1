import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../../schemas/ingest.ts';
import { generateIntentQueries, QUERY_FAMILIES, TRAIN_ONLY_QUERY_FAMILIES } from './generate-queries.ts';

const rows = generateIntentQueries();

describe('generated intent queries', () => {
  it('is the same on every run with the same seed', () => {
    expect(JSON.stringify(generateIntentQueries())).toBe(JSON.stringify(rows));
  });

  it('has >= 2,500 queries covering 7 intents x en/zh/mixed in every split', () => {
    expect(rows.length).toBeGreaterThanOrEqual(2500);
    for (const split of ['train', 'validation', 'test'] as const) {
      for (const intent of INTENTS) for (const lang of ['en', 'zh', 'mixed'] as const) expect(rows.some((row) => row.split === split && row.intent === intent && row.lang === lang), `${split} ${intent} ${lang}`).toBe(true);
    }
    expect(new Set(rows.map((row) => row.query)).size).toBe(rows.length);
  });

  it('keeps each phrasing family in one split', () => {
    const splitOf = new Map<string, string>();
    for (const row of rows) {
      expect(splitOf.get(row.family) ?? row.split, row.family).toBe(row.split);
      splitOf.set(row.family, row.split);
    }
    const families = [...QUERY_FAMILIES, ...TRAIN_ONLY_QUERY_FAMILIES];
    expect(new Set(families.map((family) => family.id)).size).toBe(families.length);
  });

  it('puts the train-only families in train and nowhere else', () => {
    const trainOnly = new Set(TRAIN_ONLY_QUERY_FAMILIES.map((family) => family.id));
    expect(rows.filter((row) => trainOnly.has(row.family)).every((row) => row.split === 'train')).toBe(true);
    expect(new Set(rows.filter((row) => trainOnly.has(row.family)).map((row) => row.family))).toEqual(trainOnly);
  });

  it('keeps the validation and test queries exactly as first fixed: train families and fillers never change them', () => {
    const fingerprint = (split: string) => {
      const items = rows.filter((row) => row.split === split).map((row) => [row.query, row.lang, row.intent, row.family]);
      return createHash('sha256').update(JSON.stringify(items)).digest('hex').slice(0, 16);
    };
    expect(fingerprint('validation')).toBe('03e707d713f705de');
    expect(fingerprint('test')).toBe('9c5e9fc9854f30d5');
  });
});
