import { describe, expect, it } from 'vitest';
import { INTENT_BOOST_DOMAINS, createBoostMatcher } from './domain-boost.ts';

describe('INTENT_BOOST_DOMAINS (spec 001 phase 4)', () => {
  it.each([
    ['tutorial', ['dev.to', 'freecodecamp.org', 'realpython.com', 'baeldung.com']],
    ['resource', ['github.com', 'docs.*']],
    ['news', ['techcrunch.com', 'arstechnica.com', 'theverge.com']],
    ['factual', []],
    ['status', []],
    ['comparison', []],
    ['exploratory', []],
  ] as const)('%s boosts %j', (intent, domains) => {
    expect(INTENT_BOOST_DOMAINS[intent]).toEqual(domains);
  });
});

describe('createBoostMatcher', () => {
  const matcher = createBoostMatcher(['github.com', 'docs.*', 'WWW.Example.org ']);
  it.each([
    ['github.com', true],
    ['www.github.com', true],
    ['gist.github.com', true],
    ['notgithub.com', false],
    ['github.com.evil.example', false],
    ['docs.python.org', true],
    ['python.org', false],
    ['example.org', true],
    ['sub.example.org', true],
  ])('%s → %s', (host, expected) => {
    expect(matcher.matches(host)).toBe(expected);
  });

  it.each([['*.github.com'], ['http://github.com'], ['github'], [''], ['docs.*.com']])('refuses %j with INVALID_INPUT', (rule) => {
    expect(() => createBoostMatcher([rule])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
