/** Brave web search: GET /res/v1/web/search, results under `web.results` (absent when nothing matched). */
import { z } from 'zod';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';
import { braveHitSchema, braveHitToResult, braveSearchPages } from '../brave-format.ts';
import { searchFreshness, searchQuery } from '../search-input.ts';

export const braveWebSearchInput = z.object({
  query: searchQuery,
  count: z.number().int().min(1).max(20).default(10),
  freshness: searchFreshness,
  country: z.string().regex(/^([A-Z]{2}|ALL)$/).optional(),
  search_lang: z.string().regex(/^[a-z]{2}(-[a-z]+)?$/).optional(),
  pages: z.number().int().min(1).max(10).default(1),
}).strict();

const braveWebResponse = z.object({
  web: z.object({ results: z.array(braveHitSchema) }).optional(),
});

export function parseBraveWebResponse(raw: RawResponse) {
  const body = parseProviderJson(raw, braveWebResponse);
  return (body.web?.results ?? []).map((hit) => braveHitToResult(hit, raw.fetchedAt));
}

export const braveWebSearchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: braveWebSearchInput,
  output: skillOutputSchema,
  execute: (input, ctx) => braveSearchPages(input, ctx, '/res/v1/web/search', parseBraveWebResponse),
  parseResponse: parseBraveWebResponse,
});
