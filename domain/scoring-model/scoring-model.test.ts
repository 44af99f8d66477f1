import { describe, expect, it } from 'vitest';
import { INTENTS } from '../../schemas/ingest.ts';
import { SHIPPED_RANKING } from '../ranking/ranking-model.ts';
import { scoreItem, type ScorableItem } from '../ranking/score-item.ts';
import { VERDICT_FACTORS } from '../ranking/fusion.ts';
import { SCORING_MODEL } from '../screening/scoring-model.ts';
import { DEFAULT_MODEL_ID, DEFAULT_SCORING_MODEL } from './default-model.ts';
import { compileScoringModel, scoringModelSchema, type ScoringModelDefinition } from './scoring-model.ts';

const ITEMS: ScorableItem[] = [
  { url: 'https://kafka.apache.org/blog/4-1', title: 'Kafka 4.1 release', snippet: 'KRaft failover is faster', published_at: '2026-11-28T00:00:00Z', providerRank: 1 },
  { url: 'https://docs.example.com/kraft', title: 'KRaft guide', snippet: 'Operators move to KRaft', published_at: null },
  { url: 'https://github.com/apache/kafka', title: 'apache/kafka', content: 'Mirror of Apache Kafka, release notes 2021-03-01', published_at: null, providerRank: 4 },
];

const definition = (): ScoringModelDefinition => structuredClone(DEFAULT_SCORING_MODEL.definition);

describe('the default scoring model', () => {
  it('is the shipped constants: it scores every intent exactly as the formulas with their own defaults do', () => {
    for (const intent of INTENTS) {
      const context = { intent, subQueries: ['kafka release', 'kraft'], windowEnd: '2026-11-30T00:00:00Z', boostDomains: [] };
      for (const item of ITEMS) expect(scoreItem(item, context, DEFAULT_SCORING_MODEL.ranking), `${intent} ${item.url}`).toEqual(scoreItem(item, context, SHIPPED_RANKING));
    }
    expect(DEFAULT_SCORING_MODEL.verdictFactors).toEqual(VERDICT_FACTORS);
    expect(DEFAULT_SCORING_MODEL.screening).toEqual(SCORING_MODEL);
  });

  it('is tagged with its id and a fingerprint of its parameters, which any parameter change moves', () => {
    expect(DEFAULT_SCORING_MODEL.tag).toMatch(new RegExp(`^${DEFAULT_MODEL_ID}@[0-9a-f]{12}$`));
    expect(scoringModelSchema.parse(DEFAULT_SCORING_MODEL.definition)).toEqual(DEFAULT_SCORING_MODEL.definition);
  });
});

describe('scoringModelSchema', () => {
  it.each<[string, (model: ScoringModelDefinition) => void, string]>([
    ['a weight row that does not sum to 1', (model) => { model.ranking.weights.news.keyword += 0.1; }, 'ranking.weights.news'],
    ['a weight above 1', (model) => { model.ranking.weights.status.rank = 1.5; }, 'ranking.weights.status.rank'],
    ['no content weight', (model) => { model.ranking.weights.factual = { keyword: 0, freshness: 0, authority: 0, rank: 0.9, agreement: 0.1 }; }, 'keyword + freshness + authority'],
    ['an intent missing', (model) => { delete (model.ranking.freshness.undated as Partial<Record<string, number>>).news; }, 'ranking.freshness.undated.news'],
    ['an unknown key (a typo)', (model) => { (model.ranking.fusion as Record<string, number>).rrfk = 10; }, 'rrfk'],
    ['falling thresholds', (model) => { model.screening.thresholds.quarantine = 0.95; }, 'downweight ≤ quarantine ≤ drop'],
    ['an unknown combine strategy', (model) => { (model.screening as { combine: string }).combine = 'mean'; }, 'screening.combine'],
    ['a version with a space', (model) => { model.version = 'v 2'; }, 'version'],
  ])('refuses %s, naming what to fix', (_name, spoil, named) => {
    const model = definition();
    spoil(model);
    const parsed = scoringModelSchema.safeParse(model);
    expect(parsed.success).toBe(false);
    expect(`${parsed.error!.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('\n')}`).toContain(named);
  });
});

describe('compileScoringModel', () => {
  it.each<[string, (model: ScoringModelDefinition) => void, string]>([
    ['a boost rule that is not a domain', (model) => { model.ranking.boost.domains.news = ['https://x.com']; }, 'ranking.boost.domains.news'],
    ['a domain listed in two tiers', (model) => { model.ranking.authority.tiers['4'] = { hosts: ['github.com'], suffixes: [], patterns: [] }; }, 'DUPLICATE_DOMAIN github.com'],
  ])('refuses %s with CONFIG_INVALID', (_name, spoil, named) => {
    const model = definition();
    spoil(model);
    expect(() => compileScoringModel(model)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(named) }));
  });

  it('gives the formulas what the definition says', () => {
    const model = definition();
    model.id = 'flat';
    model.version = '2';
    model.ranking.fusion.rankNeutral = 0.3;
    model.screening.learnedModel = false;
    const compiled = compileScoringModel(model);
    expect(compiled.tag).toBe('flat@2');
    expect(compiled.ranking.fusion.rankNeutral).toBe(0.3);
    expect(compiled.screening.useModel).toBe(false);
    expect(compiled.ranking.authority.classifyHost('github.com')).toMatchObject({ tier: 1, score: 1 });
  });
});
