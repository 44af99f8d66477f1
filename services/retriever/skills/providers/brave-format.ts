/**
 * Brave Search API result format, shared by the web and news endpoints: each hit has title, url,
 * description (with <strong> highlighting), and a date as `page_age` (ISO without zone) or `age`
 * ("3 days ago", "March 3, 2025").
 */
import { z } from 'zod';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { normalizeDate } from '../normalize/dates.ts';
import { htmlFragmentText } from '../normalize/html.ts';
import { detectLanguage } from '../normalize/language.ts';
import { hostOf } from '../normalize/text.ts';

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

/** Query parameters both Brave endpoints take (web and news search share them). */
export function braveQuery(input: { query: string; count: number; freshness?: string | undefined; country?: string | undefined; search_lang?: string | undefined }): Record<string, string> {
  return {
    q: input.query,
    count: String(input.count),
    ...(input.freshness ? { freshness: input.freshness } : {}),
    ...(input.country ? { country: input.country } : {}),
    ...(input.search_lang ? { search_lang: input.search_lang } : {}),
  };
}
