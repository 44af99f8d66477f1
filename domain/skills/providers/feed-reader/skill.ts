/**
 * RSS 2.0, Atom and JSON Feed, from a public URL or a file under the local root. The text is
 * fetched by the adapter (never by the feed library), then parsed with
 * @extractus/feed-extractor's extractFromXml / extractFromJson.
 */
import { extractFromJson, extractFromXml, type FeedData, type ReaderOptions } from '@extractus/feed-extractor';
import { z } from 'zod';
import { SkryaError, describeError } from '../../../../runtime/errors.ts';
import type { ProviderResult } from '../../../../schemas/ingest.ts';
import { normalizeDate } from '../../../text/dates.ts';
import { htmlFragmentText, htmlToText } from '../../../text/html.ts';
import { detectLanguage } from '../../../text/language.ts';
import { cleanText, hostOf, snippetOf } from '../../../text/clean-text.ts';
import { skillOutputSchema } from '../../output-schema.ts';
import { defineSkill, type RawResponse } from '../../types.ts';

export const feedReaderInput = z.object({
  url: z.string().min(1).max(2048).optional(),
  path: z.string().min(1).optional(),
  count: z.number().int().min(1).max(200).default(50),
}).strict().refine((input) => (input.url === undefined) !== (input.path === undefined), { message: 'give exactly one of url or path' });

const FEED_ACCEPT = 'application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5';

/** What the library leaves out of its normalized entry: full content, and the link as written with its xml:base. */
type EntryExtras = {
  fullContent: string;
  /** The description (RSS), summary (Atom, JSON Feed) as written: HTML more often than not. */
  rawDescription: string;
  rawLink: string;
  entryBase: string;
};

function entryExtras(entry: Record<string, unknown>): EntryExtras {
  return { fullContent: entryContent(entry), rawDescription: entryDescription(entry), rawLink: rawEntryLink(entry), entryBase: attribute(entry, 'xml:base') };
}

function entryContent(entry: Record<string, unknown>): string {
  const candidates = [entry['content:encoded'], entry.content, entry.content_html, entry.content_text];
  for (const candidate of candidates) {
    const value = typeof candidate === 'string' ? candidate : textNode(candidate);
    if (value && value.trim()) return value;
  }
  return '';
}

function entryDescription(entry: Record<string, unknown>): string {
  for (const candidate of [entry.description, entry.summary, entry['itunes:summary']]) {
    const value = typeof candidate === 'string' ? candidate : textNode(candidate);
    if (value && value.trim()) return value;
  }
  return '';
}

function textNode(value: unknown): string {
  if (value === null || typeof value !== 'object') return '';
  const node = value as Record<string, unknown>;
  const text = node['#text'] ?? node._text ?? node._cdata;
  return typeof text === 'string' ? text : '';
}

function attribute(node: unknown, name: string): string {
  if (node === null || typeof node !== 'object') return '';
  const value = (node as Record<string, unknown>)[`@_${name}`];
  return typeof value === 'string' ? value.trim() : '';
}

/**
 * The entry's link as the feed wrote it (possibly relative): an Atom entry's alternate link
 * (rel="alternate" or no rel) before any other, an RSS <link>, a JSON Feed item's url. Empty when
 * the entry has none; the library's own pick is used then.
 */
function rawEntryLink(entry: Record<string, unknown>): string {
  if (typeof entry.url === 'string') return entry.url.trim();
  const links = Array.isArray(entry.link) ? (entry.link as unknown[]) : [entry.link];
  const hrefs = links.flatMap((link) => {
    if (typeof link === 'string') return [{ href: link.trim(), rel: '' }];
    const href = attribute(link, 'href') || textNode(link).trim();
    return href ? [{ href, rel: attribute(link, 'rel') }] : [];
  });
  return (hrefs.find((link) => link.rel === '' || link.rel === 'alternate') ?? hrefs[0])?.href ?? '';
}

/** The feed element's own xml:base and link (on <feed>, <channel>, or a JSON Feed's home_page_url). */
function feedExtras(feed: Record<string, unknown>): { feedBase: string; feedLink: string } {
  const homePage = typeof feed.home_page_url === 'string' ? feed.home_page_url : '';
  return { feedBase: attribute(feed, 'xml:base'), feedLink: homePage || rawEntryLink({ link: feed.link }) };
}

/** `reference` resolved against `base`; null when either is unusable. */
function resolveUrl(reference: string, base: string | null): string | null {
  if (!reference) return base;
  try {
    return base === null ? new URL(reference).toString() : new URL(reference, base).toString();
  } catch {
    return null;
  }
}

/**
 * The base relative links are resolved against: xml:base on the root element and the feed
 * element (each resolved against the one outside it), starting from the document's URL when it
 * was fetched; a local file has no useful URL of its own, so its feed's link comes first and the
 * file's URL last.
 */
function documentBase(raw: RawResponse, rootBase: string, feedBase: string, feedLink: string): string | null {
  const fetched = raw.url?.startsWith('http') ? raw.url : null;
  const start = fetched ?? resolveUrl(feedLink, null) ?? raw.url;
  return resolveUrl(feedBase, resolveUrl(rootBase, start ?? null));
}

/** A BOM or whitespace before `<?xml` (or the JSON) is dropped, as mainstream feed parsers do. */
function trimLeading(text: string): string {
  return text.replace(/^[\uFEFF\s]+/, '');
}

const ROOT_BASE = /^(?:<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>|\s)*<[\w:.-]+\b[^>]*?\bxml:base\s*=\s*["']([^"']*)["']/;

/**
 * fast-xml-parser options. jPath: it builds the element path as a string for every text node,
 * attribute and child only to hand it to callbacks (value processors, isArray, updateTag); the
 * library sets none of them, so the default callbacks get the path object they ignore instead.
 * parseTagValue: left on, every text was tried as a number, which read a title "007" as "7" and
 * "0x10" as "16", and dropped a number-like body; feed text is text.
 */
const FEED_XML_OPTIONS = { jPath: false, parseTagValue: false };

function extractFeed(raw: RawResponse): FeedData {
  const options: ReaderOptions = {
    descriptionMaxLen: 0,
    baseUrl: raw.url?.startsWith('http') ? raw.url : '',
    getExtraEntryFields: entryExtras,
    getExtraFeedFields: feedExtras,
    xmlParserOptions: FEED_XML_OPTIONS,
  };
  const text = trimLeading(raw.body);
  const looksJson = /json/i.test(raw.contentType) || text.startsWith('{');
  try {
    if (looksJson) {
      const json: unknown = JSON.parse(text);
      if (json === null || typeof json !== 'object' || !String((json as Record<string, unknown>).version ?? '').includes('jsonfeed.org')) {
        throw new Error('JSON without a jsonfeed.org version is not a JSON Feed');
      }
      return extractFromJson(json as Record<string, unknown>, options);
    }
    const feed = extractFromXml(text, options);
    return { ...feed, rootBase: ROOT_BASE.exec(text)?.[1]?.trim() ?? '' } as FeedData;
  } catch (error) {
    throw new SkryaError('BAD_RESPONSE', `${raw.skill}: not a readable RSS, Atom or JSON feed (${describeError(error)})`, { details: { reason: 'malformed', url: raw.url } });
  }
}

export function parseFeedResponse(raw: RawResponse): ProviderResult[] {
  const feed = extractFeed(raw);
  const feedTitle = cleanText(feed.title);
  const feedLanguage = typeof feed.language === 'string' ? feed.language : null;
  const extras = feed as FeedData & { feedBase?: string; feedLink?: string; rootBase?: string };
  const rootBase = extras.rootBase ?? '';
  // An Atom <feed> is the root itself: its xml:base is applied once.
  const feedBase = extras.feedBase === rootBase ? '' : (extras.feedBase ?? '');
  const base = documentBase(raw, rootBase, feedBase, extras.feedLink ?? '');
  const results: ProviderResult[] = [];
  for (const entry of feed.entries ?? []) {
    const extra = entry as typeof entry & Partial<EntryExtras>;
    const link = (extra.rawLink ? resolveUrl(extra.rawLink, resolveUrl(extra.entryBase ?? '', base)) : null) ?? entry.link;
    if (!link) continue;
    // Every field that carries HTML is read as HTML: visible text for the item, the markup
    // itself (hidden parts included) for the injection screener.
    const content = extra.fullContent ? htmlToText(extra.fullContent).text : '';
    const description = extra.rawDescription ? htmlFragmentText(extra.rawDescription) : cleanText(entry.description);
    const html = [extra.rawDescription, extra.fullContent].filter((part): part is string => Boolean(part && part.includes('<'))).join('\n');
    const title = cleanText(entry.title);
    results.push({
      url: link,
      title,
      snippet: snippetOf(description || content),
      published_date: normalizeDate(entry.published, raw.fetchedAt),
      source: feedTitle || hostOf(link),
      content: content || null,
      language: detectLanguage([title, description, content], feedLanguage),
      html: html || null,
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
