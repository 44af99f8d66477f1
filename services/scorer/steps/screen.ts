/**
 * Step 3, screen: prompt-injection screening of the validated text (domain/screening), with the
 * scoring model's thresholds and its way of combining the rules' and the learned model's risk.
 */
import { screenItem, type ScreenResult } from '../../../domain/screening/screen-item.ts';
import type { ScoringModel as ScreeningModel } from '../../../domain/screening/scoring-model.ts';
import type { Validated } from './validate.ts';

export interface Screened extends Validated {
  screen: ScreenResult;
}

export function createScreenStep(screening: ScreeningModel): (item: Validated) => Screened {
  const options = { scoring: screening };
  return (item) => ({
    ...item,
    screen: screenItem({ id: item.id, title: item.text.title, content: item.text.content, summary: item.text.summary, url: item.url, html: item.result.html }, options),
  });
}
