import type { Intent } from '../../schemas/ingest.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { stripWww } from './authority.ts';

/** Spec 001 phase 4: a boosted domain adds this much to the authority component, capped at 1. */
export const DOMAIN_BOOST = 0.2;

/** Spec 001 phase 4 "Domain Boost": domains boosted automatically for an intent. */
export const INTENT_BOOST_DOMAINS: Readonly<Record<Intent, readonly string[]>> = {
  tutorial: ['dev.to', 'freecodecamp.org', 'realpython.com', 'baeldung.com'],
  resource: ['github.com', 'docs.*'],
  news: ['techcrunch.com', 'arstechnica.com', 'theverge.com'],
  factual: [],
  status: [],
  comparison: [],
  exploratory: [],
};

/**
 * A boost rule is a domain ('github.com', matching the host and every subdomain, as
 * `--domain-boost` users expect) or a first-label pattern ('docs.*').
 */
const BOOST_DOMAIN = /^(?:(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9-]{2,}|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.\*)$/;

export interface BoostMatcher {
  readonly rules: readonly string[];
  matches(host: string): boolean;
}

/** Validates boost rules (they come from callers and the CLI) and returns a matcher. */
export function createBoostMatcher(rules: readonly string[]): BoostMatcher {
  const domains = new Set<string>();
  const firstLabels = new Set<string>();
  const normalized: string[] = [];
  for (const raw of rules) {
    const rule = stripWww(raw.trim().toLowerCase());
    if (!BOOST_DOMAIN.test(rule)) {
      throw new SkryaError('INVALID_INPUT', `boost domain ${JSON.stringify(raw)} is not a domain like example.com or a pattern like docs.*`);
    }
    if (rule.endsWith('.*')) firstLabels.add(rule.slice(0, -2));
    else domains.add(rule);
    normalized.push(rule);
  }
  return {
    rules: [...new Set(normalized)],
    matches(rawHost: string): boolean {
      const host = stripWww(rawHost.toLowerCase());
      const firstDot = host.indexOf('.');
      if (firstDot > 0 && firstLabels.has(host.slice(0, firstDot))) return true;
      if (domains.has(host)) return true;
      for (let dot = firstDot; dot !== -1; dot = host.indexOf('.', dot + 1)) {
        if (domains.has(host.slice(dot + 1))) return true;
      }
      return false;
    },
  };
}
