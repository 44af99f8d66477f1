/**
 * `skrya classify --jsonl`, in a module of its own: classify.ts loads it only for --jsonl, so a
 * single query's run does not load zod (most of its start-up), and many queries pay for it once.
 */
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { jsonLines } from '../json-lines.ts';
import { readJsonlText } from '../jsonl-input.ts';
import { classifyQuery } from '../../domain/intent/classify-query.ts';

const jsonlQuerySchema = z.union([z.string(), z.looseObject({ id: z.union([z.string(), z.number()]).optional(), query: z.string() })]);

/**
 * `--jsonl`: one query a line (a JSON string, or an object with `query` and optional `id`; other
 * fields are ignored), one JSON result a line out, in input order. Every line is checked before any
 * is classified, so a bad line fails the run with its line number and nothing is half-written.
 */
export function classifyJsonLines(text: string, sourceLabel: string, now: Date = new Date()): string {
  const queries: Array<{ id?: string | number | undefined; query: string }> = [];
  for (const { json, where, line } of jsonLines(text, sourceLabel, `"a query" or {"id": …, "query": "…"}`)) {
    const parsed = jsonlQuerySchema.safeParse(json);
    const query = parsed.success ? (typeof parsed.data === 'string' ? parsed.data : parsed.data.query) : '';
    if (!parsed.success || query.trim() === '') throw new SkryaError('INVALID_INPUT', `${where} has no query: each line must be "a query" or {"id": …, "query": "…"}`, { details: { line } });
    queries.push({ id: typeof parsed.data === 'string' ? undefined : parsed.data.id, query });
  }
  return queries.map(({ id, query }) => `${JSON.stringify({ ...(id === undefined ? {} : { id }), query, ...classifyQuery(query, { now }) })}\n`).join('');
}

/** The results for the queries of a file, or of standard input when `source` is "-". */
export async function classifyJsonlSource(source: string): Promise<string> {
  const { text, label } = await readJsonlText(source);
  return classifyJsonLines(text, label);
}
