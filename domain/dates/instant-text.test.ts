import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instantOfIsoText, isCalendarDate, isoTextOf } from './instant-text.ts';

describe('instantOfIsoText', () => {
  it('reads what toISOString writes, with and without milliseconds, as the same instant', () => {
    // Years 100 to 9999: toISOString writes four-digit years there.
    fc.assert(
      fc.property(fc.date({ min: new Date(Date.UTC(100, 0, 1)), max: new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999)), noInvalidDate: true }), (date) => {
        const ms = date.getTime();
        const text = date.toISOString();
        expect(instantOfIsoText(text)).toBe(ms);
        expect(instantOfIsoText(text.replace(/\.\d{3}Z$/, 'Z'))).toBe(ms - (((ms % 1000) + 1000) % 1000));
      }),
      { numRuns: 2000 },
    );
  });

  it('agrees with Date.parse wherever it reads a text, and leaves the rest to the full parsers', () => {
    const digit = fc.constantFrom(...'0123456789');
    const field = (length: number) => fc.string({ unit: digit, minLength: length, maxLength: length });
    const nearlyIso = fc.tuple(field(4), field(2), field(2), field(2), field(2), field(2), fc.option(field(3)), fc.constantFrom('Z', 'z', '+01:00', ''), fc.constantFrom('T', 't', ' '))
      .map(([year, month, day, hour, minute, second, millis, zone, separator]) => `${year}-${month}-${day}${separator}${hour}:${minute}:${second}${millis === null ? '' : `.${millis}`}${zone}`);
    fc.assert(
      fc.property(fc.oneof(nearlyIso, fc.string({ maxLength: 26 })), (text) => {
        const instant = instantOfIsoText(text);
        if (instant !== null) expect(instant).toBe(Date.parse(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('reads no other form, no impossible day and no leap second', () => {
    for (const text of ['2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-11-23T24:00:00Z', '2026-11-23T10:60:00Z', '2026-12-31T23:59:60Z',
      '2026-11-23t10:41:00Z', '2026-11-23T10:41:00z', '2026-11-23T10:41:00+00:00', '2026-11-23 10:41:00Z', '2026-11-23T10:41:00.37Z', '0099-01-01T00:00:00Z', ' 2026-11-23T10:41:00Z']) {
      expect(instantOfIsoText(text), text).toBeNull();
    }
    expect(instantOfIsoText('2024-02-29T12:00:00Z')).toBe(Date.UTC(2024, 1, 29, 12));
  });
});

describe('isCalendarDate', () => {
  it('knows month lengths and leap years, reading years 0–99 as 1900–1999 as Date.UTC does', () => {
    expect(isCalendarDate(2024, 2, 29)).toBe(true);
    expect(isCalendarDate(2100, 2, 29)).toBe(false);
    expect(isCalendarDate(2000, 2, 29)).toBe(true);
    expect(isCalendarDate(0, 2, 29)).toBe(false);
    expect(isCalendarDate(2026, 4, 31)).toBe(false);
    expect(isCalendarDate(2026, 0, 1)).toBe(false);
  });
});

describe('isoTextOf', () => {
  it('is toISOString\'s text of the instant, whatever text it is given with it', () => {
    const instant = fc.date({ min: new Date(Date.UTC(100, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }).map((date) => date.getTime());
    fc.assert(
      fc.property(instant, instant, fc.constantFrom('own', 'own without milliseconds', 'other', 'none', 'garbage'), (ms, other, given) => {
        const own = new Date(ms).toISOString();
        const text = { own, 'own without milliseconds': own.replace(/\.\d{3}Z$/, 'Z'), other: new Date(other).toISOString(), none: undefined, garbage: 'xxxx-xx-xxTxx:xx:xx.xxxZ' }[given];
        expect(isoTextOf(ms, text)).toBe(own);
        // Asked again (the same instant in a row), and after another instant.
        expect(isoTextOf(ms)).toBe(own);
        expect(isoTextOf(other)).toBe(new Date(other).toISOString());
      }),
      { numRuns: 2000 },
    );
  });

  it('throws for an instant that is no date, as toISOString does', () => {
    expect(() => isoTextOf(Number.NaN)).toThrow(RangeError);
  });
});
