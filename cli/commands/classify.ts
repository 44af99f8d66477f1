import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
import { classifyQuery, type QueryClassification } from '../../services/retriever/intent/classify-query.ts';

/** The human-readable report: intent, search settings, the evidence, then the sub-queries. */
export function formatClassification(query: string, result: QueryClassification): string {
  const lines = [
    `intent      ${result.intent}`,
    `mode        ${result.mode}`,
    `freshness   ${result.freshness ?? '-'}`,
    `signals     ${result.signals.length === 0 ? '(none: exploratory is the default)' : ''}`,
    ...result.signals.map((signal) => `  ${signal.intent.padEnd(11)} ${signal.signal.padEnd(38)} "${query.slice(signal.span[0], signal.span[1])}" [${signal.span[0]}, ${signal.span[1]})`),
    'sub-queries',
    ...result.subQueries.map((subQuery, index) => `  ${index + 1}. ${subQuery}`),
  ];
  return `${lines.join('\n')}\n`;
}

export function registerClassifyCommand(program: Command): void {
  program
    .command('classify')
    .description('show the intent of a search query (spec 001), the signals behind it, its mode and freshness, and the sub-queries it expands to')
    .argument('[query...]', 'the query; quote it, or give its words')
    .option('--json', 'print one JSON object instead of the readable report')
    .action((words: string[], options: { json?: boolean }) => {
      const query = words.join(' ');
      if (query.trim() === '') throw new SkryaError('INVALID_INPUT', 'no query given: run `skrya classify "<query>"`, e.g. skrya classify "what is k8s"');
      const result = classifyQuery(query);
      process.stdout.write(options.json === true ? `${JSON.stringify({ query, ...result })}\n` : formatClassification(query, result));
    });
}
