import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeOf } from '../test/support/error-code.ts';
import { SkryaError } from './errors.ts';
import { isTenantId, parseReplayId, parseRunId, parseTenantId, parseTopicId, parseTopicKey, resolveInside, tenantIdSchema, topicKey } from './ids.ts';

const PARSERS = { tenant: parseTenantId, topic: parseTopicId, replay: parseReplayId, run: parseRunId };
const INVALID = ['', '-acme', 'Acme', 'ai_browser', 'a/b', '..', '../x', 'a.b', 'a b', 'é', 'acme\n'];

describe('parsing ids where they enter', () => {
  it.each(Object.entries(PARSERS))('%s ids: accepts lowercase letters, digits and dashes', (_kind, parse) => {
    for (const value of ['acme', 'a', '0', 'ai-browser', 'a1-b2', 'a'.repeat(63)]) expect(parse(value)).toBe(value);
  });

  it.each(Object.entries(PARSERS))('%s ids: refuses anything that could become another path or key, naming the kind and the rule', (kind, parse) => {
    for (const value of INVALID) {
      expect(codeOf(() => parse(value))).toBe('INVALID_ID');
      expect(() => parse(value)).toThrow(`${kind} id ${JSON.stringify(value)} is invalid: use`);
    }
  });

  it('tenant, topic and replay ids stop at 63 characters; run ids, which carry a timestamp and digest, at 81', () => {
    expect(codeOf(() => parseTenantId('a'.repeat(64)))).toBe('INVALID_ID');
    expect(codeOf(() => parseReplayId('a'.repeat(64)))).toBe('INVALID_ID');
    expect(parseRunId('a'.repeat(81))).toHaveLength(81);
    expect(codeOf(() => parseRunId('a'.repeat(82)))).toBe('INVALID_ID');
  });

  it('message schemas parse ids by the same rule, so a decoded message carries typed ids', () => {
    expect(tenantIdSchema.safeParse('acme').success).toBe(true);
    for (const value of INVALID) expect(tenantIdSchema.safeParse(value).success).toBe(false);
  });

  it('the guard for names found in the tree agrees with the parser', () => {
    for (const value of [...INVALID, 'acme', 'a'.repeat(64)]) expect(isTenantId(value)).toBe(!codeOf(() => parseTenantId(value)));
  });

  it('errors are SkryaErrors with the kind and value as details', () => {
    const error = (() => {
      try {
        parseTopicId('../x');
      } catch (caught) {
        return caught;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(SkryaError);
    expect((error as SkryaError).details).toEqual({ kind: 'topic', value: '../x' });
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
    expect(parseTopicKey(topicKey({ tenant: parseTenantId('acme'), topicId: parseTopicId('ai-browser') }))).toEqual({ tenant: 'acme', topicId: 'ai-browser' });
  });

  it.each(['acme', 'acme/a/b', '/x', 'acme/', 'ACME/x', '../x'])('refuses the key %j', (key) => {
    expect(codeOf(() => parseTopicKey(key))).toBe('INVALID_ID');
  });
});
