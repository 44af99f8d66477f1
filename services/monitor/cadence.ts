/**
 * When a topic is due: its cadence (a cron expression, or every N minutes) applied after the end
 * of its last run's window. A topic that never ran is due at once.
 */
import { CronExpressionParser } from 'cron-parser';
import { SkryaError } from '../../runtime/errors.ts';
import type { TopicSources } from './sources-file.ts';

/** Without a cadence a topic is looked at daily. */
export const DEFAULT_CADENCE_MINUTES = 24 * 60;

export function nextRunAfter(cadence: TopicSources['cadence'], lastRunUntil: Date): Date {
  if (cadence === null) return new Date(lastRunUntil.getTime() + DEFAULT_CADENCE_MINUTES * 60_000);
  if (typeof cadence === 'object') return new Date(lastRunUntil.getTime() + cadence.every_minutes * 60_000);
  try {
    return CronExpressionParser.parse(cadence, { currentDate: lastRunUntil, tz: 'UTC' }).next().toDate();
  } catch (error) {
    throw new SkryaError('CONFIG_INVALID', `cadence ${JSON.stringify(cadence)} is not a valid cron expression (e.g. "0 */6 * * *")`, { cause: error });
  }
}

export function isDue(cadence: TopicSources['cadence'], lastRunUntil: string | null, now: Date): boolean {
  if (lastRunUntil === null) return true;
  return nextRunAfter(cadence, new Date(lastRunUntil)).getTime() <= now.getTime();
}
