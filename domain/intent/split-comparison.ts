import type { DetectedSignal } from './detect-signals.ts';
import { segmentQuery, trimEdges } from './query-topic.ts';

export interface ComparedSubjects {
  /** The things compared, as typed, in order ("Bun", "Deno"). */
  subjects: string[];
  /** What they are compared for ("for microservices", "手续费低"); empty when nothing is left. */
  context: string;
}

// Words after which the first compared thing starts: "用 k8s 还是 swarm", "is duckdb faster than".
// A single Chinese verb only counts before a space or Latin text: 用户 and 选项 are words, not lead-ins.
const LEAD_IN = /(?:^|\s)(?:between|of|is|are|use|using|choose|pick|learn|buy|get|try)\s|[用选坐买学装考读去](?=\s|[^\p{Script=Han}])|选择|使用/gu;
// Where a trailing purpose starts on the last compared thing: "go for microservices".
const PURPOSE = /\s(?:for|in|on|with|when|at|under|as|to)\s.+$/u;

function cutLeadIn(text: string): { subject: string; prefix: string } {
  let leadIn: RegExpExecArray | undefined;
  for (const match of text.matchAll(LEAD_IN)) leadIn = match;
  if (leadIn === undefined) return { subject: text, prefix: '' };
  const cut = leadIn.index + leadIn[0].length;
  if (trimEdges(text.slice(cut)) === '') return { subject: text, prefix: '' };
  // The lead-in verb itself ("用", "choose") is framing, not context.
  return { subject: text.slice(cut), prefix: text.slice(0, leadIn.index) };
}

function cutPurpose(text: string): { subject: string; suffix: string } {
  const match = PURPOSE.exec(text);
  if (match === null || trimEdges(text.slice(0, match.index)) === '') return { subject: text, suffix: '' };
  return { subject: text.slice(0, match.index), suffix: match[0] };
}

// A name as people type it: capitalised, with a digit, or Chinese ("gRPC", "S3", "华为"), not "remote".
const LOOKS_LIKE_A_NAME = /^(?:[A-Z]|.*\d|\p{Script=Han})|[A-Z]/u;

function pairWithoutSeparator(text: string): string[] {
  const joined = text.split(/\s(?:and|&)\s/u);
  if (joined.length >= 2) return joined;
  // "gRPC REST tradeoffs": two bare names side by side; "remote work" is one thing.
  const words = trimEdges(text).split(' ');
  return words.length === 2 && words.every((word) => LOOKS_LIKE_A_NAME.test(word)) ? words : [];
}

/**
 * The things a comparison query weighs against each other, or null when they cannot be told apart
 * ("ETF mutual fund difference"). Separators ("vs", "or", "还是", "faster than") join the compared
 * things; framing words ("哪个", "pros and cons of") end them; what is left is context.
 */
export function splitComparison(query: string, signals: readonly DetectedSignal[]): ComparedSubjects | null {
  const segments = segmentQuery(query, signals);
  const parts: Array<{ text: string; joinedToNext: boolean }> = [];
  let current = '';
  for (const segment of segments) {
    if (segment.kind === 'text') {
      current += segment.text;
      continue;
    }
    parts.push({ text: current, joinedToNext: segment.kind === 'joint' });
    current = '';
  }
  parts.push({ text: current, joinedToNext: false });

  const chainStart = parts.findIndex((part, index) => part.joinedToNext && trimEdges(part.text) !== '' && trimEdges(parts[index + 1]?.text ?? '') !== '');
  if (chainStart === -1) {
    for (const [index, part] of parts.entries()) {
      const pair = pairWithoutSeparator(part.text).map(trimEdges).filter((subject) => subject !== '');
      if (pair.length < 2) continue;
      const context = parts.filter((_, other) => other !== index).map((other) => trimEdges(other.text)).filter((text) => text !== '');
      return { subjects: pair, context: context.join(' ') };
    }
    return null;
  }
  let chainEnd = chainStart + 1;
  while (parts[chainEnd]?.joinedToNext === true && trimEdges(parts[chainEnd + 1]?.text ?? '') !== '') chainEnd += 1;

  const chain = parts.slice(chainStart, chainEnd + 1).map((part) => part.text);
  const first = cutLeadIn(chain[0] ?? '');
  const last = cutPurpose(chain.at(-1) ?? '');
  const subjects = [first.subject, ...chain.slice(1, -1), last.subject].map(trimEdges);
  const context = [
    trimEdges(first.prefix),
    ...parts.slice(0, chainStart).map((part) => trimEdges(part.text)),
    trimEdges(last.suffix) === '' ? '' : last.suffix.trim(),
    ...parts.slice(chainEnd + 1).map((part) => trimEdges(part.text)),
  ].filter((text) => text !== '');
  return { subjects, context: context.join(' ') };
}
