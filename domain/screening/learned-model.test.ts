import { describe, expect, it } from 'vitest';
import { generateInjectionCorpus } from './corpus/generate-corpus.ts';
import { injectionModel, passagesOf, worstPassage, worstPassageOf } from './learned-model.ts';

describe('learned injection model: the scoring path', () => {
  it('finds the same passage with the same log-odds, to the bit, as scoring every passage set by set', () => {
    const model = injectionModel().model;
    // Every 7th item: English, Chinese and mixed pages, carriers and escapes included.
    const items = generateInjectionCorpus().filter((_item, index) => index % 7 === 0);
    for (const item of items) {
      const fields: Array<[string, string]> = [['title', item.title], ['content', item.content]];
      const reference = worstPassage(model, passagesOf(fields));
      const fast = worstPassageOf(model, fields);
      expect(fast.logit, item.id).toBe(reference.logit);
      expect(fast.passage, item.id).toEqual(reference.passage === null ? null : { field: reference.passage.field, start: reference.passage.start, end: reference.passage.end });
    }
  });
});
