/** Exa: POST /search with `x-api-key`; hits under `results` with title, url, publishedDate, text, highlights. */
import { z } from 'zod';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { normalizeDate } from '../../../text/dates.ts';
import { detectLanguage } from '../../../text/language.ts';
import { cleanText, hostOf, snippetOf } from '../../../text/clean-text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';
import { parseProviderJson } from '../provider-json.ts';
import { FRESHNESS_DAYS, domainList, searchFreshness, searchQuery } from '../search-input.ts';

export const exaSearchInput = z.object({
  query: searchQuery,
  count: z.number().int().min(1).max(25).default(10),
  freshness: searchFreshness,
  include_domains: domainList.optional(),
}).strict();

const exaResponse = z.object({
  results: z.array(z.object({
    url: z.string(),
    title: z.string().nullable().optional(),
    publishedDate: z.string().nullable().optional(),
    author: z.string().nullable().optional(),
    text: z.string().optional(),
    highlights: z.array(z.string()).optional(),
  })),
});

const TEXT_MAX_CHARACTERS = 4_000;
/** The excerpt the snippet is made of. */
const HIGHLIGHTS_MAX_CHARACTERS = 500;

export function parseExaResponse(raw: RawResponse): ProviderResult[] {
  return parseProviderJson(raw, exaResponse).results.map((hit) => {
    const text = hit.text ? hit.text.trim() : '';
    const highlights = (hit.highlights ?? []).map(cleanText).filter(Boolean);
    return {
      url: hit.url,
      title: cleanText(hit.title ?? ''),
      snippet: highlights.length > 0 ? snippetOf(highlights.join(' … '), 400) : snippetOf(text),
      published_date: normalizeDate(hit.publishedDate ?? undefined, raw.fetchedAt),
      source: hostOf(hit.url),
      content: text || null,
      language: detectLanguage(text || highlights.join(' ')),
    };
  });
}

export const exaSearchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: exaSearchInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    const body: Record<string, unknown> = {
      query: input.query,
      numResults: input.count,
      type: 'auto',
      // highlights.maxCharacters replaces the deprecated numSentences / highlightsPerUrl.
      contents: { text: { maxCharacters: TEXT_MAX_CHARACTERS }, highlights: { maxCharacters: HIGHLIGHTS_MAX_CHARACTERS } },
    };
    if (input.include_domains) body.includeDomains = input.include_domains;
    if (input.freshness) {
      body.startPublishedDate = new Date(ctx.clock.now().getTime() - FRESHNESS_DAYS[input.freshness] * 86_400_000).toISOString();
    }
    const raw = await ctx.adapter.request({ kind: 'api', method: 'POST', path: '/search', json: body });
    return { output: { results: parseExaResponse(raw) }, raw: [raw] };
  },
  parseResponse: parseExaResponse,
});
