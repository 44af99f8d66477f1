/**
 * Search within one site: the Brave web search skill with a `site:` operator, then only hits on
 * that domain (or a subdomain) are kept, since search engines treat `site:` as a hint at times.
 */
import { z } from 'zod';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { braveWebSearchSkill, parseBraveWebResponse } from '../brave-web-search/skill.ts';
import { cutBraveQuery } from '../brave-params.ts';
import { searchFreshness, searchQuery } from '../search-input.ts';

export const siteSearchInput = z.object({
  domain: z.string().regex(/^[a-z0-9.-]+\.[a-z]{2,}$/),
  query: searchQuery,
  count: z.number().int().min(1).max(20).default(10),
  freshness: searchFreshness,
}).strict();

/** The domain comes back out of the request URL the raw response records, so parsing stays pure. */
export function parseSiteSearchResponse(raw: RawResponse): ProviderResult[] {
  const results = parseBraveWebResponse(raw);
  const domain = raw.url ? /(?:^|\s)site:(\S+)/.exec(new URL(raw.url).searchParams.get('q') ?? '')?.[1] : undefined;
  if (!domain) return results;
  return results.filter((result) => onDomain(result.url, domain));
}

function onDomain(url: string, domain: string): boolean {
  try {
    const host = new URL(url).hostname.toLowerCase();
    return host === domain || host.endsWith(`.${domain}`);
  } catch {
    return false;
  }
}

export const siteSearchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: siteSearchInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    // site: counts towards Brave's 400 characters and 50 words: the query is cut, never refused.
    const cut = cutBraveQuery(`site:${input.domain} ${input.query}`);
    const web = await braveWebSearchSkill.execute({ query: cut.q, count: input.count, ...(input.freshness ? { freshness: input.freshness } : {}) }, ctx);
    return { output: { results: web.raw.flatMap(parseSiteSearchResponse) }, raw: web.raw, notes: [...(cut.note ? [cut.note] : []), ...(web.notes ?? [])] };
  },
  parseResponse: parseSiteSearchResponse,
});
