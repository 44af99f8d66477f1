import { describe, expect, it } from 'vitest';
import { hexDump, letterDetail, letterJson, letterLine, utf8Preview } from './format-letter.ts';
import { storedLetter } from './testing/dead-letter-fixtures.ts';

describe('letterLine', () => {
  it('prints address, failed_at, stage, code, source, tenant and the message', () => {
    expect(letterLine(storedLetter(7), false)).toBe('0:7  2026-11-30T12:00:00.000Z  scorer  SCHEMA_INVALID  raw-results[2]@47  acme  raw-results message breaks its contract: response.url: required');
  });

  it('marks re-driven letters, shows a missing tenant as -, and truncates long messages to one line', () => {
    const line = letterLine(storedLetter(1, { tenant: null, error_message: `first line\n${'x'.repeat(300)}` }), true);
    expect(line).toContain('  -  (re-driven) first line xxx');
    expect(line.endsWith('…')).toBe(true);
    expect(line).not.toContain('\n');
    expect(line.split('  ').at(-1)!.length).toBeLessThan(120);
  });
});

describe('hexDump', () => {
  it.each([
    [Buffer.from('hi'), `00000000  ${'68 69'.padEnd(47)}  |hi|`],
    [Buffer.from([0, 255, 10]), `00000000  ${'00 ff 0a'.padEnd(47)}  |...|`],
    [Buffer.alloc(0), ''],
  ])('%j', (bytes, expected) => {
    expect(hexDump(bytes)).toBe(expected);
  });

  it('writes 16 bytes a row with offsets, and says how much it left out', () => {
    const rows = hexDump(Buffer.alloc(40, 0x41), 32).split('\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(/^00000010 {2}(41 ){15}41 {2}\|A{16}\|$/);
    expect(rows[2]).toBe('… 8 more bytes');
  });
});

describe('utf8Preview', () => {
  it('replaces control characters and invalid sequences, keeps newlines and tabs, and truncates', () => {
    expect(utf8Preview(Buffer.from([0x00, 0x68, 0x0a, 0x09, 0xff, 0xe4, 0xbd, 0xa0]))).toBe('\ufffdh\n\t\ufffd你');
    expect(utf8Preview(Buffer.from('abcdef'), 3)).toBe('abc… (3 more characters)');
  });
});

describe('letterDetail and letterJson', () => {
  it('shows every field, the headers sorted, and the value as hex and text', () => {
    const text = letterDetail(storedLetter(3), { 'skrya-trace-id': 't-1', 'skrya-tenant': 'acme' }, undefined);
    expect(text).toContain('letter       0:3 (stored 2026-11-30T12:00:00.000Z)');
    expect(text).toContain('re-driven    no');
    expect(text).toContain('key          "acme/ai-browser"');
    expect(text).toContain('headers\n  skrya-tenant: acme\n  skrya-trace-id: t-1');
    expect(text).toContain('value        7 bytes\n00000000  00 00 00 00 07 68 69');
    expect(text).toContain('value as UTF-8\n\ufffd\ufffd\ufffd\ufffd\ufffdhi');
  });

  it('says when a letter was re-driven, and shows a null value and unreadable headers as such', () => {
    const redrive = { letter: '0:3', fingerprint: 'fp-3', reason_code: 'UNDECODABLE', source: { topic: 'raw-results', partition: 2, offset: '43' }, redriven_to: { topic: 'raw-results', partition: 2, offset: '90' }, redriven_at: '2026-11-30T13:00:00.000Z' };
    const text = letterDetail(storedLetter(3, { original_value: null, original_headers_json: 'nope' }), null, redrive);
    expect(text).toContain('re-driven    to raw-results[2]@90 at 2026-11-30T13:00:00.000Z');
    expect(text).toContain('  (unreadable) nope');
    expect(text).toContain('value        (null)');
    expect(letterJson(storedLetter(3), redrive)).toMatchObject({ letter: '0:3', key: 'acme/ai-browser', value_bytes: 7, redriven: { to: { offset: '90' } } });
  });
});
