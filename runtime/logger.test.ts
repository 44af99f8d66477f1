import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.ts';

function capture() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, destination };
}

describe('createLogger', () => {
  it.each([
    ['api key in an adapter config', { adapter: { apiKey: 'sk-live-123' } }],
    ['authorization header', { request: { headers: { authorization: 'Bearer sk-live-123' } } }],
    ['brave token header', { request: { headers: { 'X-Subscription-Token': 'sk-live-123' } } }],
    ['top-level token', { token: 'sk-live-123' }],
  ])('redacts the secret in %s', (_name, fields) => {
    const { lines, destination } = capture();
    createLogger({ destination }).info(fields, 'calling provider');
    expect(lines.join('')).not.toContain('sk-live-123');
    expect(lines.join('')).toContain('[redacted]');
  });
});

describe('createLogger output', () => {
  it('writes one JSON object a line unless asked for human lines (piped output, log files)', () => {
    const { lines, destination } = capture();
    createLogger({ destination }).warn({ service: 'scorer' }, 'provider slow');
    expect(JSON.parse(lines.join(''))).toMatchObject({ level: 40, service: 'scorer', msg: 'provider slow' });
  });

  it('writes a short human line on a terminal, secrets still redacted', () => {
    const { lines, destination } = capture();
    createLogger({ destination, pretty: true }).warn({ service: 'scorer', token: 'sk-live-123' }, 'provider slow');
    const text = lines.join('');
    expect(() => JSON.parse(text)).toThrow();
    expect(text).toMatch(/WARN.*provider slow.*"service":"scorer"/);
    expect(text.trim().split('\n')).toHaveLength(1);
    expect(text).not.toContain('sk-live-123');
  });
});
