import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/support/error-code.ts';
import { assertId, parseTopicKey, resolveInside, topicKey } from './ids.ts';

describe('assertId', () => {
  it.each(['acme', 'a', '0', 'ai-browser', 'a1-b2', 'a'.repeat(63)])('accepts %j', (value) => {
    expect(assertId('tenant', value)).toBe(value);
  });

  it.each(['', '-acme', 'Acme', 'ai_browser', 'a/b', '..', '../x', 'a.b', 'a b', 'a'.repeat(64), 'é', 'acme\n'])('refuses %j with INVALID_ID', (value) => {
    expect(codeOf(() => assertId('topic', value))).toBe('INVALID_ID');
  });
});

describe('resolveInside', () => {
  const root = path.resolve('/data/root');

  it.each([
    [['acme', 'topics', 'x'], path.join(root, 'acme', 'topics', 'x')],
    [[], root],
    [['acme/../other'], path.join(root, 'other')],
  ])('joins %j inside the root', (segments, expected) => {
    expect(resolveInside(root, ...segments)).toBe(expected);
  });

  it.each([
    [['..']],
    [['../x']],
    [['acme', '..', '..', 'etc']],
    [['/etc/passwd']],
    // A sibling whose name starts with the root's name is still outside.
    [['../root-evil']],
  ])('refuses the escape %j', (segments) => {
    expect(codeOf(() => resolveInside(root, ...segments))).toBe('INVALID_ID');
  });
});

describe('topicKey / parseTopicKey', () => {
  it('round-trips a tenant and topic', () => {
    expect(parseTopicKey(topicKey({ tenant: 'acme', topicId: 'ai-browser' }))).toEqual({ tenant: 'acme', topicId: 'ai-browser' });
  });

  it.each(['acme', 'acme/a/b', '/x', 'acme/', 'ACME/x', '../x'])('refuses the key %j', (key) => {
    expect(codeOf(() => parseTopicKey(key))).toBe('INVALID_ID');
  });

  it('refuses to build a key from an invalid id', () => {
    expect(codeOf(() => topicKey({ tenant: 'acme', topicId: '../x' }))).toBe('INVALID_ID');
  });
});
