import { describe, expect, it } from 'vitest';
import { scorerParseOn } from './catalog.ts';

describe('scorerParseOn', () => {
  it('parses on the event loop beside one worker and in the workers when there are more', () => {
    expect([1, 2, 3, 4].map(scorerParseOn)).toEqual(['caller', 'workers', 'workers', 'workers']);
  });
});
