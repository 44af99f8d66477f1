/**
 * Title and date of a local note. A note's modification time says when the file was last
 * written on this disk (after a git clone: the clone), not when the note was written, so it is
 * the last resort: front matter (or an HTML page's date meta) first, then a date in the note's
 * heading or file name, then the last commit that touched it, then the modification time. Which
 * one was used is returned with the date.
 */
import path from 'node:path';

export type NoteDateSource = 'front-matter' | 'heading' | 'file-name' | 'git' | 'mtime';

export interface NoteDate {
  date: string;
  source: NoteDateSource;
}

export interface FrontMatter {
  fields: Record<string, string>;
  body: string;
}

/** `---` delimited `key: value` lines at the top of a Markdown note (scalar values only). */
export function splitFrontMatter(text: string): FrontMatter {
  const match = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  if (!match) return { fields: {}, body: text };
  const fields: Record<string, string> = {};
  for (const line of (match[1] ?? '').split(/\r?\n/)) {
    const field = /^([A-Za-z_][\w-]*)\s*:\s*(.*)$/.exec(line);
    if (field?.[1] && field[2] !== undefined) fields[field[1].toLowerCase()] = field[2].trim().replace(/^(["'])(.*)\1$/, '$2');
  }
  return { fields, body: text.slice(match[0].length) };
}

type NoteKind = 'markdown' | 'html' | 'text';

function kindOf(file: string): NoteKind {
  const extension = path.extname(file).toLowerCase();
  if (extension === '.md' || extension === '.markdown') return 'markdown';
  if (extension === '.html' || extension === '.htm') return 'html';
  return 'text';
}

const MAX_HEADING = 200;

/**
 * The note's first heading: a Markdown ATX (`## x`) or setext (underlined) heading, an HTML
 * <h1> or <title>, or a plain-text note's first line when a blank line follows it.
 */
export function noteHeading(file: string, text: string): string | null {
  const kind = kindOf(file);
  const clean = (value: string | undefined) => {
    const heading = value?.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim().replace(/\s*#+$/, '');
    return heading && heading.length <= MAX_HEADING ? heading : null;
  };
  if (kind === 'markdown') {
    const body = splitFrontMatter(text).body.replace(/```[\s\S]*?```/g, '');
    const atx = /^ {0,3}#{1,6}[ \t]+(.+)$/m.exec(body);
    const setext = /^(?!\s*$)([^\n]+)\r?\n {0,3}(?:=+|-+)[ \t]*$/m.exec(body);
    const first = atx && setext ? (atx.index <= setext.index ? atx[1] : setext[1]) : (atx?.[1] ?? setext?.[1]);
    return clean(first);
  }
  if (kind === 'html') return clean(/<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(text)?.[1]) ?? clean(/<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(text)?.[1]);
  const firstLine = /^\uFEFF?[ \t]*([^\r\n]+)\r?\n[ \t]*\r?\n/.exec(text.trimStart());
  return clean(firstLine?.[1]);
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';

function monthNumber(name: string): number {
  return MONTHS.findIndex((month) => month.startsWith(name.toLowerCase().slice(0, 3))) + 1;
}

function isoDay(year: number, month: number, day: number): string | null {
  if (year < 1970 || year > 2100 || month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCDate() === day ? date.toISOString() : null;
}

/** The first calendar date written in a heading or file name: 2026-11-24, 2026_11_24, 20261124, 24 November 2026, November 24, 2026, 2026年11月24日. */
export function dateIn(text: string): string | null {
  const patterns: Array<[RegExp, (match: RegExpExecArray) => string | null]> = [
    [/(?<!\d)(\d{4})[-_./](\d{1,2})[-_./](\d{1,2})(?!\d)/, (m) => isoDay(Number(m[1]), Number(m[2]), Number(m[3]))],
    [/(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*日/, (m) => isoDay(Number(m[1]), Number(m[2]), Number(m[3]))],
    [new RegExp(`(?<!\\d)(\\d{1,2})(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(\\d{4})(?!\\d)`, 'i'), (m) => isoDay(Number(m[3]), monthNumber(m[2] ?? ''), Number(m[1]))],
    [new RegExp(`\\b${MONTH}\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})(?!\\d)`, 'i'), (m) => isoDay(Number(m[3]), monthNumber(m[1] ?? ''), Number(m[2]))],
    [/(?<!\d)(20\d{2})(\d{2})(\d{2})(?!\d)/, (m) => isoDay(Number(m[1]), Number(m[2]), Number(m[3]))],
  ];
  let best: { index: number; date: string } | null = null;
  for (const [pattern, toDate] of patterns) {
    const match = pattern.exec(text);
    const date = match ? toDate(match) : null;
    if (match && date && (best === null || match.index < best.index)) best = { index: match.index, date };
  }
  return best?.date ?? null;
}

function frontMatterDate(file: string, text: string): string | null {
  const kind = kindOf(file);
  let value: string | undefined;
  if (kind === 'markdown') {
    const { fields } = splitFrontMatter(text);
    value = fields.date ?? fields.published ?? fields.created;
  } else if (kind === 'html') {
    value = /<meta\b[^>]*\b(?:name|property)\s*=\s*["'](?:date|dc\.date|article:published_time|pubdate)["'][^>]*\bcontent\s*=\s*["']([^"']+)["']/i.exec(text)?.[1];
  }
  if (!value) return null;
  const zoneless = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?)?$/.test(value.trim());
  const parsed = Date.parse(zoneless && value.includes('T') ? `${value.trim()}Z` : value.trim());
  return Number.isNaN(parsed) ? null : new Date(parsed).toISOString();
}

export interface NoteFacts {
  /** Relative path of the note (its file name is read for a date). */
  path: string;
  text: string;
  /** ISO time of the last commit that touched the file; null when it is in no repository or uncommitted. */
  committed: string | null;
  mtime: string;
}

export function noteDate(note: NoteFacts): NoteDate {
  const fromFrontMatter = frontMatterDate(note.path, note.text);
  if (fromFrontMatter) return { date: fromFrontMatter, source: 'front-matter' };
  const heading = noteHeading(note.path, note.text);
  const fromHeading = heading ? dateIn(heading) : null;
  if (fromHeading) return { date: fromHeading, source: 'heading' };
  const fromName = dateIn(path.basename(note.path, path.extname(note.path)));
  if (fromName) return { date: fromName, source: 'file-name' };
  if (note.committed) return { date: note.committed, source: 'git' };
  return { date: note.mtime, source: 'mtime' };
}
