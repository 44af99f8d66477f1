/**
 * The judged relevance set (docs/relevance-rubric.md): pools of provider-style results with
 * graded labels, split by query into dev and test. Parsing is strict, so a typo in a pool file
 * fails loudly instead of silently changing a figure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { SkryaError } from '../../../runtime/errors.ts';
import { INTENTS, isoDateTime, type Intent } from '../../../schemas/ingest.ts';
import { canonicalUrl } from '../../../domain/urls/canonical-url.ts';

export const PROVIDERS: Readonly<Record<string, string>> = {
  brave: 'brave_web_search',
  bnews: 'brave_news_search',
  exa: 'exa_search',
  tavily: 'tavily_search',
};

export type Split = 'dev' | 'test';
export type Language = 'en' | 'zh';

export interface JudgedResult {
  /** Row number in the pool (0-based), stable for ids. */
  row: number;
  provider: string;
  /** 1-based rank inside the provider's list for this sub-query. */
  providerRank: number;
  /** Index into the pool's sub-queries (0-based). */
  subQuery: number;
  url: string;
  title: string;
  snippet: string;
  publishedDate: string | null;
  grade: number;
  /** The document this row is a copy of: the row's group, else its canonical URL. */
  doc: string;
  /** The group written in the file (copies at other URLs), null when none. */
  group: string | null;
}

export interface JudgedPool {
  id: string;
  intent: Intent;
  language: Language;
  split: Split;
  windowEnd: string;
  query: string;
  subQueries: string[];
  results: JudgedResult[];
  /** Grade of each document, by `doc`. */
  grades: ReadonlyMap<string, number>;
}

const header = z.tuple([z.string().min(1), z.enum(INTENTS), z.enum(['en', 'zh']), z.enum(['dev', 'test']), isoDateTime]);
const MIN_ROWS = 25;

function fail(where: string, message: string): never {
  throw new SkryaError('INVALID_INPUT', `${where}: ${message}`);
}

export function parseJudgedPools(text: string, fileLabel: string): JudgedPool[] {
  const pools: JudgedPool[] = [];
  let current: (Omit<JudgedPool, 'grades'> & { byUrl: Map<string, JudgedResult> }) | null = null;
  const finish = () => {
    if (current === null) return;
    const pool = current;
    const where = `${fileLabel} pool ${pool.id}`;
    if (pool.results.length < MIN_ROWS) fail(where, `${pool.results.length} rows, at least ${MIN_ROWS} expected`);
    if (pool.subQueries.length === 0) fail(where, 'no @sub lines');
    const grades = new Map<string, number>();
    const lists = new Set<string>();
    for (const result of pool.results) {
      const known = grades.get(result.doc);
      if (known !== undefined && known !== result.grade) fail(where, `document ${result.doc} graded both ${known} and ${result.grade}`);
      grades.set(result.doc, result.grade);
      const list = `${result.provider}/${result.subQuery}/${result.providerRank}`;
      if (lists.has(list)) fail(where, `rank ${result.providerRank} appears twice in ${result.provider} sub-query ${result.subQuery + 1}`);
      lists.add(list);
      if (result.subQuery >= pool.subQueries.length) fail(where, `row ${result.row + 1} names sub-query ${result.subQuery + 1}, which is not declared`);
    }
    const { byUrl: _byUrl, ...rest } = pool;
    pools.push({ ...rest, grades });
    current = null;
  };
  text.split('\n').forEach((rawLine, index) => {
    const line = rawLine.trim();
    const where = `${fileLabel} line ${index + 1}`;
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('@pool ')) {
      finish();
      const parsed = header.safeParse(line.slice(6).split('|').map((part) => part.trim()));
      if (!parsed.success) fail(where, `bad @pool header: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`);
      const [id, intent, language, split, windowEnd] = parsed.data;
      current = { id, intent, language, split, windowEnd, query: '', subQueries: [], results: [], byUrl: new Map() };
      return;
    }
    if (current === null) fail(where, 'row before any @pool');
    const pool = current;
    if (line.startsWith('@query ')) {
      pool.query = line.slice(7).trim();
      return;
    }
    if (line.startsWith('@sub ')) {
      const match = /^@sub (\d+) (.+)$/u.exec(line);
      if (match === null || Number(match[1]) !== pool.subQueries.length + 1) fail(where, '@sub lines must be numbered 1, 2, 3 … in order');
      pool.subQueries.push(match[2]!.trim());
      return;
    }
    const fields = line.split('|');
    const provider = PROVIDERS[fields[1] ?? ''];
    if (provider === undefined) fail(where, `unknown provider ${JSON.stringify(fields[1])}`);
    const providerRank = Number(fields[2]);
    const subQuery = Number(fields[3]) - 1;
    if (!Number.isInteger(providerRank) || providerRank < 1) fail(where, 'rank must be a positive integer');
    if (!Number.isInteger(subQuery) || subQuery < 0) fail(where, 'sub-query must be a positive integer');
    const row = pool.results.length;
    if (fields[0] === '+') {
      if (fields.length !== 5) fail(where, `a + row has 5 fields, found ${fields.length}`);
      const original = pool.byUrl.get(fields[4]!);
      if (original === undefined) fail(where, `+ row for a URL no earlier row has: ${fields[4]}`);
      pool.results.push({ ...original, row, provider, providerRank, subQuery });
      return;
    }
    if (fields.length !== 9) fail(where, `a row has 9 fields, found ${fields.length}`);
    const grade = Number(fields[0]);
    if (![0, 1, 2, 3].includes(grade)) fail(where, `grade must be 0–3, found ${fields[0]}`);
    const [, , , , date, url, title, snippet, group] = fields as [string, string, string, string, string, string, string, string, string];
    if (date !== '-' && !/^\d{4}-\d{2}-\d{2}$/u.test(date)) fail(where, `date must be YYYY-MM-DD or -, found ${date}`);
    if (pool.byUrl.has(url)) fail(where, `URL repeated as a full row (use a + row): ${url}`);
    const result: JudgedResult = {
      row,
      provider,
      providerRank,
      subQuery,
      url,
      title,
      snippet,
      publishedDate: date === '-' ? null : date,
      grade,
      doc: group === '' ? (canonicalUrl(url) ?? url) : `group:${group}`,
      group: group === '' ? null : group,
    };
    pool.byUrl.set(url, result);
    pool.results.push(result);
  });
  finish();
  return pools;
}

/** Every pool in a folder of pool files, in file then pool order; pool ids must be unique. */
export function loadJudgedSet(folder: string): JudgedPool[] {
  const pools = readdirSync(folder).filter((name) => name.endsWith('.txt')).sort().flatMap((name) => parseJudgedPools(readFileSync(join(folder, name), 'utf8'), name));
  const seen = new Set<string>();
  for (const pool of pools) {
    if (seen.has(pool.id)) throw new SkryaError('INVALID_INPUT', `pool id ${pool.id} is used twice`);
    seen.add(pool.id);
  }
  return pools;
}

export const JUDGED_SET_DIR = new URL('../../../test/fixtures/relevance/', import.meta.url);
