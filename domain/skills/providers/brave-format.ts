/**
 * Brave Search API result format, shared by the web and news endpoints: each hit has title, url,
 * description (with <strong> highlighting), and a date as `page_age` (ISO without zone) or `age`
 * ("3 days ago", "March 3, 2025").
 */
import { z } from 'zod';
import { isSkryaError } from '../../../runtime/errors.ts';
import type { ProviderResult } from '../../../schemas/ingest.ts';
import { normalizeDate } from '../../text/dates.ts';
import { htmlFragmentText } from '../../text/html.ts';
import { detectLanguage } from '../../text/language.ts';
import { hostOf } from '../../text/clean-text.ts';
import type { RawResponse, SkillContext, SkillExecution } from '../types.ts';
import { BRAVE_MAX_OFFSET, braveCountry, braveSearchLang, cutBraveQuery } from './brave-params.ts';

export const braveHitSchema = z.object({
  title: z.string(),
  url: z.string(),
  description: z.string().default(''),
  age: z.string().optional(),
  page_age: z.string().optional(),
  language: z.string().optional(),
  meta_url: z.object({ hostname: z.string().optional() }).optional(),
  profile: z.object({ name: z.string().optional() }).optional(),
  extra_snippets: z.array(z.string()).optional(),
});
export type BraveHit = z.infer<typeof braveHitSchema>;

/** Brave's error body, e.g. {"type":"ErrorResponse","error":{"code":"QUOTA_LIMITED",...}}. */
export const BRAVE_QUOTA_MARKERS = ['"QUOTA_LIMITED"'];

export function braveHitToResult(hit: BraveHit, fetchedAt: string): ProviderResult {
  const extra = (hit.extra_snippets ?? []).map(htmlFragmentText).filter(Boolean);
  const title = htmlFragmentText(hit.title);
  const snippet = htmlFragmentText(hit.description);
  return {
    url: hit.url,
    title,
    snippet,
    published_date: normalizeDate(hit.page_age, fetchedAt) ?? normalizeDate(hit.age, fetchedAt),
    source: hit.profile?.name || hit.meta_url?.hostname || hostOf(hit.url),
    content: extra.length > 0 ? extra.join('\n') : null,
    language: hit.language ?? detectLanguage(`${title} ${snippet}`),
  };
}

export interface BraveQueryInput {
  query: string;
  count: number;
  freshness?: string | undefined;
  country?: string | undefined;
  search_lang?: string | undefined;
  offset?: number | undefined;
}

/**
 * Query parameters both Brave endpoints take (web and news search share them), fitted to Brave's
 * limits (brave-params.ts), with full content asked for: `extra_snippets` gives up to five more
 * excerpts per hit, which become the item's content.
 */
export function braveQuery(input: BraveQueryInput): { query: Record<string, string>; notes: string[] } {
  const notes: string[] = [];
  const cut = cutBraveQuery(input.query);
  if (cut.note) notes.push(cut.note);
  const language = input.search_lang ? braveSearchLang(input.search_lang) : null;
  const country = input.country ? braveCountry(input.country) : null;
  for (const mapped of [language, country]) if (mapped?.note) notes.push(mapped.note);
  const offset = input.offset === undefined ? 0 : Math.min(BRAVE_MAX_OFFSET, Math.max(0, input.offset));
  return {
    query: {
      q: cut.q,
      count: String(input.count),
      extra_snippets: 'true',
      ...(offset > 0 ? { offset: String(offset) } : {}),
      ...(input.freshness ? { freshness: input.freshness } : {}),
      ...(country?.value ? { country: country.value } : {}),
      ...(language?.value ? { search_lang: language.value } : {}),
    },
    notes,
  };
}

const moreResults = z.object({ query: z.object({ more_results_available: z.boolean().optional() }).optional() });

/** Whether Brave says a further page exists (`query.more_results_available`). */
function morePages(raw: RawResponse): boolean {
  try {
    return moreResults.safeParse(JSON.parse(raw.body)).data?.query?.more_results_available === true;
  } catch {
    return false;
  }
}

/**
 * Up to `pages` pages of one Brave search (offset 0, 1, …; Brave allows offsets up to 9), stopping
 * when Brave says there are no more. Each page is one request on the key, spaced like any other.
 * A later page that fails leaves the earlier ones standing, with a note.
 */
export async function braveSearchPages(
  input: BraveQueryInput & { pages: number },
  ctx: SkillContext,
  path: string,
  parse: (raw: RawResponse) => ProviderResult[],
): Promise<SkillExecution> {
  const notes = new Set<string>();
  const raw: RawResponse[] = [];
  const results: ProviderResult[] = [];
  const pages = Math.min(input.pages, BRAVE_MAX_OFFSET + 1);
  for (let page = 0; page < pages; page += 1) {
    const request = braveQuery({ ...input, offset: page });
    request.notes.forEach((note) => notes.add(note));
    let response: RawResponse;
    try {
      response = await ctx.adapter.request({ kind: 'api', method: 'GET', path, query: request.query });
    } catch (error) {
      if (page === 0 || !isSkryaError(error)) throw error;
      notes.add(`page ${page + 1} not read (${error.code}); the first ${page} kept`);
      break;
    }
    raw.push(response);
    results.push(...parse(response));
    if (!morePages(response)) break;
  }
  return { output: { results }, raw, notes: [...notes] };
}
