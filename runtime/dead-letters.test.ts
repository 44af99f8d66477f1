import { describe, expect, it } from 'vitest';
import { fingerprintOf, originalHeaders } from './dead-letters.ts';
import { deadLetterFixture } from '../test/fixtures/messages.ts';

describe('originalHeaders', () => {
  it.each([
    ['{}', {}],
    ['{"skrya-tenant":"acme","skrya-trace-id":"t-1"}', { 'skrya-tenant': 'acme', 'skrya-trace-id': 't-1' }],
  ])('%s', (json, expected) => {
    expect(originalHeaders({ ...deadLetterFixture(), original_headers_json: json })).toEqual(expected);
  });

  it.each(['', 'not json', '[]', '{"n":1}', '{"nested":{"a":"b"}}', 'null'])('refuses %j as SCHEMA_INVALID', (json) => {
    expect(() => originalHeaders({ ...deadLetterFixture(), original_headers_json: json })).toThrow(expect.objectContaining({ code: 'SCHEMA_INVALID' }));
  });
});

describe('fingerprintOf', () => {
  it('tells different bytes apart and treats a null value as empty', () => {
    expect(fingerprintOf(Buffer.from('a'))).not.toBe(fingerprintOf(Buffer.from('b')));
    expect(fingerprintOf(Buffer.from('a'))).toBe(fingerprintOf(Buffer.from('a')));
    expect(fingerprintOf(null)).toBe(fingerprintOf(Buffer.alloc(0)));
    expect(fingerprintOf(null)).toMatch(/^[0-9a-f]{64}$/);
  });
});
