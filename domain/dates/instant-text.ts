/**
 * Dates as most providers send them, read without a regular expression: the full parsers
 * (validation's parseDate, freshness's parsePublishedAt) ran a regular expression, a dozen
 * number conversions and Date's own parser for every item, about a twentieth of `skrya rank`'s
 * reading of a line. Each full parser tries this first and reads anything else itself.
 */

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether year-month-day is a day of the Gregorian calendar, the year taken as written. */
function isDayOfYear(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leapDay = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  return day <= DAYS_IN_MONTH[month - 1]! + leapDay;
}

/** Whether year-month-day is a day of the calendar (years 0–99 taken as 1900–1999, as Date.UTC takes them). */
export function isCalendarDate(year: number, month: number, day: number): boolean {
  return isDayOfYear(year <= 99 ? 1900 + year : year, month, day);
}

const ZERO = 48;

/** The number written by the ASCII digits text[from, to); -1 if any is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let at = from; at < to; at++) {
    const digit = text.charCodeAt(at) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = 10 * value + digit;
  }
  return value;
}

/**
 * Milliseconds since the epoch of a UTC date-time written exactly as toISOString writes it,
 * `2026-11-23T10:41:00.377Z`, or without the milliseconds, `2026-11-23T10:41:00Z`, naming a real
 * day and time (year 100 or later, hour below 24, no leap second); null for any other text, which
 * the caller's own parser reads.
 */
export function instantOfIsoText(text: string): number | null {
  const withMillis = text.length === 24;
  if (!withMillis && text.length !== 20) return null;
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || text.charCodeAt(10) !== 84 || text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return null;
  if (text.charCodeAt(text.length - 1) !== 90 || (withMillis && text.charCodeAt(19) !== 46)) return null;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  const millis = withMillis ? digitsAt(text, 20, 23) : 0;
  if (year < 100 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || millis < 0 || !isCalendarDate(year, month, day)) return null;
  return Date.UTC(year, month - 1, day, hour, minute, second, millis);
}

let lastInstant = Number.NaN;
let lastIsoText = '';

/**
 * toISOString's text of the instant `ms`: `text` itself when it is that text already (as most
 * providers send dates), else made once for a run of the same instant (every item of a run has
 * its fetched_at). toISOString costs about half a microsecond, and validation and freshness wrote
 * two or three a result.
 */
export function isoTextOf(ms: number, text?: string): string {
  if (text !== undefined && text.length === 24 && instantOfIsoText(text) === ms) return text;
  if (ms !== lastInstant) {
    lastIsoText = new Date(ms).toISOString();
    lastInstant = ms;
  }
  return lastIsoText;
}

/** RFC 3339 date-time with seconds and a zone: year-month-dayThh:mm:ss[.fraction](Z | ±hh:mm). */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/**
 * Whether `text` is what schemas/ingest.ts's isoDateTime accepts (a date-time with a zone, its
 * date a day of the calendar, the year read as written), without loading zod: a command that only
 * checks one option (`skrya rank --window-end`) need not load it. instant-text.test.ts holds the
 * two to the same verdicts.
 */
export function isIsoDateTime(text: string): boolean {
  const match = ISO_DATE_TIME.exec(text);
  if (match === null) return false;
  return isDayOfYear(Number(match[1]), Number(match[2]), Number(match[3]));
}
