/**
 * Screening quality per language with 95 % Wilson intervals: recall on injections, false-positive
 * rate on all benign items and on the hard negatives, and the confusion table (label × verdict).
 * Predicted positive = quarantine or drop, as in evaluate.ts.
 */
import { wilson, type Proportion } from '../learned/wilson.ts';
import { PREDICTED_POSITIVE, type LabelledItem } from './evaluate.ts';
import type { ScreenInput, ScreenResult } from './screen-item.ts';

export interface LanguageQuality {
  lang: string;
  items: number;
  recall: Proportion;
  falsePositiveRate: Proportion;
  hardFalsePositiveRate: Proportion;
  /** label → verdict → count. */
  confusion: Record<'injection' | 'benign', Record<ScreenResult['verdict'], number>>;
  missedKinds: Record<string, number>;
  falseAlarmKinds: Record<string, number>;
}

export function screeningQuality(items: readonly LabelledItem[], screen: (input: ScreenInput) => ScreenResult): LanguageQuality[] {
  const verdicts = items.map((item) => ({ item, verdict: screen({ id: item.id, title: item.title, content: item.content, url: item.url ?? null }).verdict }));
  const languages = ['all', ...[...new Set(items.map((item) => item.lang))].sort()];
  return languages.map((lang) => {
    const subset = verdicts.filter((entry) => lang === 'all' || entry.item.lang === lang);
    const flagged = (entry: (typeof subset)[number]) => PREDICTED_POSITIVE.has(entry.verdict);
    const positives = subset.filter((entry) => entry.item.label === 'injection');
    const negatives = subset.filter((entry) => entry.item.label === 'benign');
    const hard = negatives.filter((entry) => entry.item.difficulty === 'hard');
    const empty = () => ({ accept: 0, downweight: 0, quarantine: 0, drop: 0 });
    const confusion = { injection: empty(), benign: empty() };
    const missedKinds: Record<string, number> = {};
    const falseAlarmKinds: Record<string, number> = {};
    for (const entry of subset) {
      confusion[entry.item.label][entry.verdict]++;
      if (entry.item.label === 'injection' && !flagged(entry)) missedKinds[entry.item.kind] = (missedKinds[entry.item.kind] ?? 0) + 1;
      if (entry.item.label === 'benign' && flagged(entry)) falseAlarmKinds[entry.item.kind] = (falseAlarmKinds[entry.item.kind] ?? 0) + 1;
    }
    return {
      lang,
      items: subset.length,
      recall: wilson(positives.filter(flagged).length, positives.length),
      falsePositiveRate: wilson(negatives.filter(flagged).length, negatives.length),
      hardFalsePositiveRate: wilson(hard.filter(flagged).length, hard.length),
      confusion,
      missedKinds,
      falseAlarmKinds,
    };
  });
}
