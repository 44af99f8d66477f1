/**
 * Which skill calls a request needs: per capability, the provider chain to walk (first = preferred,
 * the rest are fallbacks, spec 004 rule 6) and the input of each call. Pure and deterministic:
 * the order of calls here is the order of responses on raw-results.
 */
import type { Capability, Freshness } from '../../schemas/ingest.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { INTENT_PROFILES } from '../../domain/intent/intent-profiles.ts';

/**
 * Provider chains by capability, most preferred first. Search chains follow spec 004's
 * fallback order (tavily → … → brave web search) with Exa as the last web source (spec 001).
 */
export const PROVIDER_CHAINS: Record<Capability, readonly string[]> = {
  web_search: ['tavily_search', 'brave_web_search', 'exa_search'],
  news_search: ['brave_news_search', 'tavily_search'],
  site_search: ['site_search'],
  social_search: [],
  rss_feed: ['feed_reader'],
  document_fetch: ['document_fetch'],
  local_file: ['local_file'],
};

export interface PlannedCall {
  capability: Capability;
  chain: readonly string[];
  subQuery: string | null;
  counterEvidence: boolean;
  /** The input for a given skill of the chain (search skills differ in their options). */
  inputFor(skill: string): Record<string, unknown>;
}

const SEARCH_RESULTS_PER_CALL = 10;

function isUrl(location: string): boolean {
  return /^https?:\/\//i.test(location);
}

/** Skills that take a result language; Brave maps our code onto its own list (ja → jp) or leaves it out. */
const LANGUAGE_SKILLS: ReadonlySet<string> = new Set(['brave_web_search', 'brave_news_search']);

function searchInput(query: string, freshness: Freshness | null, capability: Capability, language: string | null = null) {
  return (skill: string): Record<string, unknown> => ({
    query,
    count: SEARCH_RESULTS_PER_CALL,
    ...(freshness ? { freshness } : {}),
    ...(skill === 'tavily_search' ? { topic: capability === 'news_search' ? 'news' : 'general' } : {}),
    ...(language && LANGUAGE_SKILLS.has(skill) ? { search_lang: language } : {}),
  });
}

/**
 * The one language a request asks for, as a lower-case code; null when it asks for several (a
 * search restricted to one would lose the others) or for none.
 */
function singleLanguage(languages: readonly string[]): string | null {
  if (languages.length !== 1) return null;
  const code = languages[0]!.trim().toLowerCase().replace(/_/g, '-');
  return /^[a-z]{2}(-[a-z]+)?$/.test(code) ? code : null;
}

export interface CallPlanOptions {
  /** Counter-evidence queries (the router's counter hints), run on the first search capability. */
  counterQueries?: readonly string[];
  /** Provider chains that replace the defaults (the router's web chain, runtime bindings). */
  chains?: Partial<Record<Capability, readonly string[]>>;
}

export function planCalls(request: RetrievalRequest, options: CallPlanOptions = {}): PlannedCall[] {
  const counterQueries = options.counterQueries ?? [];
  const freshness = request.intent ? INTENT_PROFILES[request.intent].freshness : null;
  const queries = request.sub_queries.length > 0 ? request.sub_queries : request.queries;
  const perItem = Math.min(200, request.max_items);
  const language = singleLanguage(request.languages);
  const calls: PlannedCall[] = [];
  // Counter-evidence queries run once, on the first search capability the request has.
  const counterCapability = request.capabilities.find((capability) => capability === 'web_search' || capability === 'news_search');
  for (const capability of request.capabilities) {
    const chain = options.chains?.[capability] ?? PROVIDER_CHAINS[capability];
    const call = (subQuery: string | null, input: (skill: string) => Record<string, unknown>, counterEvidence = false) =>
      calls.push({ capability, chain, subQuery, counterEvidence, inputFor: input });
    switch (capability) {
      case 'rss_feed':
        for (const feed of request.locations.feeds) call(null, () => (isUrl(feed) ? { url: feed, count: perItem } : { path: feed, count: perItem }));
        break;
      case 'local_file':
        for (const folder of request.locations.paths) call(null, () => ({ path: folder, count: perItem }));
        break;
      case 'document_fetch':
        for (const url of request.locations.urls) call(null, () => ({ url }));
        break;
      case 'site_search':
        for (const domain of request.locations.sites) for (const query of queries) call(query, (skill) => ({ ...searchInput(query, freshness, capability)(skill), domain }));
        break;
      case 'web_search':
      case 'news_search':
      case 'social_search':
        for (const query of queries) call(query, searchInput(query, freshness, capability, language));
        if (capability === counterCapability) for (const query of counterQueries) call(query, searchInput(query, freshness, capability, language), true);
        break;
    }
  }
  return calls;
}
