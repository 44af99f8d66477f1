import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
import { jsonLines } from '../json-lines.ts';
import { classifyQuery, type QueryClassification } from '../../domain/intent/classify-query.ts';

/** The human-readable report: intent, search settings, the evidence, then the sub-queries. */
export function formatClassification(query: string, result: QueryClassification): string {
  const lines = [
    `intent      ${result.intent}`,
    `mode        ${result.mode}`,
    `freshness   ${result.freshness ?? '-'}`,
    ...(result.model === null
      ? []
      : [`model       ${result.model.probabilities[result.intent].toFixed(2)} for ${result.intent}; rules alone: ${result.ruleIntent}; features ${result.model.features.map((entry) => `${entry.feature} (+${entry.weight})`).join(', ') || '-'}`]),
    `signals     ${result.signals.length === 0 ? '(none: exploratory is the default)' : ''}`,
    ...result.signals.map((signal) => `  ${signal.intent.padEnd(11)} ${signal.signal.padEnd(38)} "${query.slice(signal.span[0], signal.span[1])}" [${signal.span[0]}, ${signal.span[1]})`),
    'sub-queries',
    ...result.subQueries.map((subQuery, index) => `  ${index + 1}. ${subQuery}`),
  ];
  return `${lines.join('\n')}\n`;
}

/** A line's query and id: a JSON string, or an object with a string `query` and an optional string or number `id`; null for anything else. (Checked by hand: zod would be most of classify's start-up.) */
function jsonlQuery(json: unknown): { id?: string | number | undefined; query: string } | null {
  if (typeof json === 'string') return { query: json };
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return null;
  const { id, query } = json as Record<string, unknown>;
  if (typeof query !== 'string' || !(id === undefined || typeof id === 'string' || typeof id === 'number')) return null;
  return { id, query };
}

/**
 * `--jsonl`: one query a line (a JSON string, or an object with `query` and optional `id`; other
 * fields are ignored), one JSON result a line out, in input order. Every line is checked before any
 * is classified, so a bad line fails the run with its line number and nothing is half-written.
 */
export function classifyJsonLines(text: string, sourceLabel: string, now: Date = new Date()): string {
  const queries: Array<{ id?: string | number | undefined; query: string }> = [];
  for (const { json, where, line } of jsonLines(text, sourceLabel, `"a query" or {"id": …, "query": "…"}`)) {
    const parsed = jsonlQuery(json);
    if (parsed === null || parsed.query.trim() === '') throw new SkryaError('INVALID_INPUT', `${where} has no query: each line must be "a query" or {"id": …, "query": "…"}`, { details: { line } });
    queries.push(parsed);
  }
  return queries.map(({ id, query }) => `${JSON.stringify({ ...(id === undefined ? {} : { id }), query, ...classifyQuery(query, { now }) })}\n`).join('');
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export function registerClassifyCommand(program: Command): void {
  program
    .command('classify')
    .argument('[query...]', 'the query; quote it, or give its words')
    .option('--json', 'print one JSON object instead of the readable report')
    .option('--jsonl <file>', 'classify many queries in one process: one query a line ("text" or {"id", "query"}), "-" reads standard input; one JSON result a line out')
    .action(async (words: string[], options: { json?: boolean; jsonl?: string }) => {
      if (options.jsonl !== undefined) {
        const fromStdin = options.jsonl === '-';
        let text: string;
        try {
          text = fromStdin ? await readAll(process.stdin) : await readFile(options.jsonl, 'utf8');
        } catch (error) {
          throw new SkryaError('INVALID_INPUT', `cannot read --jsonl ${options.jsonl}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
        }
        process.stdout.write(classifyJsonLines(text, fromStdin ? 'stdin' : options.jsonl));
        return;
      }
      const query = words.join(' ');
      if (query.trim() === '') throw new SkryaError('INVALID_INPUT', 'no query given: run `skrya classify "<query>"`, e.g. skrya classify "what is k8s"');
      const result = classifyQuery(query);
      process.stdout.write(options.json === true ? `${JSON.stringify({ query, ...result })}\n` : formatClassification(query, result));
    });
}
