/**
 * Output of a third-party tool (spec 000's runtime skills: whatever an agent ran, bound at run
 * time or piped into `skrya ingest`) → provider-style results. Accepts a skrya.ingest.v1 document,
 * a JSON list of results (bare or under results/items/data/hits/organic), or plain text with links.
 */
import { SkryaError } from '../../runtime/errors.ts';
import { providerResultSchema, type ProviderResult } from '../../schemas/ingest.ts';
import type { RawResponse } from '../retriever/skills/types.ts';

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

/** Blocks of text separated by blank lines; a block with a link becomes one result. */
function fromText(text: string): ProviderResult[] {
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter(Boolean)
    .map((block) => {
      const link = MARKDOWN_LINK.exec(block);
      const url = link?.[2] ?? URL_PATTERN.exec(block)?.[0] ?? '';
      const firstLine = block.split('\n')[0] ?? '';
      const title = (link?.[1] ?? firstLine.replace(URL_PATTERN, '').replace(/^[#>*\-\d.\s]+/, '')).trim();
      const rest = block.split('\n').slice(1).join('\n').trim();
      return providerResultSchema.parse({ url, title, snippet: rest || block, content: null });
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
    if (isRecord(parsed)) return [fromRecord(parsed)];
    throw new SkryaError('NORMALIZE_FAILED', 'the JSON output holds no list of results (expected an array, or one under items/results/data/hits)');
  }
  return list.filter(isRecord).map(fromRecord);
}
