import type { Command } from 'commander';
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { jsonLines } from '../json-lines.ts';
import { readJsonlText } from '../jsonl-input.ts';
import { screenInputSchema, screenItem, type ScreenInput, type ScreenResult } from '../../domain/screening/screen-item.ts';

/**
 * `skrya screen`: the scorer's prompt-injection screening, offline. Reads items
 * ({id, title, content, summary, url, html}, one JSON object a line) and writes one verdict a line
 * ({id, verdict, score, evidence}). Every line is checked before anything is screened, so a bad
 * line fails the whole run with its line number and nothing is half-written.
 */

/** Parses JSONL; any bad line is INVALID_INPUT naming the line and what is wrong with it. */
export function parseScreenInputs(text: string, sourceLabel: string): ScreenInput[] {
  const inputs: ScreenInput[] = [];
  for (const { json, where, line } of jsonLines(text, sourceLabel, `one object like {"id": …, "title": …, "content": …, "url": …}`)) {
    const parsed = screenInputSchema.safeParse(json);
    if (!parsed.success) {
      throw new SkryaError('INVALID_INPUT', `${where} is not an item to screen: ${z.prettifyError(parsed.error).replaceAll('\n', ' ')}`, { details: { line } });
    }
    inputs.push(parsed.data);
  }
  return inputs;
}

export function verdictLine(id: string, result: ScreenResult): string {
  // The same four fields as before; `ruleScore` and `model` (probability, risk, passage, features) are added after them.
  return JSON.stringify({ id, verdict: result.verdict, score: result.score, evidence: result.evidence, ruleScore: result.ruleScore, model: result.model });
}

/** All verdicts as JSONL, built in full before the caller writes any of it. */
export function screenJsonLines(text: string, sourceLabel: string, screen: (input: ScreenInput) => ScreenResult = screenItem): string {
  return parseScreenInputs(text, sourceLabel)
    .map((input) => `${verdictLine(input.id, screen(input))}\n`)
    .join('');
}

export function registerScreenCommand(program: Command): void {
  program
    .command('screen')
    .option('--jsonl <file>', 'items, one JSON object a line: {id, title, content, summary, url, html}; "-" or omitted reads standard input')
    .action(async (raw: { jsonl?: string }) => {
      const { text, label } = await readJsonlText(raw.jsonl ?? '-');
      process.stdout.write(screenJsonLines(text, label));
    });
}
