import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateRankInput } from '../../bench/rank-input.ts';
import { openJsonlInput, streamInput, textInput, type JsonlInput } from '../jsonl-input.ts';
import { providerResultSchema } from '../../schemas/ingest.ts';
import { parseRankOptions, rankAndValidate, rankLines, rankProviderResults, registerRankCommand } from './rank.ts';
import { rankItems } from '../../domain/dedupe/rank-items.ts';
import { parseProviderResults, readProviderResult } from './rank-reading.ts';

const WINDOW_END = '2024-10-12T00:00:00Z';
const line = (fields: Record<string, unknown>) => JSON.stringify(fields);
const RESULTS = [
  line({ url: 'https://deno.com/blog/v2.0?utm_source=hn', title: 'Announcing Deno 2', snippet: 'Deno 2 is here', published_date: '2024-10-09T00:00:00Z', source: 'brave' }),
  line({ url: 'https://www.deno.com/blog/v2.0/', title: 'Announcing Deno 2', snippet: 'The next generation of JavaScript', published_date: '2024-10-09', source: 'exa' }),
  line({ url: 'https://example.org/deno-notes', title: 'Notes', snippet: 'Unrelated', published_date: null, source: 'tavily' }),
  '',
].join('\n');

const options = { intent: 'status' as const, queries: ['Deno 2 release'], boostDomains: [], windowEnd: WINDOW_END };
const parseLines = (text: string) => text.trim().split('\n').map((entry) => JSON.parse(entry) as Record<string, unknown>);

describe('rankProviderResults', () => {
  it('prints ranked JSONL with score, components, canonical URL and merged sources', async () => {
    const ranked = parseLines(await rankProviderResults(RESULTS, 'results.jsonl', options));
    expect(ranked).toHaveLength(2);
    expect(ranked[0]).toMatchObject({
      rank: 1,
      canonical_url: 'https://deno.com/blog/v2.0',
      // Equal scores: the kept copy is decided by id, so only membership is asserted here.
      sources: expect.arrayContaining([
        { provider: 'brave', url: 'https://deno.com/blog/v2.0?utm_source=hn' },
        { provider: 'exa', url: 'https://www.deno.com/blog/v2.0/' },
      ]),
      components: { authorityTier: 1, agreement: 0.333333, independentSources: 2 },
    });
    expect(ranked[0]?.score).toBeGreaterThan(ranked[1]?.score as number);
  });

  it('prints each line as JSON.stringify would print it, its members in order, escaped and non-ASCII texts included', async () => {
    const text = [
      RESULTS.trimEnd(),
      '{"url":"https://example.org/esc?a=1","title":"Caf\\u00e9 \\"quoted\\" \\/ slash","snippet":"tab\\there \\ud83d\\ude00 and Deno","published_date":null,"source":"rss"}',
      line({ url: 'https://例え.jp/記事', title: 'Deno 2 リリース', snippet: 'Deno 2 がリリースされました', published_date: '2024-10-01', source: 'exa' }),
    ].join('\n');
    const printed = (await rankProviderResults(text, 'results.jsonl', options)).trimEnd().split('\n');
    expect(printed).toHaveLength(4);
    for (const entry of printed) {
      const parsed = JSON.parse(entry) as Record<string, unknown>;
      expect(Object.keys(parsed)).toEqual(['rank', 'id', 'score', 'components', 'url', 'canonical_url', 'title', 'snippet', 'published_date', 'source', 'sources', 'merged']);
      expect(entry).toBe(JSON.stringify(parsed));
    }
    expect(printed.map((entry) => (JSON.parse(entry) as { title: string }).title)).toEqual(expect.arrayContaining(['Café "quoted" / slash', 'Deno 2 リリース']));
  });

  it('ranks the same lines the same way in any order', async () => {
    const reversed = RESULTS.trim().split('\n').reverse().join('\n');
    expect(await rankProviderResults(reversed, 'results.jsonl', options)).toBe(await rankProviderResults(RESULTS, 'results.jsonl', options));
  });

  it('prints the digest instead with --digest', async () => {
    const digest = await rankProviderResults(RESULTS, 'results.jsonl', { ...options, digest: true });
    expect(digest.split('\n')[0]).toBe('# Deno 2 release');
    expect(digest).toMatch(/^1\. \[Announcing Deno 2\]\(https:\/\/.*deno\.com\/blog\/v2\.0.*\) — .* `\[(brave, exa|exa, brave)\]` ⭐\d\.\d\d$/mu);
  });

  it('keeps provider order without an intent', async () => {
    const ranked = parseLines(await rankProviderResults(RESULTS, 'results.jsonl', { ...options, intent: null }));
    expect(ranked.map((entry) => [entry.rank, entry.source, entry.score])).toEqual([
      [1, 'brave', null],
      [2, 'tavily', null],
    ]);
  });

  it.each([
    ['a line that is not JSON', `${RESULTS}\nnot json`, 5],
    ['a line without a url', line({ title: 'x' }), 1],
    ['a url that is not a string', `\n${line({ url: 5 })}`, 2],
  ])('refuses %s with INVALID_INPUT naming the line', async (_name, text, lineNumber) => {
    await expect(rankProviderResults(text, 'results.jsonl', options)).rejects.toMatchObject({ code: 'INVALID_INPUT', details: { line: lineNumber } });
    await expect(rankProviderResults(text, 'results.jsonl', options)).rejects.toThrow(`results.jsonl line ${lineNumber}`);
  });
});

describe('parseRankOptions', () => {
  const now = () => new Date('2026-01-01T00:00:00Z');
  it('splits --boost, keeps every --query and defaults the window end to now', () => {
    expect(parseRankOptions({ intent: 'tutorial', query: ['Rust CLI', ' Rust CLI tutorial '], boost: 'example.com, docs.*' }, now)).toEqual({
      intent: 'tutorial',
      queries: ['Rust CLI', 'Rust CLI tutorial'],
      boostDomains: ['example.com', 'docs.*'],
      windowEnd: '2026-01-01T00:00:00.000Z',
    });
  });

  it.each([
    ['an unknown intent', { intent: 'nope', query: ['x'] }],
    ['an intent without a query', { intent: 'news', query: [] }],
    ['a window end that is not ISO', { intent: 'news', query: ['x'], windowEnd: 'yesterday' }],
  ])('refuses %s with INVALID_INPUT', (_name, raw) => {
    expect(() => parseRankOptions(raw, now)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('skrya rank', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  async function runRank(args: string[]): Promise<string> {
    const program = new Command('skrya').exitOverride();
    registerRankCommand(program);
    let printed = '';
    // Calls back as a stream does once it has written a chunk: the command waits for that.
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      printed += String(chunk);
      const callback = rest.find((argument) => typeof argument === 'function') as (() => void) | undefined;
      if (callback !== undefined) process.nextTick(callback);
      return true;
    });
    await program.parseAsync(['node', 'skrya', 'rank', ...args]);
    return printed;
  }

  it('reads the file and prints one line per ranked item', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'skrya-rank-')), 'results.jsonl');
    await writeFile(file, RESULTS);
    const printed = await runRank(['--jsonl', file, '--intent', 'status', '--query', 'Deno 2 release', '--window-end', WINDOW_END, '--boost', 'example.org']);
    expect(parseLines(printed)).toHaveLength(2);
    expect(parseLines(printed)[1]).toMatchObject({ components: { boosted: true } });
  });

  it('prints when each phase ended on stderr with --timings, and the same output', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'skrya-rank-')), 'results.jsonl');
    await writeFile(file, RESULTS);
    const args = ['--jsonl', file, '--intent', 'status', '--query', 'Deno 2 release', '--window-end', WINDOW_END];
    const plain = await runRank(args);
    let reported = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      reported += String(chunk);
      return true;
    });
    expect(await runRank([...args, '--timings'])).toBe(plain);
    const phases = /^skrya rank: timings \(ms since this process started\): started (\d+), first batch read (\d+), all read (\d+), ranked (\d+), written (\d+); 3 lines, 0 reading threads\n$/.exec(reported);
    expect(phases).not.toBeNull();
    const times = phases!.slice(1).map(Number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it.each([
    ['a missing file', ['--jsonl', '/nonexistent/results.jsonl']],
    ['a bad boost domain', ['--jsonl', '/nonexistent/results.jsonl', '--intent', 'news', '--query', 'x', '--boost', 'http://x']],
  ])('refuses %s with INVALID_INPUT', async (_name, args) => {
    await expect(runRank(args)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('parseProviderResults: the provider rank (issue 21)', () => {
  it('reads each source\'s lines in order as that provider\'s ranked list', () => {
    const line = (source: string, url: string) => JSON.stringify({ url, title: url, snippet: '', published_date: null, source });
    const items = parseProviderResults([line('brave', 'https://a.example/1'), line('exa', 'https://b.example/1'), line('brave', 'https://a.example/2')].join('\n'), 'inline');
    expect(items.map((item) => [item.provider, item.providerRank, item.resultList])).toEqual([['brave', 1, 'brave'], ['exa', 1, 'exa'], ['brave', 2, 'brave']]);
  });
});

describe('parseProviderResults: what a line reads as', () => {
  it('gives what the provider-result schema gives, defaults included, for usual and unusual lines alike', () => {
    const lines = [
      { url: 'https://a.example/1' },
      { url: 'https://a.example/2', title: 'T', snippet: 'S', published_date: '2026-11-01', source: 'exa', content: 'C', language: 'en', html: '<p>S</p>', extra: 1 },
      { url: 'https://a.example/3', title: 'T', published_date: null, content: null, language: null, html: null },
    ];
    const items = parseProviderResults(lines.map((fields) => JSON.stringify(fields)).join('\n'), 'inline');
    expect(items.map((item) => item.result)).toEqual(lines.map((fields) => providerResultSchema.parse(fields)));
  });

  it.each([
    ['a title of the wrong type', { url: 'https://a.example/1', title: 7 }, 'title must be a string, not a number (7)'],
    ['a null snippet', { url: 'https://a.example/1', snippet: null }, 'snippet must be a string, not null'],
    ['html of the wrong type', { url: 'https://a.example/1', html: 3 }, 'html must be a string or null, not a number (3)'],
    ['no url', { title: 'T' }, 'url is missing'],
    ['an array', ['https://a.example/1'], 'a line must be a JSON object, not an array'],
    ['a long object as the content', { url: 'https://a.example/1', content: { text: 'x'.repeat(500) } }, `content must be a string or null, not an object ({"text":"${'x'.repeat(31)}…)`],
  ])('refuses %s, naming the field and what it must be', (_name, fields, problem) => {
    expect(() => parseProviderResults(JSON.stringify(fields), 'inline')).toThrow(`inline line 1 is not a provider result: ${problem}`);
  });

  it('accepts exactly what the provider-result schema accepts, field by field and value by value', () => {
    const fieldNames = ['url', 'title', 'snippet', 'published_date', 'source', 'content', 'language', 'html'];
    const values: unknown[] = [undefined, 'text', '', null, 7, true, ['a'], { a: 1 }];
    let refused = 0;
    for (const name of fieldNames) {
      for (const value of values) {
        const fields: Record<string, unknown> = { url: 'https://a.example/1', [name]: value };
        const schema = providerResultSchema.safeParse(fields);
        const read = readProviderResult(fields);
        expect({ name, value, accepted: read.result !== null }).toEqual({ name, value, accepted: schema.success });
        if (schema.success) expect(read.result).toEqual(schema.data);
        else {
          refused++;
          expect(read.problems!.join('; ')).toContain(name);
        }
      }
    }
    expect(refused).toBeGreaterThan(20);
    for (const notAnObject of [null, 3, 'x', [1]]) expect(readProviderResult(notAnObject).result).toBeNull();
  });
});

describe('skrya rank on a generated file with known duplicates', () => {
  it('leaves exactly the true documents: every URL variant merged, no two documents merged', async () => {
    const input = generateRankInput({ lines: 3_000, duplicateShare: 0.3, seed: 7 });
    const ranked = parseLines(await rankProviderResults(input.text, 'generated.jsonl', { ...options, queries: ['kafka release'] }));
    expect(input.trueDocuments).toBeLessThan(input.lines * 0.8);
    expect(ranked).toHaveLength(input.trueDocuments);
    expect(ranked.reduce((sum, entry) => sum + 1 + (entry.merged as unknown[]).length, 0)).toBe(input.lines);
  });

  it('ranks as the pipeline\'s rankItems ranks the same results: every member of every line, however it crossed from the reading threads', async () => {
    // Most canonical URLs are the URL itself, and providers, rules and bases repeat: the texts a batch sends once and the ranking shares.
    const input = generateRankInput({ lines: 3_000, duplicateShare: 0.3, seed: 9 });
    const rankOptions = { ...options, queries: ['kafka release'] };
    const printed = parseLines((await rankAndValidate(input.text, 'generated.jsonl', rankOptions)).output);
    const expected = rankItems(parseProviderResults(input.text, 'generated.jsonl'), { intent: rankOptions.intent, subQueries: rankOptions.queries, windowEnd: WINDOW_END, boostDomains: [] });
    expect(printed).toHaveLength(expected.length);
    printed.forEach((entry, index) => {
      const { item, rank, score, components, canonicalUrl, sources, merged } = expected[index]!;
      expect(entry).toEqual({
        rank, id: item.id, score, components, url: item.url, canonical_url: canonicalUrl, title: item.title, snippet: item.snippet, published_date: item.published_at, source: item.provider,
        sources: sources.map(({ provider, url }) => ({ provider, url })), merged,
      });
    });
    expect(printed.filter((entry) => entry.url === entry.canonical_url).length).toBeGreaterThan(printed.length / 2);
  });

  it('writes the same bytes to a writer that makes it wait (a full pipe) as to one that does not, over several output buffers', async () => {
    // Enough output for a buffer to be filled again: the waiting writer reads each chunk only when it resolves.
    const input = generateRankInput({ lines: 6_000, duplicateShare: 0.3, seed: 7 });
    const rankOptions = { ...options, queries: ['kafka release'] };
    const atOnce: Buffer[] = [];
    await rankLines(textInput(input.text, 'generated.jsonl'), rankOptions, (chunk) => {
      atOnce.push(Buffer.from(chunk));
    });
    const later: Buffer[] = [];
    await rankLines(textInput(input.text, 'generated.jsonl'), rankOptions, async (chunk) => {
      await new Promise(setImmediate);
      later.push(Buffer.from(chunk));
    });
    expect(atOnce.length).toBeGreaterThan(2);
    expect(parseLines(Buffer.concat(later).toString())).toHaveLength(input.trueDocuments);
    expect(Buffer.concat(later).equals(Buffer.concat(atOnce))).toBe(true);
  });
});

describe('skrya rank reads a file, stdin or a stream alike', () => {
  // Dropped lines, a blank line, a non-ASCII title and copies to merge: everything the output reads back from the input.
  const input = generateRankInput({ lines: 400, duplicateShare: 0.3, seed: 11 });
  const text = [
    input.text.trimEnd(),
    '',
    line({ url: 'https://example.org/empty', title: '', snippet: '', published_date: null, source: 'web' }),
    line({ url: 'https://例え.jp/記事', title: 'Kafka 4.1 リリース', snippet: 'Kafka 4.1 がリリースされました', published_date: '2025-09-04', source: 'exa' }),
    '',
  ].join('\n');
  const rankOptions = { ...options, queries: ['kafka release'], keepDropped: true };

  async function rankInput(source: JsonlInput): Promise<{ output: string; droppedLines: number[] }> {
    let output = '';
    const { dropped } = await rankLines(source, rankOptions, (chunk) => {
      output += chunk.toString();
    });
    await source.close();
    return { output, droppedLines: dropped.map((entry) => entry.line) };
  }

  it('ranks a file read back from disk, a stream cut at every few bytes and a text to the same bytes', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'skrya-rank-')), 'results.jsonl');
    await writeFile(file, text);
    const bytes = Buffer.from(text);
    // Chunks of 7 bytes cut lines and multi-byte characters anywhere, as a pipe may.
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_chunk, index) => bytes.subarray(index * 7, index * 7 + 7));
    const fromText = await rankInput(textInput(text, 'results.jsonl'));
    expect(fromText.output.split('\n').length).toBeGreaterThan(250);
    expect(fromText.droppedLines).toEqual([402]);
    expect(await rankInput(await openJsonlInput(file))).toEqual(fromText);
    expect(await rankInput(streamInput(Readable.from(chunks), 'piped'))).toEqual(fromText);
  });

  const runCli = (jsonl: string, stdin: string) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) => {
      const args = ['rank', '--intent', 'status', '--query', 'kafka release', '--window-end', WINDOW_END, '--jsonl', jsonl];
      const child = execFile(process.execPath, [path.resolve('bin/skrya.js'), ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => (error === null ? resolve({ stdout, stderr }) : reject(Object.assign(error, { stderr }))));
      child.stdin?.end(stdin);
    });

  it('reads stdin for --jsonl -, printing and reporting what it prints and reports for the file', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'skrya-rank-')), 'results.jsonl');
    await writeFile(file, text);
    const fromFile = await runCli(file, '');
    const fromStdin = await runCli('-', text);
    // The process ends as soon as its output is flushed (exitsWhenDone): every byte of it, through a pipe far smaller than it, still arrives.
    const ranked = await rankAndValidate(text, file, { ...options, queries: ['kafka release'] });
    expect(Buffer.byteLength(ranked.output)).toBeGreaterThan(4 * 65_536);
    expect(fromFile.stdout).toBe(ranked.output);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
    expect(fromFile.stderr).toContain(`${file} line 402: dropped`);
    expect(fromStdin.stderr).toBe(fromFile.stderr.replaceAll(file, 'stdin'));
  }, 60_000);

  it('ends quietly, with the status of a closed pipe, when its reader stops reading (skrya rank … | head)', async () => {
    const args = ['rank', '--intent', 'status', '--query', 'kafka release', '--window-end', WINDOW_END, '--jsonl', '-'];
    const child = spawn(process.execPath, [path.resolve('bin/skrya.js'), ...args], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // The output is far larger than a pipe holds: the command is still writing when its reader goes.
    child.stdout.once('data', () => child.stdout.destroy());
    child.stdin.end(text);
    const [code] = (await once(child, 'close')) as [number | null];
    expect({ code, stderr: stderr.replace(/^.*line 402: dropped.*\n/m, '') }).toEqual({ code: 141, stderr: '' });
  }, 60_000);

  it('exits with code 2 and says which line to fix when a line is not a provider result', async () => {
    const failure = await runCli('-', `${text}\n${line({ url: 5 })}\n`).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 2, stderr: expect.stringContaining('stdin line 405 is not a provider result: url must be a string') });
  }, 60_000);

  it('refuses a line of a file that is not a provider result with INVALID_INPUT naming the file and line', async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), 'skrya-rank-')), 'results.jsonl');
    await writeFile(file, `${RESULTS}\n${line({ url: 5 })}\n`);
    const source = await openJsonlInput(file);
    const failure = await rankLines(source, options, () => {}).catch((error: unknown) => error);
    await source.close();
    expect(failure).toMatchObject({ code: 'INVALID_INPUT', details: { line: 5 } });
    expect(String(failure)).toContain(`${file} line 5 is not a provider result`);
  });
});
