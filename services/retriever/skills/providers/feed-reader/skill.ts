/**
 * RSS 2.0, Atom and JSON Feed, from a public URL or a file under the local root. The text is
 * fetched by the adapter (never by the feed library), then parsed with
 * @extractus/feed-extractor's extractFromXml / extractFromJson.
 */
import { extractFromJson, extractFromXml, type FeedData, type ReaderOptions } from '@extractus/feed-extractor';
import { z } from 'zod';
import { SkryaError, describeError } from '../../../../../runtime/errors.ts';
import type { ProviderResult } from '../../../../../schemas/ingest.ts';
import { normalizeDate } from '../../normalize/dates.ts';
import { htmlFragmentText } from '../../normalize/html.ts';
import { detectLanguage } from '../../normalize/language.ts';
import { cleanText, hostOf, snippetOf } from '../../normalize/text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';

export const feedReaderInput = z.object({
  url: z.string().min(1).max(2048).optional(),
  path: z.string().min(1).optional(),
  count: z.number().int().min(1).max(200).default(50),
}).strict().refine((input) => (input.url === undefined) !== (input.path === undefined), { message: 'give exactly one of url or path' });

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';

/** Full entry content, which the library leaves out of its normalized entry. */
function entryContent(entry: Record<string, unknown>): { fullContent: string } {
  const candidates = [entry['content:encoded'], entry.content, entry.content_html, entry.content_text];
  for (const candidate of candidates) {
    const value = typeof candidate === 'string' ? candidate : textNode(candidate);
    if (value && value.trim()) return { fullContent: value };
  }
  return { fullContent: '' };
}

function textNode(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const node = value as Record<string, unknown>;
  const text = node['#text'] ?? node._text ?? node._cdata;
  return typeof text === 'string' ? text : '';
}

function extractFeed(raw: RawResponse): FeedData {
  const options: ReaderOptions = {
    descriptionMaxLen: 0,
    baseUrl: raw.url?.startsWith('http') ? raw.url : '',
    getExtraEntryFields: entryContent,
  };
  const text = raw.body.replace(/^\uFEFF/, '');
  const looksJson = /json/i.test(raw.contentType) || text.trimStart().startsWith('{');
  try {
    if (looksJson) {
      const json: unknown = JSON.parse(text);
      if (json === null || typeof json !== 'object' || !String((json as Record<string, unknown>).version ?? '').includes('jsonfeed.org')) {
        throw new Error('JSON without a jsonfeed.org version is not a JSON Feed');
      }
      return extractFromJson(json as Record<string, unknown>, options);
    }
    return extractFromXml(text, options);
  } catch (error) {
    throw new SkryaError('BAD_RESPONSE', `${raw.skill}: not a readable RSS, Atom or JSON feed (${describeError(error)})`, { details: { reason: 'malformed', url: raw.url } });
  }
}

export function parseFeedResponse(raw: RawResponse): ProviderResult[] {
  const feed = extractFeed(raw);
  const feedTitle = cleanText(feed.title);
  const feedLanguage = typeof feed.language === 'string' ? feed.language : null;
  const results: ProviderResult[] = [];
  for (const entry of feed.entries ?? []) {
    if (!entry.link) continue;
    const extra = entry as typeof entry & { fullContent?: string };
    const content = extra.fullContent ? htmlFragmentText(extra.fullContent) : '';
    const description = cleanText(entry.description);
    const title = cleanText(entry.title);
    results.push({
      url: entry.link,
      title,
      snippet: snippetOf(description || content),
      published_date: normalizeDate(entry.published, raw.fetchedAt),
      source: feedTitle || hostOf(entry.link),
      content: content || null,
      language: detectLanguage([title, description, content].join(' '), feedLanguage),
      html: extra.fullContent || null,
    });
  }
  return results;
}

/** Newest first; entries without a date keep their feed order after the dated ones. */
function newestFirst(results: ProviderResult[]): ProviderResult[] {
  return results
    .map((result, index) => ({ result, index, time: result.published_date ? Date.parse(result.published_date) : Number.NEGATIVE_INFINITY }))
    .sort((a, b) => b.time - a.time || a.index - b.index)
    .map(({ result }) => result);
}

export const feedReaderSkill = defineSkill({
  declarationUrl: new URL('./declaration.json', import.meta.url),
  fixturesDir: new URL('./fixtures/', import.meta.url),
  input: feedReaderInput,
  output: skillOutputSchema,
  async execute(input, ctx) {
    const raw = input.url !== undefined
      ? await ctx.adapter.request({ kind: 'public-url', url: input.url, accept: FEED_ACCEPT })
      : await ctx.adapter.request({ kind: 'local-file', path: input.path ?? '' });
    return { output: { results: newestFirst(parseFeedResponse(raw)).slice(0, input.count) }, raw: [raw] };
  },
  parseResponse: parseFeedResponse,
});
