/**
 * Intent quality per language with 95 % Wilson intervals: accuracy, recall of every intent, and the
 * confusion table (expected × predicted).
 */
import { INTENTS, type Intent } from '../../schemas/ingest.ts';
import { wilson, type Proportion } from '../learned/wilson.ts';

export interface IntentLanguageQuality {
  lang: string;
  queries: number;
  accuracy: Proportion;
  recall: Record<Intent, Proportion>;
  /** expected → predicted → count. */
  confusion: Record<Intent, Record<Intent, number>>;
}

export function intentQuality(rows: ReadonlyArray<{ query: string; intent: Intent; lang?: string | undefined }>, classify: (query: string) => Intent): IntentLanguageQuality[] {
  const predicted = rows.map((row) => ({ row, predicted: classify(row.query) }));
  const languages = ['all', ...[...new Set(rows.map((row) => row.lang ?? 'unknown'))].sort()];
  return languages.map((lang) => {
    const subset = predicted.filter((entry) => lang === 'all' || (entry.row.lang ?? 'unknown') === lang);
    const confusion = Object.fromEntries(INTENTS.map((expected) => [expected, Object.fromEntries(INTENTS.map((intent) => [intent, 0]))])) as Record<Intent, Record<Intent, number>>;
    for (const entry of subset) confusion[entry.row.intent][entry.predicted]++;
    const recall = Object.fromEntries(
      INTENTS.map((intent) => {
        const support = subset.filter((entry) => entry.row.intent === intent);
        return [intent, wilson(support.filter((entry) => entry.predicted === intent).length, support.length)];
      }),
    ) as Record<Intent, Proportion>;
    return { lang, queries: subset.length, accuracy: wilson(subset.filter((entry) => entry.predicted === entry.row.intent).length, subset.length), recall, confusion };
  });
}
