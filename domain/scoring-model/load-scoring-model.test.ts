import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SCORING_MODEL } from './default-model.ts';
import { loadScoringModel } from './load-scoring-model.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-scoring-model-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function modelFile(name: string, content: unknown): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

const base = DEFAULT_SCORING_MODEL.tag;
const newsWeights = { keyword: 0.1, freshness: 0.6, authority: 0.1, rank: 0.1, agreement: 0.1 };

describe('loadScoringModel', () => {
  it('reads a model that names the default as its base and lists only what it changes', () => {
    const model = loadScoringModel(modelFile('fresh-news.json', { base, id: 'fresh-news', version: '1', ranking: { weights: { news: newsWeights }, fusion: { rrfK: 20 } } }));
    expect(model.tag).toBe('fresh-news@1');
    expect(model.ranking.weights.news).toEqual(newsWeights);
    expect(model.ranking.fusion).toEqual({ ...DEFAULT_SCORING_MODEL.ranking.fusion, rrfK: 20 });
    // Everything it does not mention is the default's.
    expect(model.ranking.weights.status).toEqual(DEFAULT_SCORING_MODEL.ranking.weights.status);
    expect(model.definition.screening).toEqual(DEFAULT_SCORING_MODEL.definition.screening);
    expect(model.definition.description).toBeUndefined();
  });

  it('reads a complete model without a base', () => {
    const model = loadScoringModel(modelFile('complete.json', { ...DEFAULT_SCORING_MODEL.definition, id: 'complete', version: '2026.12.1' }));
    expect(model.tag).toBe('complete@2026.12.1');
    expect(model.definition.ranking).toEqual(DEFAULT_SCORING_MODEL.definition.ranking);
  });

  it.each<[string, unknown, string]>([
    ['not JSON', '{ "id": ', 'is not JSON'],
    ['not an object', '[1, 2]', 'must be a JSON object'],
    ['an old base', { base: 'skrya-default@000000000000', id: 'old', version: '1' }, `set "base": "${base}"`],
    ['a weight out of range', { base, id: 'hot', version: '1', ranking: { weights: { news: { ...newsWeights, freshness: 1.6 } } } }, 'ranking.weights.news.freshness'],
    ['a misspelt section', { base, id: 'typo', version: '1', rankin: {} }, 'rankin'],
    ['no version', { base, id: 'nameless' }, 'version'],
    ['the default id', { base, id: 'skrya-default', version: '9' }, 'give yours its own id'],
    ['a bad boost domain', { base, id: 'boost', version: '1', ranking: { boost: { domains: { news: ['not a domain'] } } } }, 'ranking.boost.domains.news'],
    ['a missing parameter without a base', { id: 'partial', version: '1', verdictFactors: DEFAULT_SCORING_MODEL.verdictFactors }, 'ranking'],
  ])('refuses %s with CONFIG_INVALID naming the file and what to fix', (name, content, named) => {
    const file = modelFile(`${name.replaceAll(' ', '-')}.json`, content);
    expect(() => loadScoringModel(file)).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining(named) }));
    expect(() => loadScoringModel(file)).toThrow(file);
  });

  it('refuses a file that cannot be read', () => {
    expect(() => loadScoringModel(path.join(dir, 'missing.json'))).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('ENOENT') }));
  });
});
