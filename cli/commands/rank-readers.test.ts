import { describe, expect, it } from 'vitest';
import { generateRankInput } from '../../bench/rank-input.ts';
import { textInput } from '../jsonl-input.ts';
import { readingPlan, type ReadingPlan } from './rank-readers.ts';
import { rankLines, type RankCommandOptions } from './rank.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);
const options: RankCommandOptions = { intent: 'status', queries: ['kafka release'], boostDomains: ['example.org'], windowEnd: '2026-11-30T00:00:00Z', keepDropped: true };
const ONE_THREAD: ReadingPlan = { threads: 0, batchBytes: 64 * 1024 };
// Small batches, so lines, copies and dropped items land in many batches on both threads.
const TWO_THREADS: ReadingPlan = { threads: 2, batchBytes: 4 * 1024 };

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
  return generated.flatMap((entry, index) => (index % 97 === 0 ? [entry, extra[(index / 97) % extra.length]!] : [entry])).join('\n');
}

async function rank(text: string, plan: ReadingPlan, rankOptions: RankCommandOptions = options): Promise<{ output: string; dropped: number[] } | { failure: unknown }> {
  let output = '';
  try {
    const { dropped } = await rankLines(textInput(text, 'results.jsonl'), rankOptions, (chunk) => {
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
      expect(await rank(text, TWO_THREADS, rankOptions)).toEqual(alone);
    }
  });

  it('fails on the first bad line in the file, as reading on one thread does, however the batches fall', async () => {
    const lines = mixedInput(1_200).split('\n');
    const text = [...lines.slice(0, 900), '{not json', ...lines.slice(900, 1_000), line({ url: 5 }), ...lines.slice(1_000)].join('\n');
    const alone = await rank(text, ONE_THREAD);
    expect(alone).toMatchObject({ failure: { code: 'INVALID_INPUT', details: { line: 901 } } });
    expect(await rank(text, TWO_THREADS)).toEqual(alone);
    const laterOnly = [...lines.slice(0, 1_000), line({ url: 5 }), ...lines.slice(1_000)].join('\n');
    expect(await rank(laterOnly, TWO_THREADS)).toMatchObject({ failure: { message: expect.stringContaining('results.jsonl line 1001 is not a provider result') } });
  });

  it('ranks an empty input and one without a final line end alike', async () => {
    for (const text of ['', mixedInput(300).trimEnd()]) expect(await rank(text, TWO_THREADS)).toEqual(await rank(text, ONE_THREAD));
  });
});

describe('readingPlan', () => {
  it('reads a large file on up to two threads, and a small file, a stream or a one-core machine on this one', () => {
    expect(readingPlan(50 * 1024 * 1024, 8).threads).toBe(2);
    expect(readingPlan(50 * 1024 * 1024, 2).threads).toBe(2);
    expect(readingPlan(50 * 1024 * 1024, 1).threads).toBe(0);
    expect(readingPlan(100_000, 8).threads).toBe(0);
    expect(readingPlan(null, 8).threads).toBe(0);
  });
});
