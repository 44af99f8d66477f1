import type { DetectedSignal } from './detect-signals.ts';
import { tidyQuery } from './normalize-query.ts';

/**
 * The query cut at its signals: `text` is topic, `joint` a comparison separator ("vs", "还是"),
 * `break` where framing words were ("how to", "教程").
 */
export type QuerySegment = { kind: 'text' | 'joint'; text: string } | { kind: 'break' };

export function segmentQuery(query: string, signals: readonly DetectedSignal[]): QuerySegment[] {
  const kinds: Array<'text' | 'joint' | 'break'> = Array.from({ length: query.length }, () => 'text');
  for (const signal of signals) {
    if (signal.role !== 'cue') continue;
    for (const [start, end] of signal.framing) for (let unit = start; unit < end; unit += 1) if (kinds[unit] === 'text') kinds[unit] = 'break';
  }
  for (const signal of signals) {
    if (signal.role !== 'separator' || signal.intent !== 'comparison') continue;
    for (let unit = signal.span[0]; unit < signal.span[1]; unit += 1) kinds[unit] = 'joint';
  }
  const segments: QuerySegment[] = [];
  let start = 0;
  for (let unit = 1; unit <= query.length; unit += 1) {
    if (unit < query.length && kinds[unit] === kinds[start]) continue;
    const kind = kinds[start];
    if (kind === 'break') segments.push({ kind });
    else if (kind !== undefined) segments.push({ kind, text: query.slice(start, unit) });
    start = unit;
  }
  return segments;
}

// Words that frame rather than name a topic when they are left at its edges.
const ENGLISH_EDGE_WORDS = new Set([
  'an', 'the', 'of', 'for', 'in', 'on', 'at', 'to', 'with', 'about', 'is', 'are', 'was', 'were', 'be', 'been',
  'do', 'does', 'did', 'i', 'me', 'my', 'we', 'our', 'you', 'your', 'it', 'its', 'this', 'that', 'these', 'those',
  'there', 'what', 'how', 'why', 'which', 'who', 'when', 'where', 'and', 'or', 'by', 'from', 'into', 'any', 'some',
  'please', 'can', 'could', 'should', 'would', 'will', 'vs', 'versus', 'yet', 'now', 'so', 'has', 'have', 'had',
]);
// "a" only in lower case: "A 股" is a market, not an article.
const isEdgeWord = (word: string) => word === 'a' || ENGLISH_EDGE_WORDS.has(word.toLowerCase());
const CHINESE_EDGE_PHRASES = ['请问', '我想', '我要', '一下', '什么', '哪些', '一个', '可以', '应该'];
// Single characters are only framing where a word cannot continue: a trailing particle, or a
// leading preposition followed by a space or Latin text ("用 k8s", "在Mac") — never 用户 or 对象.
const CHINESE_TRAILING_PARTICLES = /[的了吗呢吧啊呀嘛]$/u;
const CHINESE_LEADING_PREPOSITION = /^[的了是有在和与跟把对给用选去](?=\s|[^\p{Script=Han}]|$)/u;
const EDGE_PUNCTUATION = /^[\s?!.,;:'"()[\]，。？！、；：“”‘’（）]+|[\s?!.,;:'"()[\]，。？！、；：“”‘’（）]+$/gu;

/** The text without framing words and punctuation at either end ("is duckdb" → "duckdb", "的分区" → "分区"). */
export function trimEdges(text: string): string {
  let current = tidyQuery(text);
  for (;;) {
    const before = current;
    current = current.replace(EDGE_PUNCTUATION, '');
    const words = current.split(' ');
    while (words.length > 0 && isEdgeWord(words[0] ?? '')) words.shift();
    while (words.length > 0 && isEdgeWord(words.at(-1) ?? '')) words.pop();
    current = words.join(' ');
    for (const edge of CHINESE_EDGE_PHRASES) {
      if (current.startsWith(edge)) current = current.slice(edge.length);
      if (current.endsWith(edge)) current = current.slice(0, -edge.length);
    }
    current = current.replace(CHINESE_TRAILING_PARTICLES, '').replace(CHINESE_LEADING_PREPOSITION, '').trim();
    if (current === before) return current;
  }
}

/** What the query is about, as typed, with every framing signal removed: "how to set up postgres replication" → "set up postgres replication". */
export function extractTopic(query: string, signals: readonly DetectedSignal[]): string {
  const kept = segmentQuery(query, signals).map((segment) => (segment.kind === 'break' ? ' ' : segment.text)).join('');
  return trimEdges(kept);
}
