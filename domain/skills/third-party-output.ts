/**
 * Output of a third-party tool (spec 000's runtime skills: whatever an agent ran, bound at run
 * time or piped into `skrya ingest`) → provider-style results. Accepts a skrya.ingest.v1 document,
 * a JSON list of results (bare or under results/items/data/hits/organic), one JSON document with a
 * url, or plain text (markdown) with links.
 */
import { SkryaError } from '../../runtime/errors.ts';
import { providerResultSchema, type ProviderResult } from '../../schemas/ingest.ts';
import type { RawResponse } from './types.ts';

const FIELD_ALIASES = {
  url: ['url', 'link', 'href', 'source_url'],
  title: ['title', 'name', 'headline'],
  snippet: ['summary', 'snippet', 'description', 'excerpt'],
  content: ['content', 'text', 'body', 'markdown'],
  published_date: ['published_at', 'published_date', 'publishedDate', 'date', 'pubDate', 'published'],
  source: ['source_name', 'source', 'site', 'site_name', 'publisher'],
  language: ['language', 'lang'],
} as const;

const LIST_KEYS = ['items', 'results', 'data', 'hits', 'organic', 'organic_results', 'documents'];
const URL_PATTERN = /https?:\/\/[^\s<>()\]"']+/;
const MARKDOWN_LINK = /\[([^\]]{1,300})\]\((https?:\/\/[^\s)]+)\)/;

function pick(record: Record<string, unknown>, aliases: readonly string[]): string | null {
  for (const alias of aliases) {
    const value = record[alias];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number') return String(value);
  }
  return null;
}

function fromRecord(record: Record<string, unknown>): ProviderResult {
  return providerResultSchema.parse({
    url: pick(record, FIELD_ALIASES.url) ?? '',
    title: pick(record, FIELD_ALIASES.title) ?? '',
    snippet: pick(record, FIELD_ALIASES.snippet) ?? '',
    published_date: pick(record, FIELD_ALIASES.published_date),
    source: pick(record, FIELD_ALIASES.source) ?? '',
    content: pick(record, FIELD_ALIASES.content),
    language: pick(record, FIELD_ALIASES.language),
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listIn(value: unknown): unknown[] | null {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return null;
  for (const key of LIST_KEYS) if (Array.isArray(value[key])) return value[key] as unknown[];
  return null;
}

/** A list marker or heading at the start of a line: "- ", "* ", "1. ", "2) ", "## ", "> ". */
const LINE_MARKER = /^(?:#{1,6}\s+|>\s*|[-*+]\s+|\d{1,3}[.)]\s+)+/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/;

/** A block whose lines are list items is one chunk per item (a bullet list of links is several results). */
function chunksOf(block: string): string[] {
  const lines = block.split('\n');
  if (lines.filter((line) => LIST_ITEM.test(line)).length < 2) return [block];
  const chunks: string[][] = [];
  for (const line of lines) {
    if (LIST_ITEM.test(line) || chunks.length === 0) chunks.push([line]);
    else chunks.at(-1)!.push(line);
  }
  return chunks.map((chunk) => chunk.join('\n').trim());
}

/** Blocks of text separated by blank lines; a block (or list item) with a link becomes one result. */
function fromText(text: string): ProviderResult[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .flatMap(chunksOf)
    .flatMap((block) => {
      const link = MARKDOWN_LINK.exec(block);
      const url = link?.[2] ?? URL_PATTERN.exec(block)?.[0] ?? '';
      if (url === '') return [];
      const firstLine = block.split('\n')[0] ?? '';
      const title = (link?.[1] ?? firstLine.replace(URL_PATTERN, '').replace(LINE_MARKER, '')).trim();
      const rest = block.split('\n').slice(1).join('\n').trim();
      return [providerResultSchema.parse({ url, title, snippet: rest || block, content: null })];
    });
}

export function normalizeThirdPartyOutput(raw: RawResponse): ProviderResult[] {
  const text = raw.body.trim();
  if (text === '') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fromText(text);
  }
  const list = listIn(parsed);
  if (list === null) {
    // A lone document with a link is one result; anything else ({"error": …}, a number) is not output we understand.
    if (isRecord(parsed) && pick(parsed, FIELD_ALIASES.url) !== null) return [fromRecord(parsed)];
    throw new SkryaError('NORMALIZE_FAILED', 'the JSON output holds no list of results (expected an array, or one under items/results/data/hits)');
  }
  return list.filter(isRecord).map(fromRecord);
}
