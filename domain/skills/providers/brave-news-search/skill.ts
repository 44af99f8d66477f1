/** Brave news search: GET /res/v1/news/search, articles under `results`. */
import { z } from 'zod';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';
import { braveHitSchema, braveHitToResult, braveSearchPages } from '../brave-format.ts';
import { searchFreshness, searchQuery } from '../search-input.ts';

export const braveNewsSearchInput = z.object({
  query: searchQuery,
  count: z.number().int().min(1).max(50).default(20),
  freshness: searchFreshness,
  country: z.string().regex(/^([A-Z]{2}|ALL)$/).optional(),
  search_lang: z.string().regex(/^[a-z]{2}(-[a-z]+)?$/).optional(),
  pages: z.number().int().min(1).max(10).default(1),
}).strict();

const braveNewsResponse = z.object({ results: z.array(braveHitSchema) });

export function parseBraveNewsResponse(raw: RawResponse) {
  return parseProviderJson(raw, braveNewsResponse).results.map((hit) => braveHitToResult(hit, raw.fetchedAt));
}

export const braveNewsSearchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: braveNewsSearchInput,
  output: skillOutputSchema,
  execute: (input, ctx) => braveSearchPages(input, ctx, '/res/v1/news/search', parseBraveNewsResponse),
  parseResponse: parseBraveNewsResponse,
});
