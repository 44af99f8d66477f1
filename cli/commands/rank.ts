import { hash } from 'node:crypto';
import { once } from 'node:events';
import type { Command } from 'commander';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { parseJsonLine, streamLineSpans } from '../json-lines.ts';
import { openJsonlInput, textInput, type RereadableInput } from '../jsonl-input.ts';
import { INTENTS, intentSchema, isoDateTime, providerResultSchema, type Intent, type ProviderResult } from '../../schemas/ingest.ts';
import { createRunRanking, type RankableItem, type RankedItem, type RankedRun, renderDigest } from '../../services/collector/index.ts';
import { validateItem, type ValidationContext, type ValidationReason } from '../../domain/validation/validate-item.ts';

/**
 * `skrya rank`: the pipeline's scoring and dedupe, offline, over provider-style results
 * ({url, title, snippet, published_date, source}, one JSON object a line). For checking a
 * scoring change against saved results without Kafka. Each result is validated first as the
 * scorer validates it (spec 000): what the pipeline drops is reported with its reasons, not ranked.
 */
export interface RankCommandOptions {
  intent: Intent | null;
  queries: string[];
  boostDomains: string[];
  windowEnd: string;
  /** Print digest.md instead of JSONL. */
  digest?: boolean;
  /** Also print the items validation dropped (after the ranked ones), with their reasons. */
  keepDropped?: boolean;
}

/** A line the pipeline's validation (spec 000) would drop, and why. */
export interface DroppedLine {
  line: number;
  title: string;
  url: string;
  reasons: ValidationReason[];
}

interface RankInputItem extends RankableItem {
  result: ProviderResult;
  line: number;
}

/** How a rank run validates: as fetched at the window's end, which is also its clock. Made once a run, not once an item. */
export function rankValidationContext(windowEnd: string): ValidationContext {
  return { producerName: 'skrya-rank', fetchedAt: windowEnd, now: new Date(windowEnd) };
}

/**
 * The pipeline's validation of one result, built the way the scorer builds its candidate: an item
 * without a title, without a body (content or snippet) or without anything tracing its source is
 * dropped (returned with its reasons), never ranked.
 */
export function validateForRank(item: RankInputItem, windowEnd: string, context: ValidationContext = rankValidationContext(windowEnd)): DroppedLine | null {
  const { result } = item;
  // The item's own id is passed so validation does not hash one of its own (MISSING_ID is not reported here anyway).
  const validation = validateItem({
    id: item.id,
    title: result.title,
    url: result.url || null,
    source_name: result.source || null,
    published_at: result.published_date,
    fetched_at: windowEnd,
    language: result.language,
    content: result.content,
    summary: result.snippet || null,
    evidence_type: null,
    confidence: null,
  }, context);
  if (validation.outcome !== 'dropped') return null;
  return { line: item.line, title: result.title, url: result.url, reasons: validation.reasons.filter((reason) => reason.code !== 'MISSING_ID') };
}

export function droppedLine(entry: DroppedLine): string {
  return JSON.stringify({ dropped: true, line: entry.line, url: entry.url, title: entry.title, reasons: entry.reasons.map(({ code, field, message }) => ({ code, field, message })) });
}

/** One stderr line per dropped item: where it was and every reason. */
export function describeDropped(entry: DroppedLine, fileLabel: string): string {
  return `${fileLabel} line ${entry.line}: dropped ${JSON.stringify(entry.title || entry.url || '(untitled)')}: ${entry.reasons.map((reason) => `${reason.code} (${reason.field}: ${reason.message})`).join('; ')}`;
}

const PROVIDER_RESULT_SHAPE = `one object like {"url": …, "title": …, "snippet": …, "published_date": …, "source": …}`;

/**
 * One JSONL line as a provider result (null for a blank line); a bad line is INVALID_INPUT naming
 * the line and what is wrong with it. `listLengths` counts each source's lines so far: lines of one
 * source are that provider's list, in its order, so the line order is the provider rank.
 */
export function parseProviderResult(content: string, lineNumber: number, fileLabel: string, listLengths: Map<string, number>): RankInputItem | null {
  const parsedLine = parseJsonLine(content, lineNumber, fileLabel, PROVIDER_RESULT_SHAPE);
  if (parsedLine === null) return null;
  let result = plainProviderResult(parsedLine.json);
  if (result === null) {
    const parsed = providerResultSchema.safeParse(parsedLine.json);
    if (!parsed.success) {
      throw new SkryaError('INVALID_INPUT', `${parsedLine.where} is not a provider result: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`, { details: { line: lineNumber } });
    }
    result = parsed.data;
  }
  const provider = result.source === '' ? 'unknown' : result.source;
  const providerRank = (listLengths.get(provider) ?? 0) + 1;
  listLengths.set(provider, providerRank);
  return {
    // Content-derived ids: equal scores break the same way whatever order the lines come in.
    id: hash('sha256', JSON.stringify([result.source, result.url, result.title, result.snippet])).slice(0, 16),
    url: result.url,
    title: result.title,
    snippet: result.snippet,
    content: result.content,
    published_at: result.published_date,
    provider,
    providerRank,
    resultList: provider,
    result,
    line: lineNumber,
  };
}

const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || typeof value === 'string';

/**
 * providerResultSchema's reading of a parsed line in the usual case, checked by hand (a 100k-line
 * file pays zod's cost on every line otherwise): an object whose fields have their types or are
 * absent, absent ones given the schema's defaults. Null for anything else, which zod then reads
 * (and words the error for).
 */
function plainProviderResult(json: unknown): ProviderResult | null {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { url, title = '', snippet = '', published_date = null, source = '', content = null, language = null, html } = json as Record<string, unknown>;
  if (!isText(url) || !isText(title) || !isText(snippet) || !isTextOrNull(published_date) || !isText(source) || !isTextOrNull(content) || !isTextOrNull(language)) return null;
  if (html !== undefined && !isTextOrNull(html)) return null;
  return { url, title, snippet, published_date, source, content, language, html };
}

/** Every provider result of a JSONL text, in line order. */
export function parseProviderResults(text: string, fileLabel: string): RankInputItem[] {
  const listLengths = new Map<string, number>();
  const items: RankInputItem[] = [];
  text.split('\n').forEach((content, index) => {
    const item = parseProviderResult(content, index + 1, fileLabel, listLengths);
    if (item !== null) items.push(item);
  });
  return items;
}

/**
 * What ranking keeps of a result while the rest of the file is read: its id and provider, and
 * where its line is so it can be read again for the output (readResult), not its text.
 */
interface KeptLine {
  id: string;
  provider: string;
  offset: number;
  length: number;
}

/** A kept line read again: the same result the first read validated. */
function readResult(input: RereadableInput, kept: KeptLine): ProviderResult {
  const json: unknown = JSON.parse(input.read(kept.offset, kept.length));
  return plainProviderResult(json) ?? providerResultSchema.parse(json);
}

export function rankedLine(ranked: RankedItem<KeptLine>, result: ProviderResult): string {
  return JSON.stringify({
    rank: ranked.rank,
    id: ranked.item.id,
    score: ranked.score,
    components: ranked.components,
    url: result.url,
    canonical_url: ranked.canonicalUrl,
    title: result.title,
    snippet: result.snippet,
    published_date: result.published_date,
    source: ranked.item.provider,
    sources: ranked.sources.map((source) => ({ provider: source.provider, url: source.url })),
    merged: ranked.merged,
  });
}

export async function rankProviderResults(text: string, fileLabel: string, options: RankCommandOptions): Promise<string> {
  return (await rankAndValidate(text, fileLabel, options)).output;
}

/** Validates like the pipeline, ranks what it keeps; `output` is what stdout gets. */
export async function rankAndValidate(text: string, fileLabel: string, options: RankCommandOptions): Promise<{ output: string; dropped: DroppedLine[] }> {
  let output = '';
  const { dropped } = await rankLines(textInput(text, fileLabel), options, (chunk) => {
    output += chunk;
  });
  return { output, dropped };
}

/** Lines the output is written in at a time: a 100k ranking never becomes one string. */
const OUTPUT_CHUNK_LINES = 1_000;

/**
 * Reads and validates each line as it comes and hands the ones validation keeps to the ranking,
 * which holds only their scores, what dedupe matches on and a KeptLine; the line's text is let go.
 */
async function readAndRank(input: RereadableInput, options: RankCommandOptions): Promise<{ ranked: RankedRun<KeptLine>; dropped: DroppedLine[] }> {
  const run = createRunRanking<KeptLine>({ intent: options.intent, subQueries: options.queries, windowEnd: options.windowEnd, boostDomains: options.boostDomains });
  const listLengths = new Map<string, number>();
  const dropped: DroppedLine[] = [];
  const validation = rankValidationContext(options.windowEnd);
  for await (const spans of streamLineSpans(input.chunks())) {
    for (const span of spans) {
      const item = parseProviderResult(span.text, span.line, input.label, listLengths);
      if (item === null) continue;
      const drop = validateForRank(item, options.windowEnd, validation);
      if (drop === null) run.add(item, { id: item.id, provider: item.provider, offset: span.offset, length: span.length });
      else dropped.push(drop);
    }
  }
  return { ranked: run.finish(), dropped };
}

/**
 * The command's whole work: read and validate each line as it comes, rank what validation kept,
 * and hand the output to `write` in chunks (ranked lines, each read again from the input, then
 * the dropped ones with keepDropped).
 */
export async function rankLines(input: RereadableInput, options: RankCommandOptions, write: (chunk: string) => void | Promise<void>): Promise<{ dropped: DroppedLine[] }> {
  const { ranked, dropped } = await readAndRank(input, options);
  if (options.digest === true) {
    const entries = Array.from({ length: ranked.length }, (_entry, position) => ranked.at(position));
    await write(renderDigest({
      topicId: 'rank',
      title: options.queries[0] ?? 'Results',
      items: entries.map((entry) => {
        const result = readResult(input, entry.item);
        return { title: result.title, url: result.url, summary: result.snippet, sources: entry.sources, score: entry.score, published_at: result.published_date };
      }),
      stats: { retrieved: entries.reduce((count, entry) => count + entry.merged.length + 1, 0), providers: [...new Set(entries.flatMap((entry) => entry.sources.map((source) => source.provider)))] },
    }));
    return { dropped };
  }
  const listed = options.keepDropped === true ? dropped.map(droppedLine) : [];
  const total = ranked.length + listed.length;
  for (let start = 0; start < total; start += OUTPUT_CHUNK_LINES) {
    const chunk: string[] = [];
    for (let index = start; index < Math.min(total, start + OUTPUT_CHUNK_LINES); index++) {
      if (index >= ranked.length) {
        chunk.push(listed[index - ranked.length]!);
        continue;
      }
      const entry = ranked.at(index);
      chunk.push(rankedLine(entry, readResult(input, entry.item)));
    }
    await write(`${chunk.join('\n')}\n`);
  }
  return { dropped };
}

export function parseRankOptions(raw: { intent?: string; query: string[]; boost?: string; windowEnd?: string }, now: () => Date): RankCommandOptions {
  let intent: Intent | null = null;
  if (raw.intent !== undefined) {
    const parsed = intentSchema.safeParse(raw.intent);
    if (!parsed.success) throw new SkryaError('INVALID_INPUT', `unknown intent ${JSON.stringify(raw.intent)}: use one of ${INTENTS.join(', ')}, or leave --intent out to keep provider order`);
    intent = parsed.data;
  }
  const queries = raw.query.map((query) => query.trim()).filter((query) => query !== '');
  if (intent !== null && queries.length === 0) throw new SkryaError('INVALID_INPUT', '--query is required with --intent: give the query, and repeat --query for each sub-query');
  const windowEnd = raw.windowEnd ?? now().toISOString();
  if (!isoDateTime.safeParse(windowEnd).success) throw new SkryaError('INVALID_INPUT', `--window-end ${JSON.stringify(windowEnd)} is not an ISO 8601 date-time with a zone, e.g. 2026-03-01T00:00:00Z`);
  const boostDomains = (raw.boost ?? '').split(',').map((domain) => domain.trim()).filter((domain) => domain !== '');
  return { intent, queries, boostDomains, windowEnd };
}

async function writeRespectingBackpressure(chunk: string): Promise<void> {
  if (!process.stdout.write(chunk)) await once(process.stdout, 'drain');
}

export function registerRankCommand(program: Command): void {
  program
    .command('rank')
    .requiredOption('--jsonl <file>', 'provider results, one JSON object a line: {url, title, snippet, published_date, source}; each source\'s lines, in order, are its ranked list; - reads stdin')
    .option('--intent <intent>', `${INTENTS.join(' | ')}; without it nothing is scored and provider order is kept`)
    .option('--query <query>', 'the query; repeat for each sub-query (keyword coverage is measured over all of them)', (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--boost <domains>', 'comma-separated domains (example.com) or patterns (docs.*) whose authority gets +0.2')
    .option('--window-end <iso>', 'end of the time window freshness is measured from (default: now; pass it to rank reproducibly)')
    .option('--digest', 'print the digest.md the collector would write instead of JSONL')
    .option('--keep-dropped', 'also print the items validation dropped (after the ranked ones) as {"dropped": true, "reasons": […]} lines')
    .action(async (raw: { jsonl: string; intent?: string; query: string[]; boost?: string; windowEnd?: string; digest?: boolean; keepDropped?: boolean }) => {
      const options = { ...parseRankOptions(raw, () => new Date()), digest: raw.digest === true, keepDropped: raw.keepDropped === true };
      // Dropped items are never ranked; each is named on stderr with its reasons, as the pipeline records them.
      const input = await openJsonlInput(raw.jsonl);
      try {
        const { dropped } = await rankLines(input, options, writeRespectingBackpressure);
        for (const entry of dropped) process.stderr.write(`${describeDropped(entry, input.label)}\n`);
      } finally {
        await input.close();
      }
    });
}
