/**
 * Spec 000's validation rules for one skrya.ingest.v1 item, applied to whatever a provider or an
 * external skill handed us. Every repair or rejection leaves a reason with a stable code, so a
 * dropped or downweighted item can be audited and counted downstream.
 *
 * Outcome:
 * - `dropped`: no title, no source at all (neither url nor source_name), no body (content or
 *   summary), or no usable fetched_at. `item` is null.
 * - `downweighted`: the only source is the provider's own assertion (no url, and source_name is
 *   empty or just the producer's name).
 * - `valid`: everything else; repairs (truncation, stripped control characters, a bad date set to
 *   null) are still listed in `reasons`.
 */
import { createHash } from 'node:crypto';
import type { IngestItem } from '../../schemas/ingest.ts';
import { instantOfIsoText, isCalendarDate, isoTextOf } from '../dates/instant-text.ts';
import { parseUrl } from '../urls/parse-url.ts';

export const VALIDATION_REASON_CODES = [
  'MISSING_ID',
  'MISSING_TITLE',
  'MISSING_SOURCE',
  'MISSING_BODY',
  'MISSING_FETCHED_AT',
  'BAD_FIELD_TYPE',
  'BAD_DATE',
  'FUTURE_DATE',
  'BAD_URL',
  'OVERSIZED_FIELD',
  'CONTROL_CHARS',
  'BAD_CONFIDENCE',
  'PROVIDER_ONLY_ASSERTION',
] as const;
export type ValidationReasonCode = (typeof VALIDATION_REASON_CODES)[number];

export interface ValidationReason {
  code: ValidationReasonCode;
  field: string;
  message: string;
}

export type ValidationOutcome = 'valid' | 'downweighted' | 'dropped';

export interface ValidationResult {
  item: IngestItem | null;
  outcome: ValidationOutcome;
  reasons: ValidationReason[];
}

export interface ValidationContext {
  /** producer.name of the document the item came from; a source_name equal to it traces nothing. */
  producerName: string;
  /** Used when the item has no fetched_at of its own (normally the document's retrieved_at). */
  fetchedAt?: string;
  /** The clock for FUTURE_DATE; passed in so replays judge dates the way the original run did. */
  now?: Date;
}

/** Character caps: truncation keeps an item usable instead of dead-lettering a whole document. */
export const FIELD_LIMITS = { title: 500, summary: 5_000, content: 100_000, source_name: 300, url: 2_048 } as const;

/** A published_at this far past the fetch time is a provider bug, not a scoop. */
const FUTURE_TOLERANCE_MS = 24 * 60 * 60 * 1000;

const FATAL_CODES: ReadonlySet<ValidationReasonCode> = new Set(['MISSING_TITLE', 'MISSING_SOURCE', 'MISSING_BODY']);
const DOWNWEIGHT_CODES: ReadonlySet<ValidationReasonCode> = new Set(['PROVIDER_ONLY_ASSERTION']);

export function validateItem(candidate: unknown, context: ValidationContext): ValidationResult {
  const reasons: ValidationReason[] = [];
  const record = isRecord(candidate) ? candidate : {};
  const reason = (code: ValidationReasonCode, field: string, message: string) => reasons.push({ code, field, message });

  const title = readText(record, 'title', { multiline: false, limit: FIELD_LIMITS.title }, reason);
  const content = readText(record, 'content', { multiline: true, limit: FIELD_LIMITS.content }, reason);
  const summary = readText(record, 'summary', { multiline: true, limit: FIELD_LIMITS.summary }, reason);
  const sourceName = readText(record, 'source_name', { multiline: false, limit: FIELD_LIMITS.source_name }, reason);
  const url = readUrl(record, reason);
  const language = readText(record, 'language', { multiline: false, limit: 35 }, reason);
  const evidenceType = readText(record, 'evidence_type', { multiline: false, limit: 64 }, reason);
  const confidence = readConfidence(record, reason);

  const fetched = readFetchedAt(record, context, reason);
  const fetchedAt = fetched === null ? null : isoTextOf(fetched.getTime());
  const now = context.now ?? new Date();
  const publishedAt = readPublishedAt(record, fetched === null ? now : laterOf(now, fetched), reason);

  if (title === null) reason('MISSING_TITLE', 'title', 'title is missing or empty');
  if (content === null && summary === null) reason('MISSING_BODY', 'content', 'neither content nor summary has text');
  if (url === null && sourceName === null) {
    reason('MISSING_SOURCE', 'source_name', 'neither a usable url nor a source_name: nothing traces where this came from');
  } else if (url === null && sourceName !== null && sameName(sourceName, context.producerName)) {
    reason('PROVIDER_ONLY_ASSERTION', 'source_name', 'no url and the only source named is the provider itself');
  }

  const id = readId(record, { url, sourceName, title }, reason);

  const fatal = reasons.some((entry) => FATAL_CODES.has(entry.code)) || fetchedAt === null;
  if (fatal || title === null || fetchedAt === null) return { item: null, outcome: 'dropped', reasons };

  const item: IngestItem = {
    id,
    title,
    url,
    source_name: sourceName,
    published_at: publishedAt,
    fetched_at: fetchedAt,
    language,
    content,
    summary,
    evidence_type: evidenceType,
    confidence,
  };
  const outcome: ValidationOutcome = reasons.some((entry) => DOWNWEIGHT_CODES.has(entry.code)) ? 'downweighted' : 'valid';
  return { item, outcome, reasons };
}

type Report = (code: ValidationReasonCode, field: string, message: string) => void;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Reads a string field: wrong types count as missing, control characters go, oversized text is cut. */
function readText(record: Record<string, unknown>, field: string, options: { multiline: boolean; limit: number }, report: Report): string | null {
  const raw = record[field];
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    report('BAD_FIELD_TYPE', field, `${field} must be a string, got ${describeType(raw)}`);
    return null;
  }
  let text: string;
  // Most text has nothing to clean: no control character, and on one line no tab, line break or double space.
  if (!(options.multiline ? ANY_CONTROL_CHARACTER_BUT_TAB_OR_LINE_FEED : ANY_CONTROL_CHARACTER_OR_SPACING).test(raw)) text = raw.trim();
  else {
    const cleaned = stripControlCharacters(raw, options.multiline);
    if (hasControlCharacters(raw)) report('CONTROL_CHARS', field, `control characters removed from ${field}`);
    text = options.multiline ? cleaned.trim() : cleaned.replace(/\s+/g, ' ').trim();
  }
  if (text.length === 0) return null;
  if (text.length > options.limit) {
    report('OVERSIZED_FIELD', field, `${field} has ${text.length} characters; truncated to ${options.limit}`);
    return truncate(text, options.limit);
  }
  return text;
}

// C0 and C1 controls and DEL; tab and line breaks are whitespace, handled separately.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

const CONTROL_CHARACTER = new RegExp(CONTROL_CHARACTERS.source);
// Multiline text keeps tabs and line feeds as they are: only another control character (a carriage
// return included) needs cleaning. Single-line text: tab and line breaks too, and any whitespace but
// a single space.
// eslint-disable-next-line no-control-regex
const ANY_CONTROL_CHARACTER_BUT_TAB_OR_LINE_FEED = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
// eslint-disable-next-line no-control-regex
const ANY_CONTROL_CHARACTER_OR_SPACING = /[\u0000-\u001F\u007F-\u009F]|[^\S ]| {2}/;

function stripControlCharacters(text: string, multiline: boolean): string {
  const stripped = text.replace(CONTROL_CHARACTERS, '').replace(/\r\n?/g, '\n');
  return multiline ? stripped : stripped.replace(/[\t\n]/g, ' ');
}

function hasControlCharacters(text: string): boolean {
  return CONTROL_CHARACTER.test(text);
}

/** Cuts at a code point boundary so a surrogate pair is never split in half. */
function truncate(text: string, limit: number): string {
  const cut = text.slice(0, limit);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

function describeType(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

function readUrl(record: Record<string, unknown>, report: Report): string | null {
  const raw = record.url;
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string') {
    report('BAD_FIELD_TYPE', 'url', `url must be a string, got ${describeType(raw)}`);
    return null;
  }
  const text = raw.trim();
  if (text.length === 0) return null;
  const problem = urlProblem(text);
  if (problem !== null) {
    report('BAD_URL', 'url', problem);
    return null;
  }
  return text;
}

/** Why a url cannot be used as a traceable source, or null when it can. */
function urlProblem(text: string): string | null {
  if (text.length > FIELD_LIMITS.url) return `url longer than ${FIELD_LIMITS.url} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001F\u007F]/.test(text)) return 'url contains whitespace or control characters';
  const parsed = parseUrl(text);
  if (parsed === null) return 'url cannot be parsed as an absolute URL';
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `url scheme ${parsed.protocol} is not http(s)`;
  if (parsed.username !== '' || parsed.password !== '') return 'url carries credentials';
  if (parsed.hostname === '') return 'url has no host';
  return null;
}

function readConfidence(record: Record<string, unknown>, report: Report): IngestItem['confidence'] {
  const raw = record.confidence;
  if (raw === undefined || raw === null) return null;
  if (raw === 'high' || raw === 'medium' || raw === 'low') return raw;
  report('BAD_CONFIDENCE', 'confidence', 'confidence must be high, medium or low; set to null');
  return null;
}

function readFetchedAt(record: Record<string, unknown>, context: ValidationContext, report: Report): Date | null {
  const raw = record.fetched_at;
  if (raw !== undefined && raw !== null) {
    const parsed = parseDate(raw);
    if (parsed !== null) return parsed;
    report('BAD_DATE', 'fetched_at', 'fetched_at is not a recognisable date');
  }
  const fallback = context.fetchedAt === undefined ? null : parseDate(context.fetchedAt);
  if (fallback === null) {
    report('MISSING_FETCHED_AT', 'fetched_at', 'no usable fetched_at on the item and no default in the context');
    return null;
  }
  report('MISSING_FETCHED_AT', 'fetched_at', 'fetched_at taken from the document default');
  return fallback;
}

function readPublishedAt(record: Record<string, unknown>, latestPlausible: Date, report: Report): string | null {
  const raw = record.published_at;
  if (raw === undefined || raw === null || raw === '') return null;
  const parsed = parseDate(raw);
  if (parsed === null) {
    report('BAD_DATE', 'published_at', 'published_at is not a recognisable date; set to null');
    return null;
  }
  if (parsed.getTime() > latestPlausible.getTime() + FUTURE_TOLERANCE_MS) {
    report('FUTURE_DATE', 'published_at', 'published_at lies in the future; set to null');
    return null;
  }
  return isoTextOf(parsed.getTime(), typeof raw === 'string' ? raw.trim() : undefined);
}

function laterOf(a: Date, b: Date): Date {
  return a.getTime() >= b.getTime() ? a : b;
}

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/i;
// RFC 2822 as feeds write it: "Fri, 25 Apr 2025 08:12:00 +0800" (day name optional).
const RFC_2822 = /^(?:[A-Za-z]{3},\s*)?\d{1,2}\s+[A-Za-z]{3}\s+\d{4}\s+\d{2}:\d{2}(?::\d{2})?\s*(?:[+-]\d{4}|GMT|UT|UTC|Z|[ECMP][SD]T)?$/;
const CHINESE_DATE = /^(\d{4})年(\d{1,2})月(\d{1,2})日(?:\s*(\d{1,2})[:：](\d{2}))?$/;

/**
 * Strict date parsing: Date.parse alone accepts "March 5" as the year 2001, so only formats
 * providers really send are read. A date without an offset is taken as UTC.
 */
export function parseDate(raw: unknown): Date | null {
  if (typeof raw === 'number') return parseEpoch(raw);
  if (typeof raw !== 'string') return null;
  // One text is often read many times running (every item of a run has the run's fetched_at).
  if (raw !== lastDateText) {
    const parsed = parseDateText(raw);
    lastDateText = raw;
    lastDateTime = parsed === null ? null : parsed.getTime();
  }
  return lastDateTime === null ? null : new Date(lastDateTime);
}

let lastDateText: string | undefined;
let lastDateTime: number | null = null;

function parseDateText(raw: string): Date | null {
  const text = raw.trim();
  const instant = instantOfIsoText(text);
  if (instant !== null) return new Date(instant);
  if (/^\d{10}(\d{3})?$/.test(text)) return parseEpoch(Number(text));
  const iso = ISO_DATE.exec(text);
  if (iso !== null) {
    const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', offset] = iso;
    if (!isCalendarDate(Number(year), Number(month), Number(day)) || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 60) return null;
    const millis = fraction.padEnd(3, '0').slice(0, 3);
    const offsetMinutes = zoneOffsetMinutes(offset);
    // The usual case counted directly (Date.UTC reads years below 100 as 19xx, hence the floor);
    // anything else is read by Date's own ISO parser, as always.
    if (offsetMinutes !== null && Number(year) >= 100) {
      const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), second === '60' ? 59 : Number(second), Number(millis));
      return new Date(utc - offsetMinutes * 60_000);
    }
    const zone = offset === undefined ? 'Z' : offset.toUpperCase() === 'Z' ? 'Z' : offset.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    return validDate(new Date(`${year}-${month}-${day}T${hour}:${minute}:${second === '60' ? '59' : second}.${millis}${zone}`));
  }
  if (RFC_2822.test(text)) return validDate(new Date(text));
  const chinese = CHINESE_DATE.exec(text);
  if (chinese !== null) {
    const [, year, month, day, hour = '0', minute = '0'] = chinese;
    if (!isCalendarDate(Number(year), Number(month), Number(day)) || Number(hour) > 23 || Number(minute) > 59) return null;
    return validDate(new Date(Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute))));
  }
  return null;
}

/** Minutes east of UTC of an ISO offset (none or Z: 0); null for an offset beyond ±23:59, left to Date's parser. */
function zoneOffsetMinutes(offset: string | undefined): number | null {
  if (offset === undefined || offset === 'Z' || offset === 'z') return 0;
  const hours = Number(offset.slice(1, 3));
  const minutes = Number(offset.slice(-2));
  if (hours > 23 || minutes > 59) return null;
  return (offset.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

function parseEpoch(value: number): Date | null {
  if (!Number.isFinite(value) || value <= 0) return null;
  // Ten digits are seconds, thirteen are milliseconds.
  return validDate(new Date(value < 1e11 ? value * 1000 : value));
}

function validDate(date: Date): Date | null {
  return Number.isNaN(date.getTime()) ? null : date;
}

function sameName(a: string, b: string): boolean {
  const fold = (value: string) => value.normalize('NFKC').toLowerCase().replace(/[\s_.-]+/g, '');
  return fold(a) === fold(b);
}

/** A missing id becomes a hash of what identifies the item, so a replay derives the same one. */
function readId(record: Record<string, unknown>, parts: { url: string | null; sourceName: string | null; title: string | null }, report: Report): string {
  const raw = record.id;
  if (typeof raw === 'string' && raw.trim().length > 0) return truncate(stripControlCharacters(raw.trim(), false), 200);
  if (raw !== undefined && raw !== null && typeof raw !== 'string') report('BAD_FIELD_TYPE', 'id', `id must be a string, got ${describeType(raw)}`);
  report('MISSING_ID', 'id', 'id derived from url, source_name and title');
  const digest = createHash('sha256').update(JSON.stringify([parts.url, parts.sourceName, parts.title])).digest('hex');
  return `item-${digest.slice(0, 16)}`;
}
