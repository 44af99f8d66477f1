import { describe, expect, it } from 'vitest';
import shippedTiers from './authority-tiers.json' with { type: 'json' };
import { buildAuthorityIndex, lintAuthorityTiers } from './authority.ts';
import { authorityTiersSchema, type AuthorityTiersFile } from './authority-schema.ts';
import { SHIPPED_AUTHORITY } from './shipped-authority.ts';

const file = (tiers: AuthorityTiersFile['tiers']): AuthorityTiersFile => ({
  version: 'test.1',
  tierScores: { '1': 1, '2': 0.8, '3': 0.6, '4': 0.4 },
  defaultTier: 4,
  tiers,
});

describe('the shipped authority-tiers.json', () => {
  it('is versioned and passes the lint (no domain listed twice)', () => {
    const parsed = authorityTiersSchema.parse(shippedTiers);
    expect(parsed.version).toMatch(/\S/);
    expect(lintAuthorityTiers(parsed)).toEqual([]);
  });

  it.each([
    ['github.com', 1, 1.0, 'github.com'],
    ['www.github.com', 1, 1.0, 'github.com'],
    ['stackoverflow.com', 1, 1.0, 'stackoverflow.com'],
    ['docs.python.org', 1, 1.0, 'docs.*'],
    ['web.mit.edu', 1, 1.0, '*.edu'],
    ['www.nasa.gov', 1, 1.0, '*.gov'],
    ['news.ycombinator.com', 2, 0.8, 'news.ycombinator.com'],
    ['dev.to', 2, 0.8, 'dev.to'],
    ['someone.github.io', 2, 0.8, '*.github.io'],
    ['blog.cloudflare.com', 2, 0.8, 'blog.*'],
    ['medium.com', 3, 0.6, 'medium.com'],
    ['someone.medium.com', 3, 0.6, '*.medium.com'],
    ['juejin.cn', 3, 0.6, 'juejin.cn'],
    ['www.infoq.com', 3, 0.6, 'infoq.com'],
    ['infoq.cn', 3, 0.6, 'infoq.cn'],
    ['blog.csdn.net', 3, 0.6, 'blog.csdn.net'],
    ['example.com', 4, 0.4, null],
    ['github.com.evil.example', 4, 0.4, null],
    ['', 4, 0.4, null],
  ])('%s → tier %i (%f) by rule %s', (host, tier, score, rule) => {
    expect(SHIPPED_AUTHORITY.classifyHost(host)).toEqual({ tier, score, rule });
  });
});

describe('lintAuthorityTiers', () => {
  it.each([
    ['the same host in two tiers', file({ '1': { hosts: ['github.com'], suffixes: [], patterns: [] }, '2': { hosts: ['github.com'], suffixes: [], patterns: [] } }), 'DUPLICATE_DOMAIN', 'github.com'],
    ['the same host twice in one tier', file({ '3': { hosts: ['medium.com', 'medium.com'], suffixes: [], patterns: [] } }), 'DUPLICATE_DOMAIN', 'medium.com'],
    ['the same suffix twice', file({ '1': { hosts: [], suffixes: ['*.edu'], patterns: [] }, '2': { hosts: [], suffixes: ['*.edu'], patterns: [] } }), 'DUPLICATE_DOMAIN', '*.edu'],
    ['a www. host that can never match', file({ '1': { hosts: ['www.github.com'], suffixes: [], patterns: [] } }), 'WWW_PREFIX', 'www.github.com'],
    ['an upper-case host', file({ '1': { hosts: ['GitHub.com'], suffixes: [], patterns: [] } }), 'NOT_LOWERCASE', 'GitHub.com'],
    ['a host with a wildcard', file({ '1': { hosts: ['*.github.com'], suffixes: [], patterns: [] } }), 'BAD_HOST', '*.github.com'],
    ['a suffix without *.', file({ '1': { hosts: [], suffixes: ['.edu'], patterns: [] } }), 'BAD_SUFFIX', '.edu'],
    ['a pattern that is not label.*', file({ '1': { hosts: [], suffixes: [], patterns: ['*.docs'] } }), 'BAD_PATTERN', '*.docs'],
  ])('rejects %s', (_name, tiers, code, entry) => {
    const problems = lintAuthorityTiers(tiers);
    expect(problems.map((problem) => [problem.code, problem.entry])).toContainEqual([code, entry]);
  });

  it('names every place a duplicate appears', () => {
    const [problem] = lintAuthorityTiers(file({ '1': { hosts: ['dev.to'], suffixes: [], patterns: [] }, '2': { hosts: ['dev.to'], suffixes: [], patterns: [] } }));
    expect(problem?.places).toEqual(['tier 1 hosts', 'tier 2 hosts']);
  });
});

describe('the tiers file schema', () => {
  it.each([
    ['a file without a version', { ...file({}), version: '' }],
    ['a tier score above 1', { ...file({}), tierScores: { '1': 1.5, '2': 0.8, '3': 0.6, '4': 0.4 } }],
    ['a default tier of 5', { ...file({}), defaultTier: 5 }],
    ['not an object', 'tiers'],
  ])('refuses %s', (_name, raw) => {
    expect(authorityTiersSchema.safeParse(raw).success).toBe(false);
  });

  it('gives a tier without suffixes or patterns empty lists of them', () => {
    expect(authorityTiersSchema.parse({ ...file({}), tiers: { '1': { hosts: ['a.com'] } } }).tiers['1']).toEqual({ hosts: ['a.com'], suffixes: [], patterns: [] });
  });
});

describe('buildAuthorityIndex', () => {
  it('refuses a file with a duplicate with CONFIG_INVALID naming it', () => {
    expect(() => buildAuthorityIndex(file({ '1': { hosts: ['a.com', 'a.com'], suffixes: [], patterns: [] } }))).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', message: expect.stringContaining('DUPLICATE_DOMAIN a.com') }));
  });

  it('prefers the exact host, then the longest suffix, then a pattern', () => {
    const index = buildAuthorityIndex(
      file({
        '1': { hosts: ['docs.example.com'], suffixes: ['*.example.com'], patterns: ['docs.*'] },
        '2': { hosts: [], suffixes: ['*.com'], patterns: [] },
        '3': { hosts: [], suffixes: [], patterns: ['blog.*'] },
      }),
    );
    expect(index.classifyHost('docs.example.com').rule).toBe('docs.example.com');
    expect(index.classifyHost('blog.example.com').rule).toBe('*.example.com');
    expect(index.classifyHost('blog.other.com').rule).toBe('*.com');
    expect(index.classifyHost('blog.other.org').rule).toBe('blog.*');
    expect(index.version).toBe('test.1');
  });
});
