import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
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

export function registerClassifyCommand(program: Command): void {
  program
    .command('classify')
    .argument('[query...]', 'the query; quote it, or give its words')
    .option('--json', 'print one JSON object instead of the readable report')
    .option('--jsonl <file>', 'classify many queries in one process: one query a line ("text" or {"id", "query"}), "-" reads standard input; one JSON result a line out')
    .action(async (words: string[], options: { json?: boolean; jsonl?: string }) => {
      if (options.jsonl !== undefined) {
        process.stdout.write(await (await import('./classify-jsonl.ts')).classifyJsonlSource(options.jsonl));
        return;
      }
      const query = words.join(' ');
      if (query.trim() === '') throw new SkryaError('INVALID_INPUT', 'no query given: run `skrya classify "<query>"`, e.g. skrya classify "what is k8s"');
      const result = classifyQuery(query);
      process.stdout.write(options.json === true ? `${JSON.stringify({ query, ...result })}\n` : formatClassification(query, result));
    });
}
