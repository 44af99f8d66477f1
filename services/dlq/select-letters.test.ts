import { describe, expect, it } from 'vitest';
import { inputTopicOf, matchesFilter, parseLetterAddress, parseLetterFilter, planRedrive, type LetterFilter } from './select-letters.ts';
import { storedLetter } from './testing/dead-letter-fixtures.ts';

const naming = { prefix: '' };

describe('parseLetterFilter', () => {
  it('keeps the given values', () => {
    expect(parseLetterFilter({ tenant: 'acme', stage: 'sink-raw', code: 'UNDECODABLE' })).toEqual({ tenant: 'acme', stage: 'sink-raw', code: 'UNDECODABLE' });
    expect(parseLetterFilter({})).toEqual({});
  });

  it.each<[LetterFilter, string]>([
    [{ code: 'schema_invalid' }, 'INVALID_INPUT'],
    [{ code: '' }, 'INVALID_INPUT'],
    [{ stage: 'Scorer' }, 'INVALID_INPUT'],
    [{ tenant: 'ACME' }, 'INVALID_ID'],
  ])('refuses %j with %s', (filter, code) => {
    expect(() => parseLetterFilter(filter)).toThrow(expect.objectContaining({ code }));
  });
});

describe('matchesFilter', () => {
  const letter = storedLetter(0);
  it.each<[LetterFilter, boolean]>([
    [{}, true],
    [{ tenant: 'acme' }, true],
    [{ tenant: 'globex' }, false],
    [{ stage: 'scorer' }, true],
    [{ stage: 'collector' }, false],
    [{ code: 'SCHEMA_INVALID' }, true],
    [{ code: 'UNDECODABLE' }, false],
    [{ tenant: 'acme', stage: 'scorer', code: 'UNDECODABLE' }, false],
  ])('%j → %s', (filter, expected) => {
    expect(matchesFilter(letter, filter)).toBe(expected);
  });

  it('a letter without a tenant matches only when no tenant is asked for', () => {
    const anonymous = storedLetter(1, { tenant: null });
    expect(matchesFilter(anonymous, {})).toBe(true);
    expect(matchesFilter(anonymous, { tenant: 'acme' })).toBe(false);
  });
});

describe('parseLetterAddress', () => {
  it.each([['0:42', { partition: 0, offset: '42' }], [' 3:007 ', { partition: 3, offset: '7' }], ['0:9223372036854775807', { partition: 0, offset: '9223372036854775807' }]])('%j', (text, expected) => {
    expect(parseLetterAddress(text)).toEqual(expected);
  });

  it.each(['42', '0:', ':1', '0:-1', 'a:b', '0:1:2', ''])('refuses %j', (text) => {
    expect(() => parseLetterAddress(text)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('inputTopicOf', () => {
  it.each([
    [{ prefix: '' }, 'raw-results', 'raw-results'],
    [{ prefix: 't.x.' }, 't.x.scored-results', 'scored-results'],
    [{ prefix: 't.x.' }, 'raw-results', null],
    [{ prefix: '' }, 'dead-letters', null],
    [{ prefix: '' }, 'somebody-elses-topic', null],
  ])('%j %s → %s', (topicNaming, physical, expected) => {
    expect(inputTopicOf(topicNaming, physical)).toBe(expected);
  });
});

describe('planRedrive', () => {
  const letters = [
    storedLetter(0),
    storedLetter(1, { reason_code: 'UNDECODABLE' }),
    storedLetter(2, { source_topic: 'dead-letters' }),
    storedLetter(3, { original_value: null }),
    storedLetter(4),
  ];

  it('re-drives matching letters in order and says why the others stay', () => {
    const plan = planRedrive(letters, { filter: {}, naming, isRedriven: (stored) => stored.offset === '4' });
    expect(plan.redrive.map((stored) => stored.offset)).toEqual(['0', '1']);
    expect(plan.skipped.map(({ stored, reason }) => [stored.offset, reason])).toEqual([['2', 'not-an-input-topic'], ['3', 'no-original-value'], ['4', 'already-redriven']]);
  });

  it('leaves letters outside the filter out of the plan altogether', () => {
    const plan = planRedrive(letters, { filter: { code: 'UNDECODABLE' }, naming, isRedriven: () => false });
    expect(plan.redrive.map((stored) => stored.offset)).toEqual(['1']);
    expect(plan.skipped).toEqual([]);
  });
});
