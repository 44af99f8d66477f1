/**
 * Fetches one public page through the SSRF-guarded fetcher, extracts the main content with
 * Readability (over linkedom) and detects the language with ELD.
 */
import { z } from 'zod';
import { SkryaError } from '../../../../runtime/errors.ts';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { normalizeDate } from '../../../text/dates.ts';
import { readableDocument } from '../../../text/readable-document.ts';
import { detectLanguage } from '../../../text/language.ts';
import { cleanText, hostOf, snippetOf } from '../../../text/clean-text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';

export const documentFetchInput = z.object({
  // Any string: a file:// or internal URL must reach the SSRF guard and be refused as BLOCKED_URL.
  url: z.string().min(1).max(2048),
}).strict();

const PAGE_ACCEPT = 'text/html, application/xhtml+xml;q=0.9, text/plain;q=0.8';

export function parseDocumentResponse(raw: RawResponse): ProviderResult[] {
  const url = raw.url ?? '';
  const mediaType = raw.contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'text/plain') {
    const text = raw.body.trim();
    const title = cleanText(text.split('\n', 1)[0]).slice(0, 200);
    return [{ url, title, snippet: snippetOf(text), published_date: null, source: hostOf(url), content: text || null, language: detectLanguage(text) }];
  }
  if (mediaType !== 'text/html' && mediaType !== 'application/xhtml+xml') {
    throw new SkryaError('BAD_RESPONSE', `${raw.skill}: ${url} is ${mediaType || 'of unknown type'}, not an HTML or text page`, { details: { reason: 'content-type', contentType: raw.contentType } });
  }
  const page = readableDocument(raw.body);
  return [{
    url,
    title: page.title,
    snippet: page.excerpt || snippetOf(page.text),
    published_date: normalizeDate(page.publishedTime, raw.fetchedAt),
    source: page.siteName ?? hostOf(url),
    content: page.text || null,
    language: detectLanguage(page.text, page.declaredLanguage),
    // Readability drops hidden elements; injection screening needs to see them.
    html: raw.body,
  }];
}

export const documentFetchSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: documentFetchInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    const raw = await ctx.adapter.request({ kind: 'public-url', url: input.url, accept: PAGE_ACCEPT });
    return { output: { results: parseDocumentResponse(raw) }, raw: [raw] };
  },
  parseResponse: parseDocumentResponse,
});
