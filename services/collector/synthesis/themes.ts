import { isStopWord, tokenize } from '../../scorer/ranking/tokenize.ts';

/**
 * Themes for the digest (spec 001 phase 5, 5–15 results): items grouped by a salient keyword they
 * share, not by provider. Salient = a title or summary word that is not a stop word, not a query
 * term (every item shares those), not a number, and found in at least two items but not in all.
 * Greedy and deterministic: take the keyword shared by the most still-ungrouped items (ties: the
 * one whose items rank best, then alphabetical), make it a theme, repeat; what is left is "other".
 */
export interface ThemeInput {
  title: string;
  summary: string | null;
}

export interface Theme {
  /** The keyword, plus the word most of its items also share when there is one ("deno · npm"). */
  label: string;
  keyword: string;
  /** Indexes into the input, best-ranked first. */
  members: number[];
}

export const MAX_THEMES = 5;
const MIN_THEME_SIZE = 2;

function salientKeywords(item: ThemeInput, queryTerms: ReadonlySet<string>): Set<string> {
  const keywords = new Set<string>();
  for (const token of tokenize(`${item.title} ${item.summary ?? ''}`)) {
    if (isStopWord(token) || queryTerms.has(token) || /^\d+$/.test(token) || [...token].length < 2) continue;
    keywords.add(token);
  }
  return keywords;
}

export function clusterByTheme(items: readonly ThemeInput[], queryTerms: ReadonlySet<string>): { themes: Theme[]; other: number[] } {
  const keywordsByItem = items.map((item) => salientKeywords(item, queryTerms));
  // A word in every item separates nothing: it is neither a theme nor part of a label.
  const documentFrequency = new Map<string, number>();
  for (const keywords of keywordsByItem) for (const keyword of keywords) documentFrequency.set(keyword, (documentFrequency.get(keyword) ?? 0) + 1);
  for (const keywords of keywordsByItem) for (const keyword of keywords) if (documentFrequency.get(keyword) === items.length) keywords.delete(keyword);
  const unassigned = new Set(items.map((_item, index) => index));
  const themes: Theme[] = [];
  while (themes.length < MAX_THEMES) {
    const membersByKeyword = new Map<string, number[]>();
    for (const index of unassigned) {
      for (const keyword of keywordsByItem[index]!) {
        const members = membersByKeyword.get(keyword) ?? [];
        members.push(index);
        membersByKeyword.set(keyword, members);
      }
    }
    let best: { keyword: string; members: number[]; rankSum: number } | null = null;
    for (const [keyword, members] of membersByKeyword) {
      if (members.length < MIN_THEME_SIZE) continue;
      const rankSum = members.reduce((sum, index) => sum + index, 0);
      const better =
        best === null ||
        members.length > best.members.length ||
        (members.length === best.members.length && (rankSum < best.rankSum || (rankSum === best.rankSum && keyword < best.keyword)));
      if (better) best = { keyword, members, rankSum };
    }
    if (best === null) break;
    const members = [...best.members].sort((a, b) => a - b);
    for (const index of members) unassigned.delete(index);
    themes.push({ label: themeLabel(best.keyword, members, keywordsByItem), keyword: best.keyword, members });
  }
  themes.sort((a, b) => (a.members[0] ?? 0) - (b.members[0] ?? 0));
  return { themes, other: [...unassigned].sort((a, b) => a - b) };
}

function themeLabel(keyword: string, members: readonly number[], keywordsByItem: readonly Set<string>[]): string {
  const counts = new Map<string, number>();
  for (const index of members) {
    for (const other of keywordsByItem[index]!) if (other !== keyword) counts.set(other, (counts.get(other) ?? 0) + 1);
  }
  const companion = [...counts]
    .filter(([, count]) => count === members.length)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))[0];
  return companion === undefined ? keyword : `${keyword} · ${companion[0]}`;
}
