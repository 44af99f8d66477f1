import { once } from 'node:events';
import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
import { lineBatches, type LineBatch } from '../json-lines.ts';
import { openJsonlInput, textInput, type RereadableInput } from '../jsonl-input.ts';
import { INTENTS, intentSchema, isoDateTime, providerResultSchema, type Intent, type ProviderResult } from '../../schemas/ingest.ts';
import { createRunRanking, type RankedItem, type RankedRun, renderDigest } from '../../services/collector/index.ts';
import { createTokenWords, plainProviderResult, unpackBatch, type DroppedLine, type ReadBatch } from './rank-reading.ts';
import { readingPlan, startReaders, type ReadingPlan } from './rank-readers.ts';

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

export function droppedLine(entry: DroppedLine): string {
  return JSON.stringify({ dropped: true, line: entry.line, url: entry.url, title: entry.title, reasons: entry.reasons.map(({ code, field, message }) => ({ code, field, message })) });
}

/** One stderr line per dropped item: where it was and every reason. */
export function describeDropped(entry: DroppedLine, fileLabel: string): string {
  return `${fileLabel} line ${entry.line}: dropped ${JSON.stringify(entry.title || entry.url || '(untitled)')}: ${entry.reasons.map((reason) => `${reason.code} (${reason.field}: ${reason.message})`).join('; ')}`;
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
 * Reads and validates each line as it comes (a batch at a time, on reading threads for a large
 * file) and hands the ones validation keeps to the ranking in file order, which holds only their
 * scores, what dedupe matches on and a KeptLine; the line's text is let go. A line that cannot be
 * read fails the run, after every line before it, as it would read one line at a time.
 */
async function readAndRank(input: RereadableInput, options: RankCommandOptions, plan: ReadingPlan): Promise<{ ranked: RankedRun<KeptLine>; dropped: DroppedLine[] }> {
  const run = createRunRanking<KeptLine>({ intent: options.intent, subQueries: options.queries, windowEnd: options.windowEnd, boostDomains: options.boostDomains });
  const listLengths = new Map<string, number>();
  const dropped: DroppedLine[] = [];
  const readers = startReaders({ label: input.label, intent: options.intent, queries: options.queries, boostDomains: options.boostDomains, windowEnd: options.windowEnd }, plan);
  const tables = readers.map(() => createTokenWords());
  const reading: { reader: number; batch: Promise<ReadBatch> }[] = [];
  const rankNext = async () => {
    const { reader, batch } = reading.shift()!;
    unpackBatch(await batch, tables[reader]!, listLengths, (kept, drop) => {
      if (kept !== null) run.addRead(kept.item, { id: kept.item.keys.id, provider: kept.provider, offset: kept.offset, length: kept.length });
      else dropped.push(drop!);
    });
  };
  try {
    const batches = lineBatches(input.chunks(), plan.batchBytes)[Symbol.asyncIterator]();
    for (let sent = 0; ; sent++) {
      let next: IteratorResult<LineBatch>;
      try {
        next = await batches.next();
      } catch (error) {
        // The input failed past the lines already sent: a bad line among them is the first failure.
        while (reading.length > 0) await rankNext();
        throw error;
      }
      if (next.done === true) break;
      const reader = sent % readers.length;
      const batch = readers[reader]!.read(next.value);
      // Taken in file order below; a thread's failure must not go unheeded meanwhile.
      batch.catch(() => {});
      reading.push({ reader, batch });
      // Two batches a reader in flight: each has the next one queued when it finishes one.
      while (reading.length > 2 * readers.length) await rankNext();
    }
    while (reading.length > 0) await rankNext();
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
  return { ranked: run.finish(), dropped };
}

/**
 * The command's whole work: read and validate each line as it comes, rank what validation kept,
 * and hand the output to `write` in chunks (ranked lines, each read again from the input, then
 * the dropped ones with keepDropped).
 */
export async function rankLines(input: RereadableInput, options: RankCommandOptions, write: (chunk: string) => void | Promise<void>, plan: ReadingPlan = readingPlan(input.size)): Promise<{ dropped: DroppedLine[] }> {
  const { ranked, dropped } = await readAndRank(input, options, plan);
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
