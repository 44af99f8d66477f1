import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoDateTime } from '../../schemas/ingest.ts';
import { instantOfIsoText, isCalendarDate, isIsoDateTime, isoTextOf } from './instant-text.ts';

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

describe('isIsoDateTime', () => {
  it('accepts exactly what the isoDateTime schema accepts', () => {
    const digits = (count: number) => fc.array(fc.constantFrom(...'0123456789'), { minLength: count, maxLength: count }).map((chars) => chars.join(''));
    const year = fc.oneof(fc.constantFrom('0000', '0004', '0100', '0400', '1900', '2000', '2024', '2100', '2026'), digits(4), digits(3));
    const padded = (min: number, max: number) => fc.integer({ min, max }).map((value) => String(value).padStart(2, '0'));
    // Mostly in range, so both verdicts come often; now and then any two digits, or one.
    const field = (min: number, max: number) => fc.oneof({ arbitrary: padded(min, max), weight: 8 }, { arbitrary: padded(0, 99), weight: 1 }, { arbitrary: digits(1), weight: 1 });
    const fraction = fc.oneof(fc.constant(''), digits(1).map((value) => `.${value}`), digits(3).map((value) => `.${value}`), fc.constant('.'));
    const zone = fc.oneof(
      { arbitrary: fc.constantFrom('Z', 'z', '', '+00:00', '-05:30', '+24:00', '+0100', '+01'), weight: 1 },
      { arbitrary: fc.tuple(fc.constantFrom('+', '-'), field(0, 23), field(0, 59)).map(([sign, hours, minutes]) => `${sign}${hours}:${minutes}`), weight: 1 },
    );
    const separator = fc.oneof({ arbitrary: fc.constant('T'), weight: 8 }, { arbitrary: fc.constantFrom('t', ' '), weight: 1 });
    const seconds = fc.oneof({ arbitrary: field(0, 59).map((value) => `:${value}`), weight: 8 }, { arbitrary: fc.constant(''), weight: 1 });
    const dateTime = fc.tuple(year, field(1, 12), field(1, 31), separator, field(0, 23), field(0, 59), seconds, fraction, zone)
      .map(([y, mo, d, t, h, mi, sec, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}${sec}${f}${z}`);
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(dateTime, fc.string()), (text) => {
        const verdict = isoDateTime.safeParse(text).success;
        expect(isIsoDateTime(text)).toBe(verdict);
        if (verdict) accepted++;
      }),
      { numRuns: 20_000 },
    );
    // The generated texts reach both verdicts often, not only the refusals.
    expect(accepted).toBeGreaterThan(500);
  });

  it('takes leap days by the year as written', () => {
    expect(['2024-02-29T00:00:00Z', '2000-02-29T00:00:00Z', '0000-02-29T00:00:00Z'].map(isIsoDateTime)).toEqual([true, true, true]);
    expect(['2100-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-02-29T00:00:00Z', '2026-04-31T00:00:00Z'].map(isIsoDateTime)).toEqual([false, false, false, false]);
  });
});
