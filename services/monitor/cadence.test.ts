import { describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import { DEFAULT_CADENCE_MINUTES, isDue, nextRunAfter } from './cadence.ts';

describe('nextRunAfter', () => {
  const last = new Date('2026-04-25T06:00:00.000Z');

  it.each([
    ['no cadence: daily', null, new Date(last.getTime() + DEFAULT_CADENCE_MINUTES * 60_000).toISOString()],
    ['every 90 minutes', { every_minutes: 90 }, '2026-04-25T07:30:00.000Z'],
    ['every 6 hours by cron, from a slot boundary', '0 */6 * * *', '2026-04-25T12:00:00.000Z'],
    ['a daily cron in UTC', '30 1 * * *', '2026-04-26T01:30:00.000Z'],
    ['a weekday cron', '0 9 * * 1', '2026-04-27T09:00:00.000Z'],
  ])('%s', (_name, cadence, expected) => {
    expect(nextRunAfter(cadence, last).toISOString()).toBe(expected);
  });

  it('schedules a cron from between two slots to the next slot', () => {
    expect(nextRunAfter('0 */6 * * *', new Date('2026-04-25T07:13:00.000Z')).toISOString()).toBe('2026-04-25T12:00:00.000Z');
  });

  it('refuses a cron expression that does not parse with CONFIG_INVALID', () => {
    let caught: unknown;
    try {
      nextRunAfter('every six hours', last);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SkryaError);
    expect((caught as SkryaError).code).toBe('CONFIG_INVALID');
  });
});

describe('isDue', () => {
  it.each([
    ['a topic that never ran, whatever its cadence', '0 0 1 1 *', null, '2026-04-25T06:00:00Z', true],
    ['a topic that never ran, even with a broken cron', 'not cron', null, '2026-04-25T06:00:00Z', true],
    ['every 60 min, 59 min after the last window', { every_minutes: 60 }, '2026-04-25T05:01:00.000Z', '2026-04-25T06:00:00Z', false],
    ['every 60 min, exactly 60 min after', { every_minutes: 60 }, '2026-04-25T05:00:00.000Z', '2026-04-25T06:00:00Z', true],
    ['cron every 6 h, before the next slot', '0 */6 * * *', '2026-04-25T06:00:00.000Z', '2026-04-25T11:59:59Z', false],
    ['cron every 6 h, at the next slot', '0 */6 * * *', '2026-04-25T06:00:00.000Z', '2026-04-25T12:00:00Z', true],
    ['cron every 6 h, right after the last window', '0 */6 * * *', '2026-04-25T06:00:00.000Z', '2026-04-25T06:00:00Z', false],
    ['no cadence, 23 h later', null, '2026-04-24T07:00:00.000Z', '2026-04-25T06:00:00Z', false],
    ['no cadence, 24 h later', null, '2026-04-24T06:00:00.000Z', '2026-04-25T06:00:00Z', true],
  ] as const)('%s → %s', (_name, cadence, last, now, expected) => {
    expect(isDue(cadence, last, new Date(now))).toBe(expected);
  });
});
