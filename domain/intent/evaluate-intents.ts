import { z } from 'zod';
import { SkryaError } from '../../runtime/errors.ts';
import { INTENTS, intentSchema, type Intent } from '../../schemas/ingest.ts';
import { detectSignals } from './detect-signals.ts';
import { decideIntent, intentModel, predictIntent } from './learned-intent.ts';
import { pickIntent } from './pick-intent.ts';

export const intentCorpusRowSchema = z.object({
  id: z.string().min(1),
  query: z.string().min(1),
  lang: z.string().optional(),
  intent: intentSchema,
  note: z.string().optional(),
});
export type IntentCorpusRow = z.infer<typeof intentCorpusRowSchema>;

/** A labelled corpus in JSON Lines ({id, query, lang, intent, note?} a line); a bad line is INVALID_INPUT naming its line. */
export function parseIntentCorpus(jsonl: string): IntentCorpusRow[] {
  const rows: IntentCorpusRow[] = [];
  for (const [index, line] of jsonl.split('\n').entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new SkryaError('INVALID_INPUT', `intent corpus line ${index + 1} is not JSON`, { cause: error, details: { line: index + 1 } });
    }
    const parsed = intentCorpusRowSchema.safeParse(value);
    if (!parsed.success) throw new SkryaError('INVALID_INPUT', `intent corpus line ${index + 1}: ${parsed.error.message}`, { details: { line: index + 1 } });
    rows.push(parsed.data);
  }
  return rows;
}

export interface IntentScore {
  /** Rows labelled with this intent. */
  support: number;
  /** Rows classified as this intent. */
  predicted: number;
  correct: number;
  /** correct / predicted; 0 when nothing was classified as this intent. */
  precision: number;
  /** correct / support; 0 when no row carries this label. */
  recall: number;
}

export interface Misclassification {
  id: string;
  query: string;
  expected: Intent;
  predicted: Intent;
}

export interface IntentEvaluation {
  total: number;
  correct: number;
  /** correct / total; 0 for an empty corpus. */
  accuracy: number;
  perIntent: Record<Intent, IntentScore>;
  confusions: Misclassification[];
}

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : part / whole);

/** The rules' intent only (the classifier before the learned model). */
export const classifyIntentByRules = (query: string): Intent => pickIntent(detectSignals(query));

/** The classifier's intent only (rules where they fire, the learned model elsewhere): expansion plays no part in accuracy. */
export const classifyIntentOnly = (query: string): Intent => {
  const signals = detectSignals(query);
  return decideIntent(pickIntent(signals), signals, predictIntent(intentModel(detectSignals), query, signals, false));
};

/** Accuracy, per-intent precision and recall, and every misclassified row, for labelled queries. */
export function evaluateIntents(rows: readonly Pick<IntentCorpusRow, 'id' | 'query' | 'intent'>[], classify: (query: string) => Intent = classifyIntentOnly): IntentEvaluation {
  const counts = new Map<Intent, { support: number; predicted: number; correct: number }>(INTENTS.map((intent) => [intent, { support: 0, predicted: 0, correct: 0 }]));
  const confusions: Misclassification[] = [];
  for (const row of rows) {
    const predicted = classify(row.query);
    const expectedCounts = counts.get(row.intent);
    const predictedCounts = counts.get(predicted);
    if (expectedCounts === undefined || predictedCounts === undefined) continue;
    expectedCounts.support += 1;
    predictedCounts.predicted += 1;
    if (predicted === row.intent) expectedCounts.correct += 1;
    else confusions.push({ id: row.id, query: row.query, expected: row.intent, predicted });
  }
  const perIntent = Object.fromEntries(INTENTS.map((intent) => {
    const { support, predicted, correct } = counts.get(intent) ?? { support: 0, predicted: 0, correct: 0 };
    return [intent, { support, predicted, correct, precision: ratio(correct, predicted), recall: ratio(correct, support) }];
  })) as Record<Intent, IntentScore>;
  const correct = rows.length - confusions.length;
  return { total: rows.length, correct, accuracy: ratio(correct, rows.length), perIntent, confusions };
}
