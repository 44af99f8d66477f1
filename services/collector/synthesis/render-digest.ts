import { stripWww } from '../../../domain/ranking/authority.ts';
import { hostOf } from '../../../domain/ranking/score-item.ts';
import { parsePublishedAt } from '../../../domain/ranking/freshness.ts';
import { queryTerms } from '../../../domain/text/tokenize.ts';
import { detectConflicts, type Conflict } from './conflicts.ts';
import { clusterByTheme } from './themes.ts';

/**
 * digest.md for one run (spec 001 phase 5). The answer comes first, then the sources; results are
 * grouped by theme, never by provider; disagreements are stated. Three shapes by result count:
 * up to LIST_MAX a ranked list with source tags and scores, up to THEMED_MAX grouped by theme,
 * beyond that an overview, the top TOP_COUNT and a pointer to the rest. Pure and deterministic:
 * the same run renders byte-identically (no clock, no randomness).
 */
export interface DigestItem {
  title: string;
  url: string | null;
  summary: string | null;
  sources: readonly { provider: string; url: string | null }[];
  score: number | null;
  published_at: string | null;
}

export interface DigestRun {
  topicId: string;
  /** The query or the topic's title: the digest's heading, and the terms themes ignore. */
  title: string;
  /** Ranked, best first. */
  items: readonly DigestItem[];
  stats: { retrieved: number; providers: readonly string[] };
}

export type DigestStrategy = 'list' | 'themes' | 'overview';

export const LIST_MAX = 5;
export const THEMED_MAX = 15;
export const TOP_COUNT = 5;
/** "Fresh" for the confidence wording: dated within this many days of the run's newest dated item. */
export const FRESH_DAYS = 30;
const SNIPPET_CHARS = 160;
const DAY_MS = 24 * 60 * 60 * 1000;

export function digestStrategy(itemCount: number): DigestStrategy {
  if (itemCount <= LIST_MAX) return 'list';
  if (itemCount <= THEMED_MAX) return 'themes';
  return 'overview';
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * At most `limit` characters (code points) of the text on one line, cut with an ellipsis. Only as
 * much of it is read as the cut needs: a summary is often a whole page's opening, and spreading it
 * into characters to count them took a tenth of a digest's time (57 against 51 µs a run).
 */
function truncate(text: string, limit: number): string {
  const line = oneLine(text);
  // No more code points than UTF-16 units: a line this short fits.
  if (line.length <= limit) return line;
  let count = 0;
  // Where the first limit - 1 code points end, in UTF-16 units: what is kept when the line is cut.
  let keptEnd = 0;
  for (let index = 0; index < line.length; count++) {
    if (count === limit) return `${line.slice(0, keptEnd).trimEnd()}…`;
    index += line.codePointAt(index)! > 0xffff ? 2 : 1;
    if (count + 1 === limit - 1) keptEnd = index;
  }
  return line;
}

function escapeLinkText(text: string): string {
  return oneLine(text).replace(/([[\]\\])/g, '\\$1');
}

function link(item: Pick<DigestItem, 'title' | 'url'>): string {
  const title = escapeLinkText(item.title === '' ? (item.url ?? 'untitled') : item.title);
  return item.url === null ? title : `[${title}](${item.url.replace(/[()\s]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)})`;
}

function providerTags(item: DigestItem): string {
  const providers = [...new Set(item.sources.map((source) => source.provider))];
  return providers.length === 0 ? '' : ` \`[${providers.join(', ')}]\``;
}

function scoreTag(item: DigestItem): string {
  return item.score === null ? '' : ` ⭐${item.score.toFixed(2)}`;
}

function sourceLabel(item: DigestItem): string {
  const host = hostOf(item.url);
  return host === null ? (item.sources[0]?.provider ?? 'one source') : stripWww(host);
}

function leadSentence(item: DigestItem): string {
  const text = oneLine(item.summary ?? '');
  if (text === '') return oneLine(item.title);
  const match = /^(.+?[.!?。！？])(?:\s|$)/u.exec(text);
  return truncate(match?.[1] ?? text, 200);
}

function independentSites(item: DigestItem): number {
  return new Set(item.sources.map((source) => `${source.provider} ${stripWww(hostOf(source.url) ?? '')}`)).size;
}

/** Spec 001 confidence wording: corroborated and fresh → stated; single-source or old → attributed. */
function statement(item: DigestItem, newestMs: number | null): string {
  const published = parsePublishedAt(item.published_at);
  const fresh = published !== null && newestMs !== null && newestMs - published <= FRESH_DAYS * DAY_MS;
  const sentence = leadSentence(item);
  if (independentSites(item) >= 2 && fresh) return `${sentence} (${link(item)})`;
  return `According to ${sourceLabel(item)}, ${sentence} (${link(item)})`;
}

function conflictLine(conflict: Conflict): string {
  const claims = conflict.claims.map((claim) => `${claim.sourceLabel} says “${claim.claim}” (${link(claim)})`);
  return `> ⚠ Sources disagree on **${conflict.unit}**: ${claims.join(', ')}.`;
}

function conflictsAmong(items: readonly DigestItem[], indexes: readonly number[], ignored: ReadonlySet<string>): Conflict[] {
  return detectConflicts(
    indexes.map((index) => {
      const item = items[index]!;
      return { sourceLabel: sourceLabel(item), title: item.title, url: item.url, text: `${item.title}. ${item.summary ?? ''}` };
    }),
    ignored,
  );
}

function rankedLine(item: DigestItem, position: number): string {
  const snippet = item.summary === null || oneLine(item.summary) === '' ? '' : ` — ${truncate(item.summary, SNIPPET_CHARS)}`;
  return `${position}. ${link(item)}${snippet}${providerTags(item)}${scoreTag(item)}`;
}

function themedLine(item: DigestItem): string {
  const snippet = item.summary === null || oneLine(item.summary) === '' ? '' : ` — ${truncate(item.summary, SNIPPET_CHARS)}`;
  return `- ${link(item)}${snippet}${providerTags(item)}`;
}

export function renderDigest(run: DigestRun): string {
  const { items } = run;
  const lines: string[] = [`# ${oneLine(run.title) || run.topicId}`, ''];
  if (items.length === 0) {
    lines.push(`No results for this run (${run.stats.retrieved} retrieved, all dropped or none found).`);
    return `${lines.join('\n')}\n`;
  }
  const terms = new Set(queryTerms(run.title));
  const dates = items.map((item) => parsePublishedAt(item.published_at)).filter((value): value is number => value !== null);
  const newestMs = dates.length === 0 ? null : Math.max(...dates);
  const strategy = digestStrategy(items.length);
  const allIndexes = items.map((_item, index) => index);
  const providers = [...run.stats.providers].sort();

  if (strategy === 'list') {
    lines.push(statement(items[0]!, newestMs), '');
    const conflicts = conflictsAmong(items, allIndexes, terms);
    if (conflicts.length > 0) lines.push(...conflicts.map(conflictLine), '');
    lines.push('## Sources', '', ...items.map((item, index) => rankedLine(item, index + 1)));
    return `${lines.join('\n')}\n`;
  }

  const { themes, other } = clusterByTheme(
    items.slice(0, strategy === 'themes' ? items.length : THEMED_MAX),
    terms,
  );

  if (strategy === 'themes') {
    lines.push(statement(items[0]!, newestMs), '');
    const conflicts = [...themes.map((theme) => theme.members), other].flatMap((members) => conflictsAmong(items, members, terms));
    if (conflicts.length > 0) lines.push(...conflicts.map(conflictLine), '');
    for (const theme of themes) {
      lines.push(`**${theme.label}** (${theme.members.length})`, ...theme.members.map((index) => themedLine(items[index]!)), '');
    }
    if (other.length > 0) lines.push(themes.length === 0 ? '**Results**' : '**Other results**', ...other.map((index) => themedLine(items[index]!)), '');
    return `${lines.join('\n').trimEnd()}\n`;
  }

  const sites = new Set(items.map(sourceLabel)).size;
  const themeSummary = themes.length === 0 ? '' : ` Main themes: ${themes.map((theme) => `${theme.label} (${theme.members.length})`).join(', ')}.`;
  lines.push(`${items.length} results from ${sites} sites${providers.length === 0 ? '' : ` via ${providers.join(', ')}`}.${themeSummary} ${statement(items[0]!, newestMs)}`, '');
  const conflicts = themes.flatMap((theme) => conflictsAmong(items, theme.members, terms));
  if (conflicts.length > 0) lines.push(...conflicts.map(conflictLine), '');
  lines.push(`**Top ${TOP_COUNT} results:**`, '', ...items.slice(0, TOP_COUNT).map((item, index) => rankedLine(item, index + 1)), '');
  const themeHint = themes.length === 0 ? '' : ` Ask about a theme (${themes.map((theme) => theme.keyword).join(', ')}) to go deeper.`;
  lines.push(`Found ${items.length} results in total (${run.stats.retrieved} retrieved before merging copies)${providers.length === 0 ? '' : `, covering ${providers.join(', ')}`}; the other ${items.length - TOP_COUNT} are in latest-ingest.json.${themeHint}`);
  return `${lines.join('\n')}\n`;
}
