import { describe, expect, it } from 'vitest';
import { closestWord, correctTypos, singleEdit } from './correct-typos.ts';
import { originalSpan } from './mapped-text.ts';
import { normalizeQuery } from './normalize-query.ts';

describe('singleEdit', () => {
  it.each<[string, string, ReturnType<typeof singleEdit>]>([
    ['electoin', 'election', 'transposition'],
    ['tutoral', 'tutorial', 'edit'],
    ['latets', 'latest', 'transposition'],
    ['latent', 'latest', 'edit'],
    ['newss', 'news', 'edit'],
    ['abc', 'abc', null],
    ['tutorial', 'tuttorrial', null],
    ['elcetoin', 'election', null],
  ])('%s / %s → %s', (typed, known, expected) => {
    expect(singleEdit(typed, known)).toBe(expected);
  });
});

describe('closestWord', () => {
  const vocabulary = ['latest', 'election', 'tutorial', 'status', 'statues'];
  it.each<[string, string | undefined]>([
    ['electoin', 'election'],
    ['tutoral', 'tutorial'],
    ['latets', 'latest'],
    ['latent', undefined],
    ['wat', undefined],
    ['statsu', 'status'],
    ['elections', undefined],
  ])('%s → %s', (typed, expected) => {
    expect(closestWord(typed, vocabulary)).toBe(expected);
  });

  it('leaves inflections alone: "compared" is not a slip of "compare", "installed" not one of "installer"', () => {
    expect(closestWord('compared', ['compare'])).toBeUndefined();
    expect(closestWord('comparre', ['compare'])).toBe('compare');
    expect(closestWord('installed', ['installer'])).toBeUndefined();
    expect(closestWord('updated', ['updates'])).toBeUndefined();
  });

  it('takes a wrong letter for a slip only on a neighbouring key: "electron" is not "election"', () => {
    expect(closestWord('electron', ['election'])).toBeUndefined();
    expect(closestWord('tutorual', ['tutorial'])).toBe('tutorial');
  });

  it('refuses to choose between two equally close words', () => {
    expect(closestWord('abcde', ['bacde', 'abced'])).toBeUndefined();
  });

  it('can be limited to swapped letters', () => {
    expect(closestWord('tutoral', vocabulary, { transpositionsOnly: true })).toBeUndefined();
  });
});

describe('correctTypos', () => {
  it('corrects words and keeps spans pointing at what was typed', () => {
    const corrected = correctTypos(normalizeQuery('Electoin results'), new Set(['election']));
    expect(corrected.text).toBe('election results');
    expect(originalSpan(corrected, 0, 'election'.length)).toEqual([0, 8]);
    expect(originalSpan(corrected, 9, 16)).toEqual([9, 16]);
  });
});
