import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { growArray } from '../../domain/arrays/grow-array.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { lineBatches, type LineBatch } from '../json-lines.ts';
import { openJsonlInput, textInput, type JsonlInput } from '../jsonl-input.ts';
import { isIsoDateTime } from '../../domain/dates/instant-text.ts';
import { INTENTS, isIntent, type Intent } from '../../schemas/intents.ts';
import { createRunRanking, type RankedItem, type RankedRun } from '../../domain/dedupe/rank-items.ts';
import type { DigestItem } from '../../services/collector/index.ts';
import { createTokenWords, createUnpackState, unpackBatch, type DroppedLine, type ReadBatch } from './rank-reading.ts';
import { readOnThisThread, readingPlan, startReadingThreads, type BatchReader, type ReadingPlan } from './rank-readers.ts';

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

/**
 * When each phase of a rank ended, in milliseconds since its process started (performance.now()):
 * what `--timings` prints, so a slow run says where its time went. Reading uses every reading
 * thread; ranking (dedupe's clustering, fusion, the order) and writing run on this thread alone.
 */
export interface RankTimings {
  /** The command's own work began: node and the command's modules were loaded. */
  started: number;
  /** The first batch of lines came back read (null: the input had none). */
  firstBatch: number | null;
  read: number;
  ranked: number;
  written: number;
  /** Lines read, kept and dropped (blank ones not counted). */
  lines: number;
  readingThreads: number;
}

export function describeTimings(timings: RankTimings): string {
  const at = (value: number | null) => (value === null ? 'none' : String(Math.round(value)));
  return `skrya rank: timings (ms since this process started): started ${at(timings.started)}, first batch read ${at(timings.firstBatch)}, all read ${at(timings.read)}, ranked ${at(timings.ranked)}, written ${at(timings.written)}; ${timings.lines} lines, ${timings.readingThreads} reading threads`;
}

/** One stderr line per dropped item: where it was and every reason. */
export function describeDropped(entry: DroppedLine, fileLabel: string): string {
  return `${fileLabel} line ${entry.line}: dropped ${JSON.stringify(entry.title || entry.url || '(untitled)')}: ${entry.reasons.map((reason) => `${reason.code} (${reason.field}: ${reason.message})`).join('; ')}`;
}

/**
 * The kept lines' rendered output fields, written to a scratch file as their batches arrive and
 * read back as the output is written: a 100k-line run would otherwise hold them all (about 60 MB)
 * until it is ranked. What ranking keeps of a kept line while the rest of the file is read is its
 * number here (its id is its sources' first), not its text.
 */
interface RenderedStore {
  /** Appends a batch's rendered bytes; returns where they start. */
  append(bytes: Uint8Array): number;
  /** Notes a kept line's fields, `length` bytes from `start`; returns the line's number. */
  addLine(start: number, length: number): number;
  lineLength(line: number): number;
  /** Reads the fields of `lines[i]` into `target` at `at[i]`, for every i. */
  readLines(lines: Int32Array, target: Buffer, at: Int32Array): void;
  close(): void;
}

/**
 * One read of the scratch file takes at most this many bytes, several wanted lines at once (and
 * the lines between them, if not too far): the output's lines come in rank order, scattered over
 * the file, and reading them one at a time cost a system call a line, 70k on a 100k file.
 */
const SPAN_BYTES = 1024 * 1024;
/** Bytes no wanted line needs that a span may still read through rather than start another. */
const SPAN_MAX_GAP = 64 * 1024;

function createRenderedStore(): RenderedStore {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-rank-'));
  const fd = fs.openSync(path.join(directory, 'rendered'), 'w+');
  // Removed at once, the file open: nothing is left behind however the run ends (Ctrl-C included).
  fs.rmSync(directory, { recursive: true, force: true });
  let size = 0;
  // Per kept line, in columns rather than an object each: 100k of them live until the output is written.
  let starts = new Float64Array(1024);
  let lengths = new Int32Array(1024);
  let lines = 0;
  let span = Buffer.allocUnsafe(0);
  const readFully = (target: Buffer, length: number, position: number) => {
    for (let read = 0; read < length;) {
      const got = fs.readSync(fd, target, read, length - read, position + read);
      if (got === 0) throw new Error('skrya rank\'s scratch file lost bytes it was given');
      read += got;
    }
  };
  return {
    append(bytes) {
      const start = size;
      for (let written = 0; written < bytes.length;) written += fs.writeSync(fd, bytes, written, bytes.length - written, start + written);
      size += bytes.length;
      return start;
    },
    addLine(start, length) {
      starts = growArray(starts, lines + 1);
      lengths = growArray(lengths, lines + 1);
      starts[lines] = start;
      lengths[lines] = length;
      return lines++;
    },
    lineLength: (line) => lengths[line]!,
    readLines(wanted, target, at) {
      // Indices into `wanted`, in file order: a span is a run of them read at once.
      const order = Int32Array.from(wanted.keys()).sort((a, b) => starts[wanted[a]!]! - starts[wanted[b]!]!);
      for (let first = 0; first < order.length;) {
        const spanStart = starts[wanted[order[first]!]!]!;
        let spanEnd = spanStart + lengths[wanted[order[first]!]!]!;
        let last = first;
        while (last + 1 < order.length) {
          const line = wanted[order[last + 1]!]!;
          const end = starts[line]! + lengths[line]!;
          if (end - spanStart > SPAN_BYTES || starts[line]! - spanEnd > SPAN_MAX_GAP) break;
          spanEnd = end;
          last++;
        }
        if (span.length < spanEnd - spanStart) span = Buffer.allocUnsafe(Math.max(SPAN_BYTES, spanEnd - spanStart));
        readFully(span, spanEnd - spanStart, spanStart);
        for (let k = first; k <= last; k++) {
          const line = wanted[order[k]!]!;
          const from = starts[line]! - spanStart;
          span.copy(target, at[order[k]!]!, from, from + lengths[line]!);
        }
        first = last + 1;
      }
    },
    close() {
      fs.closeSync(fd);
    },
  };
}

/**
 * The output lines whose fields are read from the scratch file at a time (and held meanwhile).
 * A window's lines are spread over the whole file, so each window reads through most of it: a
 * larger window means fewer passes, a smaller one less memory. At 8 MB the 100k bench file (45 MB
 * of ranked lines' fields) takes 6 passes, far fewer system calls and less CPU than a read a line.
 */
const WINDOW_BYTES = 8 * 1024 * 1024;

/**
 * The ranked lines' fields, a window of positions at a time: each window's fields are read in a
 * few large reads (RenderedStore.readLines), then `visit` is given each position's, in order.
 */
async function forEachRendered(ranked: RankedRun<number>, store: RenderedStore, visit: (position: number, fields: Buffer) => void | Promise<void>): Promise<void> {
  let window = Buffer.allocUnsafe(0);
  for (let from = 0; from < ranked.length;) {
    let to = from;
    let bytes = 0;
    while (to < ranked.length && (to === from || bytes + store.lineLength(ranked.itemAt(to)) <= WINDOW_BYTES)) bytes += store.lineLength(ranked.itemAt(to++));
    const lines = new Int32Array(to - from);
    const at = new Int32Array(to - from);
    for (let k = 0, offset = 0; k < lines.length; k++) {
      lines[k] = ranked.itemAt(from + k);
      at[k] = offset;
      offset += store.lineLength(lines[k]!);
    }
    if (window.length < bytes) window = Buffer.allocUnsafe(bytes);
    store.readLines(lines, window, at);
    for (let k = 0; k < lines.length; k++) {
      // Awaited only when the visitor has to wait (a full output buffer): an await a line cost a sixth of writing.
      const waiting = visit(from + k, window.subarray(at[k]!, at[k]! + store.lineLength(lines[k]!)));
      if (waiting !== undefined) await waiting;
    }
    from = to;
  }
}

/** A ranked line's JSON: the ranking's members, then the line's rendered fields, then its sources. */
function rankedLineParts(ranked: RankedItem<number>): { head: string; tail: string } {
  // The kept copy is the first of its sources.
  const head = JSON.stringify({ rank: ranked.rank, id: ranked.sources[0]!.id, score: ranked.score, components: ranked.components });
  const sources = JSON.stringify(ranked.sources.map((source) => ({ provider: source.provider, url: source.url })));
  return { head: `${head.slice(0, -1)},`, tail: `,"sources":${sources},"merged":${JSON.stringify(ranked.merged)}}\n` };
}

/** A kept line's fields as the result they came from: what the digest reads of it. */
function renderedResult(fields: Buffer): { url: string; title: string; snippet: string; published_date: string | null } {
  return JSON.parse(`{${fields.toString('utf8')}}`) as { url: string; title: string; snippet: string; published_date: string | null };
}

export async function rankProviderResults(text: string, fileLabel: string, options: RankCommandOptions): Promise<string> {
  return (await rankAndValidate(text, fileLabel, options)).output;
}

/** Validates like the pipeline, ranks what it keeps; `output` is what stdout gets. */
export async function rankAndValidate(text: string, fileLabel: string, options: RankCommandOptions): Promise<{ output: string; dropped: DroppedLine[] }> {
  const chunks: Buffer[] = [];
  const { dropped } = await rankLines(textInput(text, fileLabel), options, (chunk) => {
    // Copied: the output's buffers are filled again once their write has returned.
    chunks.push(Buffer.from(chunk));
  });
  return { output: Buffer.concat(chunks).toString('utf8'), dropped };
}

/** Output bytes written at a time: a 100k ranking is never held whole. */
const OUTPUT_CHUNK_BYTES = 1024 * 1024;

/**
 * Hands `rankLines`' output on: a chunk's bytes are the writer's until it returns, or until the
 * promise it returns resolves, and are then overwritten.
 */
export type OutputWriter = (chunk: Buffer) => void | Promise<void>;

/**
 * Output gathered into buffers of about OUTPUT_CHUNK_BYTES, each handed to `write` once full (at
 * a line end), so the output is encoded a line's parts at a time, never as one string. Two buffers
 * take turns: one is filled while `write` has the other. A new buffer a chunk touched a megabyte
 * of fresh pages each time: on the bench's 100k rank, writing took 455 ms against 471 (6
 * alternating pairs, a window of cheap page faults), and one buffer reused outright, the upper
 * bound, 512 against 562 (5 pairs, a slower one).
 */
function bufferedOutput(write: OutputWriter) {
  let buffer: Buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
  let used = 0;
  // The buffer `write` has, and when it is done with it.
  let writing: { buffer: Buffer; done: Promise<void> } | null = null;
  const flush = async () => {
    if (used === 0) return;
    const previous = writing;
    const done = Promise.resolve(write(buffer.subarray(0, used)));
    // A failed write is awaited (and thrown) at the next flush; it must not go unhandled meanwhile.
    done.catch(() => {});
    writing = { buffer, done };
    used = 0;
    if (previous === null) {
      buffer = Buffer.allocUnsafe(OUTPUT_CHUNK_BYTES);
      return;
    }
    await previous.done;
    buffer = previous.buffer;
  };
  return {
    /**
     * Makes room for `bytes` more bytes: undefined when there is room already, else a promise of it,
     * which writes what is gathered first.
     */
    reserve(bytes: number): Promise<void> | undefined {
      if (used + bytes <= buffer.length) return undefined;
      return flush().then(() => {
        if (bytes > buffer.length) buffer = Buffer.allocUnsafe(bytes);
      });
    },
    text(value: string) {
      used += buffer.write(value, used);
    },
    bytes(value: Buffer) {
      used += value.copy(buffer, used);
    },
    /** Writes what is gathered and waits until every write is done. */
    async finish() {
      await flush();
      await writing?.done;
    },
  };
}

/**
 * Buffers for batches' bytes or their rendered output fields, each given back once its batch is
 * done with it and handed out again: a few buffers serve a whole run. Allocated a megabyte or two
 * a batch instead, on one thread and freed on another, they left glibc holding about 50 MB in the
 * threads' arenas on a 100k file, and the reading threads holding buffers their collector had not
 * freed yet.
 */
function spareBuffers() {
  const spare: ArrayBuffer[] = [];
  return {
    /** A buffer of at least `bytes`; a new one has `fresh` bytes. */
    take(bytes: number, fresh: number): ArrayBuffer {
      for (let space = spare.pop(); space !== undefined; space = spare.pop()) if (space.byteLength >= bytes) return space;
      return new ArrayBuffer(Math.max(bytes, fresh));
    },
    giveBack(space: ArrayBuffer) {
      spare.push(space);
    },
  };
}

/** The most bytes a string can take as UTF-8. */
const utf8Bound = (value: string) => 3 * value.length;

/**
 * Reads and validates each line as it comes (a batch at a time, on reading threads for a large
 * input) and hands the ones validation keeps to the ranking in file order, which holds only their
 * scores, what dedupe matches on and their numbers in the RenderedStore; the line's text is let
 * go. A line that cannot be read fails the run, after every line before it, as it would read one
 * line at a time.
 */
async function readAndRank(input: JsonlInput, options: RankCommandOptions, plan: ReadingPlan, store: RenderedStore, timings: RankTimings): Promise<{ ranked: RankedRun<number>; dropped: DroppedLine[] }> {
  const run = createRunRanking<number>({ intent: options.intent, subQueries: options.queries, windowEnd: options.windowEnd, boostDomains: options.boostDomains });
  const unpacking = createUnpackState();
  const dropped: DroppedLine[] = [];
  const setup = { label: input.label, intent: options.intent, queries: options.queries, boostDomains: options.boostDomains, windowEnd: options.windowEnd };
  // Every reader used, by index (each has its own token table); batches go to the ones from `firstActive` on.
  const readers: BatchReader[] = [];
  const tables: ReturnType<typeof createTokenWords>[] = [];
  let firstActive = 0;
  const use = (added: BatchReader[]) => {
    firstActive = readers.length;
    for (const reader of added) {
      readers.push(reader);
      tables.push(createTokenWords());
    }
  };
  // Reading threads still to start once threadsAfterBytes have been read here.
  let threadsPending = plan.threads > 0 && plan.threadsAfterBytes > 0;
  use(plan.threads > 0 && !threadsPending ? startReadingThreads(setup, plan.threads) : [readOnThisThread(setup)]);
  timings.readingThreads = plan.threads > 0 && !threadsPending ? plan.threads : 0;
  const reading: { reader: number; batch: Promise<ReadBatch> }[] = [];
  const inputs = spareBuffers();
  const outputs = spareBuffers();
  const rankNext = async () => {
    const { reader, batch } = reading.shift()!;
    const read = await batch;
    timings.firstBatch ??= performance.now();
    const renderedAt = store.append(read.rendered);
    inputs.giveBack(read.input.buffer);
    outputs.giveBack(read.rendered.buffer);
    unpackBatch(read, tables[reader]!, unpacking, (kept, drop) => {
      timings.lines++;
      if (kept !== null) run.addRead(kept.item, store.addLine(renderedAt + kept.start, kept.length));
      else dropped.push(drop!);
    });
  };
  try {
    // A batch ends within a read chunk (64 KB) past batchBytes: a quarter more is room for any usual one.
    const batchSpace = 1.25 * plan.batchBytes;
    const batches = lineBatches(input.chunks(), plan.batchBytes, (size) => inputs.take(size, batchSpace))[Symbol.asyncIterator]();
    let bytesSent = 0;
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
      if (threadsPending && bytesSent >= plan.threadsAfterBytes) {
        // A stream that has gone on this long is a large input: the reading threads take the rest.
        use(startReadingThreads(setup, plan.threads));
        threadsPending = false;
        timings.readingThreads = plan.threads;
      }
      const active = readers.length - firstActive;
      const reader = firstActive + (sent % active);
      bytesSent += next.value.bytes.byteLength;
      // The output fields take a little more than the lines (the canonical URL is added).
      const batch = readers[reader]!.read(next.value, outputs.take(2 * next.value.bytes.byteLength, 2 * batchSpace));
      // Taken in file order below; a thread's failure must not go unheeded meanwhile.
      batch.catch(() => {});
      reading.push({ reader, batch });
      // Two batches a reader in flight: each has the next one queued when it finishes one.
      while (reading.length > 2 * active) await rankNext();
    }
    while (reading.length > 0) await rankNext();
  } finally {
    await Promise.all(readers.map((reader) => reader.close()));
  }
  timings.read = performance.now();
  const ranked = run.finish();
  timings.ranked = performance.now();
  return { ranked, dropped };
}

/**
 * The command's whole work: read and validate each line as it comes, rank what validation kept,
 * and hand the output to `write` in chunks of whole lines (the ranked lines, then the dropped
 * ones with keepDropped).
 */
export async function rankLines(input: JsonlInput, options: RankCommandOptions, write: OutputWriter, plan: ReadingPlan = readingPlan(input.size)): Promise<{ dropped: DroppedLine[]; timings: RankTimings }> {
  const timings: RankTimings = { started: performance.now(), firstBatch: null, read: 0, ranked: 0, written: 0, lines: 0, readingThreads: 0 };
  const store = createRenderedStore();
  try {
    const { dropped } = await rankAndWrite(input, options, write, plan, store, timings);
    timings.written = performance.now();
    return { dropped, timings };
  } finally {
    store.close();
  }
}

async function rankAndWrite(input: JsonlInput, options: RankCommandOptions, write: OutputWriter, plan: ReadingPlan, store: RenderedStore, timings: RankTimings): Promise<{ dropped: DroppedLine[] }> {
  const { ranked, dropped } = await readAndRank(input, options, plan, store, timings);
  if (options.digest === true) {
    const items: DigestItem[] = [];
    let retrieved = 0;
    const providers = new Set<string>();
    await forEachRendered(ranked, store, (position, fields) => {
      const entry = ranked.at(position);
      const result = renderedResult(fields);
      items.push({ title: result.title, url: result.url, summary: result.snippet, sources: entry.sources, score: entry.score, published_at: result.published_date });
      retrieved += entry.merged.length + 1;
      for (const source of entry.sources) providers.add(source.provider);
    });
    // The collector stage (its digest) is loaded only for --digest: the ranking itself is domain code.
    const { renderDigest } = await import('../../services/collector/index.ts');
    await write(Buffer.from(renderDigest({ topicId: 'rank', title: options.queries[0] ?? 'Results', items, stats: { retrieved, providers: [...providers] } })));
    return { dropped };
  }
  const output = bufferedOutput(write);
  await forEachRendered(ranked, store, (position, fields) => {
    const { head, tail } = rankedLineParts(ranked.at(position));
    const put = () => {
      output.text(head);
      output.bytes(fields);
      output.text(tail);
    };
    const waiting = output.reserve(utf8Bound(head) + fields.length + utf8Bound(tail));
    if (waiting === undefined) put();
    else return waiting.then(put);
  });
  if (options.keepDropped === true) {
    for (const entry of dropped) {
      const text = `${droppedLine(entry)}\n`;
      await output.reserve(utf8Bound(text));
      output.text(text);
    }
  }
  await output.finish();
  return { dropped };
}

export function parseRankOptions(raw: { intent?: string; query: string[]; boost?: string; windowEnd?: string }, now: () => Date): RankCommandOptions {
  let intent: Intent | null = null;
  if (raw.intent !== undefined) {
    if (!isIntent(raw.intent)) throw new SkryaError('INVALID_INPUT', `unknown intent ${JSON.stringify(raw.intent)}: use one of ${INTENTS.join(', ')}, or leave --intent out to keep provider order`);
    intent = raw.intent;
  }
  const queries = raw.query.map((query) => query.trim()).filter((query) => query !== '');
  if (intent !== null && queries.length === 0) throw new SkryaError('INVALID_INPUT', '--query is required with --intent: give the query, and repeat --query for each sub-query');
  const windowEnd = raw.windowEnd ?? now().toISOString();
  if (!isIsoDateTime(windowEnd)) throw new SkryaError('INVALID_INPUT', `--window-end ${JSON.stringify(windowEnd)} is not an ISO 8601 date-time with a zone, e.g. 2026-03-01T00:00:00Z`);
  const boostDomains = (raw.boost ?? '').split(',').map((domain) => domain.trim()).filter((domain) => domain !== '');
  return { intent, queries, boostDomains, windowEnd };
}

/**
 * Resolves once stdout is done with the chunk (its output buffer is then filled again), which also
 * holds the output back while a pipe is full. A failed write ends the process through stdout's
 * error handler (main.ts), not here.
 */
function writeToStdout(chunk: Buffer): Promise<void> {
  return new Promise((resolve) => process.stdout.write(chunk, () => resolve()));
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
    .option('--timings', 'print on stderr, at the end, when reading, ranking and writing ended (ms since the process started)')
    .action(async (raw: { jsonl: string; intent?: string; query: string[]; boost?: string; windowEnd?: string; digest?: boolean; keepDropped?: boolean; timings?: boolean }) => {
      const options = { ...parseRankOptions(raw, () => new Date()), digest: raw.digest === true, keepDropped: raw.keepDropped === true };
      // Dropped items are never ranked; each is named on stderr with its reasons, as the pipeline records them.
      const input = await openJsonlInput(raw.jsonl);
      try {
        const { dropped, timings } = await rankLines(input, options, writeToStdout);
        for (const entry of dropped) process.stderr.write(`${describeDropped(entry, input.label)}\n`);
        if (raw.timings === true) process.stderr.write(`${describeTimings(timings)}\n`);
      } finally {
        await input.close();
      }
    });
}
