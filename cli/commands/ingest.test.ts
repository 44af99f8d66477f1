import { describe, expect, it } from 'vitest';
import { ingestDecision, isEmptyResultList } from './ingest.ts';

describe('isEmptyResultList', () => {
  it.each([
    ['[]', true],
    ['{"results": []}', true],
    ['{"interface_version": "skrya.ingest.v1", "topic_id": "t", "items": []}', true],
    ['[{"url": "https://a.example/"}]', false],
    ['{"results": [{}]}', false],
    ['{"error": "API key invalid"}', false],
    ['root:x:0:0:root:/root:/bin/bash', false],
    ['Error: API key invalid (401)', false],
    ['null', false],
  ])('%s → %s', (text, expected) => {
    expect(isEmptyResultList(text)).toBe(expected);
  });
});

describe('ingestDecision', () => {
  const base = { source: 'out.txt', bytes: 31 };

  it('publishes usable results as an answering source', () => {
    expect(ingestDecision({ ...base, results: 3, emptyList: false, allowEmpty: false })).toEqual({ publish: true, status: 'ok', code: null, message: null });
  });

  it.each([
    ['output that is no answer', false, 'holds no result (31 bytes with neither JSON results nor links)'],
    ['an empty list', true, 'holds an empty list of results'],
  ])('refuses %s without --allow-empty, saying that nothing was published', (_case, emptyList, says) => {
    const decision = ingestDecision({ ...base, results: 0, emptyList, allowEmpty: false });
    expect(decision.publish).toBe(false);
    if (decision.publish) return;
    expect(decision.reason).toContain(says);
    expect(decision.reason).toContain('nothing was published');
    expect(decision.reason).toContain('--allow-empty');
  });

  it('with --allow-empty: an empty list is a source that answered with nothing, anything else a failed source', () => {
    expect(ingestDecision({ ...base, results: 0, emptyList: true, allowEmpty: true })).toEqual({ publish: true, status: 'ok', code: null, message: null });
    expect(ingestDecision({ ...base, results: 0, emptyList: false, allowEmpty: true })).toMatchObject({ publish: true, status: 'error', code: 'EMPTY_RESULTS' });
  });
});
