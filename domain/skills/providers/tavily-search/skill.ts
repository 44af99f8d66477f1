/**
 * Tavily: POST /search with the key as a bearer token; hits under `results` with title, url,
 * content, score and (topic=news) published_date.
 */
import { z } from 'zod';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { normalizeDate } from '../../../text/dates.ts';
import { detectLanguage } from '../../../text/language.ts';
import { cleanText, hostOf, snippetOf } from '../../../text/clean-text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';
import { domainList, searchFreshness, searchQuery } from '../search-input.ts';

export const tavilySearchInput = z.object({
  query: searchQuery,
  count: z.number().int().min(1).max(20).default(5),
  freshness: searchFreshness,
  topic: z.enum(['general', 'news']).default('general'),
  days: z.number().int().min(1).max(365).optional(),
  include_domains: domainList.optional(),
}).strict();

const TIME_RANGE = { pd: 'day', pw: 'week', pm: 'month', py: 'year' } as const;

const tavilyResponse = z.object({
  results: z.array(z.object({
    title: z.string().default(''),
    url: z.string(),
    content: z.string().default(''),
    score: z.number().optional(),
    raw_content: z.string().nullable().optional(),
    published_date: z.string().nullable().optional(),
  })),
});

export function parseTavilyResponse(raw: RawResponse): ProviderResult[] {
  return parseProviderJson(raw, tavilyResponse).results.map((hit) => ({
    url: hit.url,
    title: cleanText(hit.title),
    snippet: snippetOf(hit.content, 500),
    published_date: normalizeDate(hit.published_date ?? undefined, raw.fetchedAt),
    source: hostOf(hit.url),
    content: hit.raw_content?.trim() || null,
    language: detectLanguage(hit.raw_content || hit.content),
  }));
}

export const tavilySearchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: tavilySearchInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    // Full page text as plain text: raw_content becomes the item's content (no extra credits at basic depth).
    const body: Record<string, unknown> = { query: input.query, topic: input.topic, max_results: input.count, search_depth: 'basic', include_raw_content: 'text' };
    if (input.freshness) body.time_range = TIME_RANGE[input.freshness];
    // Tavily applies `days` to the news topic only.
    if (input.days !== undefined && input.topic === 'news') body.days = input.days;
    if (input.include_domains) body.include_domains = input.include_domains;
    const raw = await ctx.adapter.request({ kind: 'api', method: 'POST', path: '/search', json: body });
    return { output: { results: parseTavilyResponse(raw) }, raw: [raw] };
  },
  parseResponse: parseTavilyResponse,
});
