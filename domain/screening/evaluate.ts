/**
 * Measures the screener against a labelled corpus (one JSON object a line: id, lang, title,
 * content, url, label benign|injection, kind, difficulty easy|hard).
 *
 * Predicted positive = verdict `quarantine` or `drop`: those are the verdicts that keep the text
 * away from downstream models. `downweight` counts as negative (the item still flows, only ranked
 * lower), so a downweighted injection is a miss and a downweighted benign page is no false alarm.
 */
import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { snippetOf } from '../text/clean-text.ts';
import { escapeMarkupText, htmlToText } from '../text/html.ts';
import { screenItem, type ScreenInput, type ScreenResult } from './screen-item.ts';

export const labelledItemSchema = z.object({
  id: z.string().min(1),
  lang: z.string(),
  title: z.string(),
  content: z.string(),
  url: z.string().nullish(),
  label: z.enum(['benign', 'injection']),
  kind: z.string(),
  difficulty: z.enum(['easy', 'hard']),
});
export type LabelledItem = z.infer<typeof labelledItemSchema>;

export const PREDICTED_POSITIVE: ReadonlySet<ScreenResult['verdict']> = new Set(['quarantine', 'drop']);

/**
 * How a labelled item reaches the scorer: `as-written` screens its title and content as the corpus
 * holds them; `feed` lays it out as the feed reader hands an entry on, its content read as the
 * entry's markup: the visible text as content, a snippet of it as summary, the markup as html;
 * `feed-paragraphs` sends the text as a feed entry's HTML paragraphs, laid out as `feed`.
 */
export const SCREEN_LAYOUTS = {
  'as-written': (input: ScreenInput): ScreenInput => input,
  feed: (input: ScreenInput): ScreenInput => {
    const markup = input.content ?? '';
    const visible = htmlToText(markup).text;
    return { ...input, content: visible, summary: snippetOf(visible), html: markup.includes('<') ? markup : null };
  },
  'feed-paragraphs': (input: ScreenInput): ScreenInput => SCREEN_LAYOUTS.feed({ ...input, content: asParagraphs(input.content ?? '') }),
} as const;
export type ScreenLayout = keyof typeof SCREEN_LAYOUTS;

/** Text as a feed entry's HTML would carry it: each line a paragraph, the characters markup reserves escaped. */
function asParagraphs(text: string): string {
  return text.split('\n').map((line) => `<p>${escapeMarkupText(line)}</p>`).join('\n');
}

export interface InjectionEvaluation {
  items: number;
  positives: number;
  negatives: number;
  hardNegatives: number;
  truePositives: number;
  falsePositives: number;
  falseNegatives: number;
  hardNegativeFalsePositives: number;
  precision: number;
  recall: number;
  falsePositiveRate: number;
  hardNegativeFalsePositiveRate: number;
  /** Injection kinds with the ids the screener let through. */
  missesByKind: Record<string, string[]>;
  /** Benign kinds with the ids the screener flagged. */
  falsePositivesByKind: Record<string, string[]>;
}

export function evaluateInjection(items: readonly LabelledItem[], screen: (input: ScreenInput) => ScreenResult = screenItem): InjectionEvaluation {
  let truePositives = 0;
  let falsePositives = 0;
  let falseNegatives = 0;
  let hardNegativeFalsePositives = 0;
  const missesByKind: Record<string, string[]> = {};
  const falsePositivesByKind: Record<string, string[]> = {};
  for (const item of items) {
    const flagged = PREDICTED_POSITIVE.has(screen({ id: item.id, title: item.title, content: item.content, url: item.url ?? null }).verdict);
    if (item.label === 'injection') {
      if (flagged) truePositives++;
      else {
        falseNegatives++;
        (missesByKind[item.kind] ??= []).push(item.id);
      }
    } else if (flagged) {
      falsePositives++;
      if (item.difficulty === 'hard') hardNegativeFalsePositives++;
      (falsePositivesByKind[item.kind] ??= []).push(item.id);
    }
  }
  const positives = items.filter((item) => item.label === 'injection').length;
  const negatives = items.length - positives;
  const hardNegatives = items.filter((item) => item.label === 'benign' && item.difficulty === 'hard').length;
  return {
    items: items.length,
    positives,
    negatives,
    hardNegatives,
    truePositives,
    falsePositives,
    falseNegatives,
    hardNegativeFalsePositives,
    precision: ratio(truePositives, truePositives + falsePositives),
    recall: ratio(truePositives, positives),
    falsePositiveRate: ratio(falsePositives, negatives),
    hardNegativeFalsePositiveRate: ratio(hardNegativeFalsePositives, hardNegatives),
    missesByKind,
    falsePositivesByKind,
  };
}

/** Rounded to four places; an empty denominator gives 0 rather than NaN. */
function ratio(part: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
}

/** Parses a labelled JSONL corpus; a bad line is an INVALID_INPUT error naming its line number. */
export function parseLabelledCorpus(text: string): LabelledItem[] {
  const items: LabelledItem[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new SkryaError('INVALID_INPUT', `corpus line ${index + 1} is not valid JSON`, { cause: error, details: { line: index + 1 } });
    }
    const parsed = labelledItemSchema.safeParse(value);
    if (!parsed.success) {
      throw new SkryaError('INVALID_INPUT', `corpus line ${index + 1} is not a labelled item: ${parsed.error.issues.map((issue) => `${issue.path.join('.')} ${issue.message}`).join('; ')}`, {
        details: { line: index + 1 },
      });
    }
    items.push(parsed.data);
  });
  return items;
}

/** Items whose numeric id suffix is even or odd: the development and held-out halves. */
export function idParity(items: readonly LabelledItem[], parity: 'even' | 'odd'): LabelledItem[] {
  return items.filter((item) => {
    const digits = /(\d+)$/.exec(item.id)?.[1];
    return digits !== undefined && Number(digits) % 2 === (parity === 'even' ? 0 : 1);
  });
}
