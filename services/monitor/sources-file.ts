/**
 * sources.json: a topic's long-term configuration (spec 000). It records which retrieval
 * capabilities a topic needs, never which provider serves them. Errors name the file, line and field.
 * Folders written for the original Skrya tool load as they are: unknown fields are ignored,
 * `recency_hours` sets the default time window and a source's own `recency_hours` its window, and
 * an original `"type": "rss"` source with its feed `url` is read as the rss_feed capability
 * (`skrya sources migrate` rewrites it into that form). A file lints clean only when it has an
 * enabled source Skrya can retrieve, so whatever lints clean can be requested.
 */
import fs from 'node:fs';
import { CronExpressionParser } from 'cron-parser';
import { findNodeAtLocation, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { ID_PATTERN } from '../../runtime/ids.ts';
import { CAPABILITIES, INTENTS } from '../../schemas/ingest.ts';

export const DEFAULT_MAX_ITEMS = 50;
export const DEFAULT_RECENCY_HOURS = 24;

/**
 * Names of retrieval vendors and tools. They belong in run artifacts (producer.name) and in
 * operator bindings, never in sources.json, where a capability is recorded instead.
 */
export const PROVIDER_NAMES = [
  'brave', 'exa', 'tavily', 'bailian', 'serpapi', 'serper', 'bing-api', 'google-cse', 'perplexity-api',
  'agent-reach', 'firecrawl', 'jina', 'searxng', 'duckduckgo-api', 'you-api', 'kagi',
] as const;

/** Keys whose mere presence binds a source to a provider. */
const PROVIDER_KEYS = ['provider', 'providers', 'tool', 'tools', 'skill', 'skills', 'adapter', 'vendor', 'engine', 'api'];

const id = z.string().regex(ID_PATTERN, 'must be 1-63 lowercase letters, digits or "-", starting with a letter or digit');

function isCronExpression(value: string): boolean {
  try {
    CronExpressionParser.parse(value, { tz: 'UTC' });
    return true;
  } catch {
    return false;
  }
}

export const cadenceSchema = z.union([
  // Checked here so a bad cron is reported with its line, not only when the monitor first reschedules.
  z.string().min(1).refine(isCronExpression, 'is not a valid cron expression (e.g. "0 */6 * * *")').describe('a cron expression, e.g. "0 */6 * * *"'),
  z.object({ every_minutes: z.number().int().min(1).max(7 * 24 * 60) }),
]);

export const runtimeSourceSchema = z.looseObject({
  id,
  name: z.string().optional(),
  type: z.literal('runtime-retrieval'),
  enabled: z.boolean().default(true),
  capabilities: z.array(z.enum(CAPABILITIES, { error: `must be one of ${CAPABILITIES.join(', ')}` })).min(1),
  binding: z.literal('runtime', { error: 'must be "runtime": which tool serves a capability is decided at run time, not here' }).default('runtime'),
  queries: z.array(z.string().min(1)).default([]),
  languages: z.array(z.string().min(1)).default([]),
  max_items: z.number().int().min(1).max(1000).optional(),
  feeds: z.array(z.string().min(1)).default([]),
  paths: z.array(z.string().min(1)).default([]),
  urls: z.array(z.string().min(1)).default([]),
  sites: z.array(z.string().min(1)).default([]),
  /** This source's own window, as the original tool allowed; the request covers the widest. */
  recency_hours: z.number().positive().max(24 * 365).optional(),
});
export type RuntimeSource = z.infer<typeof runtimeSourceSchema>;

/** Feed formats the original tool's `adapter` field named: a reader type, not a provider. */
const ORIGINAL_FEED_ADAPTERS = ['rss', 'atom', 'feed'];

/**
 * The original tool's feed source: `{"type": "rss", "url": "https://…/feed", "adapter": "rss"}`.
 * Read as a runtime-retrieval source with the rss_feed capability and the URL as its feed.
 */
export const originalFeedSourceSchema = z.looseObject({
  id,
  name: z.string().optional(),
  type: z.literal('rss'),
  enabled: z.boolean().default(true),
  url: z.string().min(1).optional(),
  feed_url: z.string().min(1).optional(),
  feeds: z.array(z.string().min(1)).optional(),
  adapter: z.enum(ORIGINAL_FEED_ADAPTERS, { error: `must be one of ${ORIGINAL_FEED_ADAPTERS.join(', ')} (the feed format) or left out` }).optional(),
  languages: z.array(z.string().min(1)).default([]),
  max_items: z.number().int().min(1).max(1000).optional(),
  recency_hours: z.number().positive().max(24 * 365).optional(),
}).refine((source) => Boolean(source.url ?? source.feed_url ?? source.feeds?.length), {
  message: 'an rss source needs its feed: "url" (or "feeds": ["https://…/feed"])',
});

/** The feeds an original rss source names, in order, without repeats. */
function originalFeeds(source: z.infer<typeof originalFeedSourceSchema>): string[] {
  return [...new Set([...(source.feeds ?? []), source.feed_url, source.url].filter((feed): feed is string => Boolean(feed)))];
}

function fromOriginalFeedSource(source: z.infer<typeof originalFeedSourceSchema>): RuntimeSource {
  return runtimeSourceSchema.parse({
    id: source.id,
    ...(source.name === undefined ? {} : { name: source.name }),
    type: 'runtime-retrieval',
    enabled: source.enabled,
    capabilities: ['rss_feed'],
    binding: 'runtime',
    languages: source.languages,
    feeds: originalFeeds(source),
    ...(source.max_items === undefined ? {} : { max_items: source.max_items }),
    ...(source.recency_hours === undefined ? {} : { recency_hours: source.recency_hours }),
  });
}

export const sourcesFileSchema = z.looseObject({
  cadence: cadenceSchema.optional(),
  recency_hours: z.number().positive().max(24 * 365).optional(),
  intent: z.enum(INTENTS).optional(),
  boost_domains: z.array(z.string().min(1)).default([]),
  sources: z.array(z.looseObject({ type: z.string() })).min(1, 'needs at least one source'),
});

export interface TopicSources {
  file: string;
  cadence: z.infer<typeof cadenceSchema> | null;
  recencyHours: number;
  intent: (typeof INTENTS)[number] | null;
  boostDomains: string[];
  /** Enabled runtime-retrieval sources; other source types are ignored (kept for the original tool). */
  sources: RuntimeSource[];
}

export interface SourcesProblem {
  file: string;
  line: number;
  column: number;
  field: string;
  message: string;
}

export function formatProblem(problem: SourcesProblem): string {
  return `${problem.file}:${problem.line}:${problem.column}: ${problem.field}: ${problem.message}`;
}

function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function locate(text: string, root: Node | undefined, path: Array<string | number>): { line: number; column: number } {
  // The deepest node that exists on the path: a missing field points at its parent object.
  for (let depth = path.length; depth >= 0; depth -= 1) {
    const node = root ? findNodeAtLocation(root, path.slice(0, depth)) : undefined;
    if (node) return lineAndColumn(text, node.parent?.type === 'property' ? node.parent.offset : node.offset);
  }
  return { line: 1, column: 1 };
}

function fieldName(path: Array<string | number>): string {
  return path.length === 0 ? '(file)' : path.map((part) => (typeof part === 'number' ? `[${part}]` : part)).join('.').replaceAll('.[', '[');
}

function mentionsProvider(value: string): string | null {
  const lower = value.toLowerCase();
  return PROVIDER_NAMES.find((name) => new RegExp(`(^|[^a-z0-9])${name}([^a-z0-9]|$)`).test(lower)) ?? null;
}

/** Provider names anywhere but in free text (queries and names a human wrote), and provider-binding keys. */
function providerProblems(value: unknown, path: Array<string | number>, report: (path: Array<string | number>, message: string) => void): void {
  if (Array.isArray(value)) {
    value.forEach((entry, index) => providerProblems(entry, [...path, index], report));
    return;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (PROVIDER_KEYS.includes(key.toLowerCase())) {
        const record = value as Record<string, unknown>;
        // The original tool's rss source names its feed format here, not a provider.
        if (key === 'adapter' && record.type === 'rss' && typeof child === 'string' && ORIGINAL_FEED_ADAPTERS.includes(child)) continue;
        report([...path, key], `"${key}" binds a source to a provider; sources.json records capabilities (spec 000): remove "${key}" and give the source "capabilities" (${CAPABILITIES.join(', ')}) and where to look ("feeds", "urls", "paths", "sites" or "queries"); which tool serves a capability is chosen at run time (\`skrya run --bind\`). \`skrya sources migrate FILE\` rewrites the original tool's rss sources`);
        continue;
      }
      if (key === 'queries' || key === 'name' || key === 'description') continue;
      providerProblems(child, [...path, key], report);
    }
    return;
  }
  if (typeof value === 'string') {
    const provider = mentionsProvider(value);
    if (provider) report(path, `names the provider "${provider}"; record the capability it serves (${CAPABILITIES.join(', ')}) instead`);
  }
}

/** Editors on Windows save a byte-order mark; JSON.parse and the parser reject it. */
function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

/**
 * A sources.json is a few levels deep. Far deeper nesting is refused before the parser, the schema
 * and the checks below walk it recursively: 10 000 nested brackets would overflow the stack.
 */
export const MAX_NESTING = 64;

/** The offset of the first bracket nested deeper than MAX_NESTING (outside strings and comments), or null. */
function overNestedAt(text: string): number | null {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '"') {
      for (index += 1; index < text.length && text[index] !== '"'; index += 1) if (text[index] === '\\') index += 1;
    } else if (char === '/' && text[index + 1] === '/') {
      while (index < text.length && text[index] !== '\n') index += 1;
    } else if (char === '/' && text[index + 1] === '*') {
      const end = text.indexOf('*/', index + 2);
      index = end === -1 ? text.length : end + 1;
    } else if (char === '[' || char === '{') {
      depth += 1;
      if (depth > MAX_NESTING) return index;
    } else if (char === ']' || char === '}') {
      depth -= 1;
    }
  }
  return null;
}

/** Every problem of one sources.json text; empty when it is valid. */
export function lintSourcesText(file: string, original: string): SourcesProblem[] {
  const text = withoutBom(original);
  const overNested = overNestedAt(text);
  if (overNested !== null) return [{ file, ...lineAndColumn(text, overNested), field: '(syntax)', message: `nested deeper than ${MAX_NESTING} levels` }];
  const problems: SourcesProblem[] = [];
  const parseErrors: ParseError[] = [];
  const root = parseTree(text, parseErrors, { allowTrailingComma: false, disallowComments: true });
  for (const error of parseErrors) {
    problems.push({ file, ...lineAndColumn(text, error.offset), field: '(syntax)', message: `invalid JSON: ${printParseErrorCode(error.error)}` });
  }
  if (problems.length > 0 || !root) return problems;

  const report = (path: Array<string | number>, message: string) => problems.push({ file, ...locate(text, root, path), field: fieldName(path), message });
  const raw: unknown = JSON.parse(text);
  const top = sourcesFileSchema.safeParse(raw);
  if (!top.success) for (const issue of top.error.issues) report(issue.path as Array<string | number>, issue.message);
  // The sources are checked even when a top-level field is wrong, so one pass lists every problem.
  const sources: unknown[] = typeof raw === 'object' && raw !== null && Array.isArray((raw as { sources?: unknown }).sources) ? (raw as { sources: unknown[] }).sources : [];
  const ids = new Map<string, number>();
  sources.forEach((source, index) => {
    if (typeof source !== 'object' || source === null) return;
    const { type, id: sourceId } = source as { type?: unknown; id?: unknown };
    if (type === 'runtime-retrieval' || type === 'rss') {
      const parsed = (type === 'rss' ? originalFeedSourceSchema : runtimeSourceSchema).safeParse(source);
      if (!parsed.success) for (const issue of parsed.error.issues) report(['sources', index, ...(issue.path as Array<string | number>)], issue.message);
    }
    if (typeof sourceId !== 'string') return;
    if (ids.has(sourceId)) report(['sources', index, 'id'], `duplicate source id "${sourceId}" (first at sources[${ids.get(sourceId)}])`);
    else ids.set(sourceId, index);
  });
  providerProblems(raw, [], report);
  if (problems.length === 0 && top.success && retrievableSources(top.data.sources).length === 0) {
    report(['sources'], `no enabled source Skrya can retrieve: enable one, or give one "type": "runtime-retrieval" with "capabilities" (${CAPABILITIES.join(', ')}); sources of other types are kept for the original tool and ignored`);
  }
  return problems.sort((a, b) => a.line - b.line || a.column - b.column);
}

/** Enabled runtime-retrieval sources, with the original tool's rss sources read as rss_feed ones. */
function retrievableSources(sources: Array<{ type: string }>): RuntimeSource[] {
  return sources
    .flatMap((source) => {
      if (source.type === 'runtime-retrieval') return [runtimeSourceSchema.parse(source)];
      if (source.type === 'rss') return [fromOriginalFeedSource(originalFeedSourceSchema.parse(source))];
      return [];
    })
    .filter((source) => source.enabled);
}

/** Loads a valid sources.json, or throws CONFIG_INVALID listing every problem with its line. */
export function loadSourcesFile(file: string): TopicSources {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `${file}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`, { cause: error });
  }
  const problems = lintSourcesText(file, text);
  if (problems.length > 0) {
    throw new SkryaError('CONFIG_INVALID', problems.map(formatProblem).join('\n'), { details: { problems } });
  }
  const parsed = sourcesFileSchema.parse(JSON.parse(withoutBom(text)));
  const sources = retrievableSources(parsed.sources);
  const topLevel = parsed.recency_hours ?? DEFAULT_RECENCY_HOURS;
  return {
    file,
    cadence: parsed.cadence ?? null,
    // One window per request: the widest any enabled source asks for (its own, or the file's).
    recencyHours: Math.max(...sources.map((source) => source.recency_hours ?? topLevel)),
    intent: parsed.intent ?? null,
    boostDomains: parsed.boost_domains,
    sources,
  };
}
