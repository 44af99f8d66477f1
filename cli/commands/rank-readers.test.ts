import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { generateRankInput } from '../../bench/rank-input.ts';
import { streamInput } from '../jsonl-input.ts';
import { readingPlan, type ReadingPlan } from './rank-readers.ts';
import { rankLines, type RankCommandOptions } from './rank.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);
const options: RankCommandOptions = { intent: 'status', queries: ['kafka release'], boostDomains: ['example.org'], windowEnd: '2026-11-30T00:00:00Z', keepDropped: true };
const ONE_THREAD: ReadingPlan = { threads: 0, threadsAfterBytes: 0, batchBytes: 64 * 1024 };
// Small batches, so lines, copies and dropped items land in many batches on both threads.
const TWO_THREADS: ReadingPlan = { threads: 2, threadsAfterBytes: 0, batchBytes: 4 * 1024 };
// A stream: its first batches are read on this thread, the rest on two reading threads.
const THREADS_LATER: ReadingPlan = { threads: 2, threadsAfterBytes: 60 * 1024, batchBytes: 4 * 1024 };

/** A generated file with dropped lines, blank lines, CRLF endings and non-ASCII text mixed in. */
function mixedInput(lines: number): string {
  const generated = generateRankInput({ lines, duplicateShare: 0.3, seed: 5 }).text.trimEnd().split('\n');
  const extra = [
    line({ url: 'https://example.org/empty', title: '', snippet: '', published_date: null, source: 'web' }),
    line({ url: 'https://例え.jp/記事', title: 'Kafka 4.1 リリース', snippet: 'Kafka 4.1 がリリースされました', published_date: '2025-09-04', source: 'exa' }),
    '',
    `${line({ url: 'https://example.org/crlf', title: 'Kafka release notes', snippet: 'A line ending in CRLF', published_date: '2026-11-01', source: 'brave' })}\r`,
    line({ url: 'https://example.org/future', title: 'Future', snippet: 'Dated in the future', published_date: '2099-01-01T00:00:00Z', source: 'tavily' }),
  ];
  // Every 53rd line is followed by a syndicated copy of a line read far earlier (another site, the same
  // text): only its words tie it to that one, so merging it right needs each reader's token table.
  const copyOf = (index: number) => {
    const { title, snippet, published_date } = JSON.parse(generated[Math.floor(index / 3)]!) as Record<string, unknown>;
    return line({ url: `https://syndicated.example.net/copy/${index}`, title, snippet, published_date, source: 'rss' });
  };
  return generated
    .flatMap((entry, index) => (index % 97 === 0 ? [entry, extra[(index / 97) % extra.length]!] : [entry]))
    .flatMap((entry, index) => (index % 53 === 52 ? [entry, copyOf(index)] : [entry]))
    .join('\n');
}

/**
 * A text as a stream of 1,000-byte chunks: batches end at a chunk's last line end, so a text handed
 * over whole would be one batch, and the plans' small batches would never fall on several threads.
 */
async function* chunksOf(text: string): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text);
  for (let at = 0; at < bytes.length; at += 1_000) yield bytes.subarray(at, at + 1_000);
}

async function rank(text: string, plan: ReadingPlan, rankOptions: RankCommandOptions = options): Promise<{ output: string; dropped: number[] } | { failure: unknown }> {
  let output = '';
  try {
    const { dropped } = await rankLines(streamInput(chunksOf(text), 'results.jsonl'), rankOptions, (chunk) => {
      output += chunk.toString();
    }, plan);
    return { output, dropped: dropped.map((entry) => entry.line) };
  } catch (failure) {
    return { failure };
  }
}

describe('skrya rank on reading threads', () => {
  it('prints what reading on one thread prints, with and without an intent, dropped lines included', async () => {
    const text = mixedInput(1_500);
    for (const rankOptions of [options, { ...options, intent: null, queries: [] }, { ...options, digest: true }]) {
      const alone = await rank(text, ONE_THREAD, rankOptions);
      expect(alone).toMatchObject({ dropped: expect.arrayContaining([expect.any(Number)]) });
      if (rankOptions.digest !== true) expect('output' in alone && alone.output).toContain('"reason":"near_duplicate"');
      expect(await rank(text, TWO_THREADS, rankOptions)).toEqual(alone);
      expect(await rank(text, THREADS_LATER, rankOptions)).toEqual(alone);
    }
  });

  it('times its phases in order and counts every line read, on whichever threads read it', async () => {
    const text = mixedInput(1_500);
    const lines = text.split('\n').filter((entry) => entry.trim() !== '').length;
    for (const plan of [ONE_THREAD, TWO_THREADS, THREADS_LATER]) {
      const { timings } = await rankLines(streamInput(chunksOf(text), 'results.jsonl'), options, () => {}, plan);
      expect(timings).toMatchObject({ lines, readingThreads: plan.threads });
      const phases = [timings.started, timings.firstBatch!, timings.read, timings.ranked, timings.written];
      expect(phases).toEqual([...phases].sort((a, b) => a - b));
    }
  });

  it('fails on the first bad line in the file, as reading on one thread does, however the batches fall', async () => {
    const lines = mixedInput(1_200).split('\n');
    const text = [...lines.slice(0, 900), '{not json', ...lines.slice(900, 1_000), line({ url: 5 }), ...lines.slice(1_000)].join('\n');
    const alone = await rank(text, ONE_THREAD);
    expect(alone).toMatchObject({ failure: { code: 'INVALID_INPUT', details: { line: 901 } } });
    expect(await rank(text, TWO_THREADS)).toEqual(alone);
    expect(await rank(text, THREADS_LATER)).toEqual(alone);
    // The first bad line read on this thread, before the reading threads start.
    const early = [...lines.slice(0, 20), '{not json', ...lines.slice(20)].join('\n');
    const earlyAlone = await rank(early, ONE_THREAD);
    expect(earlyAlone).toMatchObject({ failure: { code: 'INVALID_INPUT', details: { line: 21 } } });
    expect(await rank(early, THREADS_LATER)).toEqual(earlyAlone);
    const laterOnly = [...lines.slice(0, 1_000), line({ url: 5 }), ...lines.slice(1_000)].join('\n');
    expect(await rank(laterOnly, TWO_THREADS)).toMatchObject({ failure: { message: expect.stringContaining('results.jsonl line 1001 is not a provider result') } });
  });

  it('ranks an empty input and one without a final line end alike', async () => {
    for (const text of ['', mixedInput(300).trimEnd()]) {
      const alone = await rank(text, ONE_THREAD);
      expect(await rank(text, TWO_THREADS)).toEqual(alone);
      expect(await rank(text, THREADS_LATER)).toEqual(alone);
    }
  });
});

/** How many worker threads this process starts while `work` runs: thread ids count up with each one started. */
async function threadsStartedDuring(work: () => Promise<unknown>): Promise<number> {
  const probe = async () => {
    const worker = new Worker('', { eval: true });
    const id = worker.threadId;
    await worker.terminate();
    return id;
  };
  const before = await probe();
  await work();
  return (await probe()) - before - 1;
}

describe('skrya rank on a stream of unknown length', () => {
  it('starts the reading threads once the stream has passed threadsAfterBytes, and none for a shorter one', async () => {
    const long = mixedInput(1_500);
    expect(Buffer.byteLength(long)).toBeGreaterThan(2 * THREADS_LATER.threadsAfterBytes);
    expect(await threadsStartedDuring(() => rank(long, THREADS_LATER))).toBe(2);
    const short = long.slice(0, long.lastIndexOf('\n', THREADS_LATER.threadsAfterBytes / 2));
    expect(await threadsStartedDuring(() => rank(short, THREADS_LATER))).toBe(0);
    expect(await threadsStartedDuring(() => rank(long, TWO_THREADS))).toBe(2);
  });
});

describe('readingPlan', () => {
  it('reads a large file on up to two threads from the start, and a small file or anything on a one-core machine on this one', () => {
    expect(readingPlan(50 * 1024 * 1024, 8)).toMatchObject({ threads: 2, threadsAfterBytes: 0 });
    expect(readingPlan(50 * 1024 * 1024, 2)).toMatchObject({ threads: 2, threadsAfterBytes: 0 });
    expect(readingPlan(50 * 1024 * 1024, 1).threads).toBe(0);
    expect(readingPlan(null, 1).threads).toBe(0);
    expect(readingPlan(100_000, 8).threads).toBe(0);
  });

  it('reads a stream of unknown length on this thread until it is as long as a large file, then on two threads', () => {
    const large = readingPlan(50 * 1024 * 1024, 8);
    expect(readingPlan(null, 8)).toMatchObject({ threads: 2, threadsAfterBytes: expect.any(Number) });
    expect(readingPlan(null, 8).threadsAfterBytes).toBeGreaterThan(0);
    // The point where a stream switches is where a file starts on threads: below it a file stays here.
    expect(readingPlan(readingPlan(null, 8).threadsAfterBytes - 1, 8).threads).toBe(0);
    expect(readingPlan(readingPlan(null, 8).threadsAfterBytes, 8)).toEqual(large);
  });
});
