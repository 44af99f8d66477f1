import { SkryaError } from '../../runtime/errors.ts';
import type { AuthorityTiersFile } from './authority-schema.ts';

/**
 * Domain authority from a versioned data file (authority-tiers.json). Three kinds of rule:
 * `hosts` match one exact host, `suffixes` ('*.edu') match every host under a suffix, `patterns`
 * ('docs.*') match hosts by their first label. The most specific rule wins: exact host, then the
 * longest suffix, then a pattern, then the default tier. A leading `www.` is ignored everywhere.
 * The file's schema is in authority-schema.ts: scoring reads the shipped file without loading zod.
 */
export const TIER_NUMBERS = ['1', '2', '3', '4'] as const;

export type AuthorityLintCode = 'DUPLICATE_DOMAIN' | 'NOT_LOWERCASE' | 'WWW_PREFIX' | 'BAD_HOST' | 'BAD_SUFFIX' | 'BAD_PATTERN';
export interface AuthorityLintProblem {
  code: AuthorityLintCode;
  entry: string;
  /** Where the entry appears, e.g. ['tier 1 hosts', 'tier 3 hosts']. */
  places: string[];
}

const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}$/;
const SUFFIX = /^\*\.(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)*[a-z0-9-]{2,}$/;
const PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.\*$/;

/** Problems in a tiers file; a shipped file must have none (a domain listed twice would make its tier depend on file order). */
export function lintAuthorityTiers(file: AuthorityTiersFile): AuthorityLintProblem[] {
  const problems: AuthorityLintProblem[] = [];
  const placesByEntry = new Map<string, string[]>();
  for (const tier of TIER_NUMBERS) {
    const rules = file.tiers[tier];
    if (rules === undefined) continue;
    const kinds = [
      ['hosts', rules.hosts, HOST, 'BAD_HOST'],
      ['suffixes', rules.suffixes, SUFFIX, 'BAD_SUFFIX'],
      ['patterns', rules.patterns, PATTERN, 'BAD_PATTERN'],
    ] as const;
    for (const [kind, entries, shape, badShapeCode] of kinds) {
      const place = `tier ${tier} ${kind}`;
      for (const entry of entries) {
        const places = placesByEntry.get(entry) ?? [];
        places.push(place);
        placesByEntry.set(entry, places);
        if (entry !== entry.toLowerCase()) problems.push({ code: 'NOT_LOWERCASE', entry, places: [place] });
        else if (!shape.test(entry)) problems.push({ code: badShapeCode, entry, places: [place] });
        if (/^(?:\*\.)?www\./.test(entry)) problems.push({ code: 'WWW_PREFIX', entry, places: [place] });
      }
    }
  }
  for (const [entry, places] of placesByEntry) {
    if (places.length > 1) problems.push({ code: 'DUPLICATE_DOMAIN', entry, places });
  }
  return problems;
}

export interface AuthorityMatch {
  tier: number;
  score: number;
  /** The rule that decided the tier (`github.com`, `*.edu`, `docs.*`), or null for the default tier. */
  rule: string | null;
}

export interface AuthorityIndex {
  readonly version: string;
  classifyHost(host: string): AuthorityMatch;
}

/** Lints and indexes a tiers file of the schema's shape; any problem is a CONFIG_INVALID error naming the entries. */
export function buildAuthorityIndex(file: AuthorityTiersFile): AuthorityIndex {
  const problems = lintAuthorityTiers(file);
  if (problems.length > 0) {
    const listed = problems.map((problem) => `${problem.code} ${problem.entry} (${problem.places.join(', ')})`).join('; ');
    throw new SkryaError('CONFIG_INVALID', `authority tiers file ${file.version} has problems: ${listed}`, { details: { problems } });
  }
  const hosts = new Map<string, number>();
  const suffixes = new Map<string, number>();
  const patterns = new Map<string, number>();
  for (const tier of TIER_NUMBERS) {
    const rules = file.tiers[tier];
    if (rules === undefined) continue;
    for (const host of rules.hosts) hosts.set(host, Number(tier));
    for (const suffix of rules.suffixes) suffixes.set(suffix.slice(2), Number(tier));
    for (const pattern of rules.patterns) patterns.set(pattern.slice(0, -2), Number(tier));
  }
  const scoreOf = (tier: number) => file.tierScores[String(tier) as (typeof TIER_NUMBERS)[number]];

  return {
    version: file.version,
    classifyHost(rawHost: string): AuthorityMatch {
      const host = stripWww(rawHost.toLowerCase().replace(/\.$/, ''));
      const exact = hosts.get(host);
      if (exact !== undefined) return { tier: exact, score: scoreOf(exact), rule: host };
      // Longest suffix first: walk from the host's parent domain towards the TLD.
      for (let dot = host.indexOf('.'); dot !== -1; dot = host.indexOf('.', dot + 1)) {
        const suffix = host.slice(dot + 1);
        const tier = suffixes.get(suffix);
        if (tier !== undefined) return { tier, score: scoreOf(tier), rule: `*.${suffix}` };
      }
      const firstDot = host.indexOf('.');
      if (firstDot > 0) {
        const label = host.slice(0, firstDot);
        const tier = patterns.get(label);
        if (tier !== undefined) return { tier, score: scoreOf(tier), rule: `${label}.*` };
      }
      return { tier: file.defaultTier, score: scoreOf(file.defaultTier), rule: null };
    },
  };
}

export function stripWww(host: string): string {
  return host.startsWith('www.') ? host.slice(4) : host;
}
