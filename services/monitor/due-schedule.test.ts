import { describe, expect, it } from 'vitest';
import { createDueSchedule } from './due-schedule.ts';

describe('createDueSchedule', () => {
  it('hands out due keys earliest first, up to the limit, and keeps the rest', () => {
    const schedule = createDueSchedule();
    schedule.schedule('acme/c', 300);
    schedule.schedule('acme/a', 100);
    schedule.schedule('acme/b', 200);
    schedule.schedule('acme/later', 10_000);
    expect(schedule.takeDue(250, 10)).toEqual([{ key: 'acme/a', dueAt: 100 }, { key: 'acme/b', dueAt: 200 }]);
    expect(schedule.takeDue(500, 1)).toEqual([{ key: 'acme/c', dueAt: 300 }]);
    expect(schedule.takeDue(500, 10)).toEqual([]);
    expect(schedule.nextDueAt()).toBe(10_000);
    expect(schedule.size).toBe(1);
  });

  it('a rescheduled key is due only at its new time, and a removed key never', () => {
    const schedule = createDueSchedule();
    schedule.schedule('acme/moved', 100);
    schedule.schedule('acme/gone', 150);
    schedule.schedule('acme/moved', 400);
    schedule.remove('acme/gone');
    expect(schedule.takeDue(300, 10)).toEqual([]);
    expect(schedule.nextDueAt()).toBe(400);
    expect(schedule.takeDue(400, 10)).toEqual([{ key: 'acme/moved', dueAt: 400 }]);
    expect(schedule.size).toBe(0);
    expect(schedule.nextDueAt()).toBeNull();
  });

  it('keeps the order of 5,000 random times through reschedules and compaction of stale entries', () => {
    const schedule = createDueSchedule();
    const expected = new Map<string, number>();
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    for (let round = 0; round < 3; round += 1) {
      for (let index = 0; index < 5_000; index += 1) {
        const dueAt = next() % 1_000_000;
        schedule.schedule(`t/${index}`, dueAt);
        expected.set(`t/${index}`, dueAt);
      }
    }
    const taken = schedule.takeDue(Number.MAX_SAFE_INTEGER, 10_000);
    expect(taken).toHaveLength(5_000);
    expect(taken.map((entry) => entry.dueAt)).toEqual([...expected.values()].sort((a, b) => a - b));
    for (const entry of taken) expect(entry.dueAt).toBe(expected.get(entry.key));
  });
});
