import { isStopWord, tokenize } from '../../../domain/text/tokenize.ts';

/**
 * Themes for the digest (spec 001 phase 5, 5–15 results): items grouped by a salient keyword they
 * share, not by provider. Salient = a title or summary word that is not a stop word (the ranking's
 * or THEME_STOP_WORDS), not a query
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

/**
 * Words that name no theme although the ranking's stop words let them through (they can still
 * matter for keyword coverage): English and Chinese adverbs, auxiliaries, quantities and time
 * fillers. A theme is a subject, never "仍然" (still) or "more".
 */
export const THEME_STOP_WORDS: ReadonlySet<string> = new Set([
  // English
  'new', 'more', 'most', 'less', 'least', 'still', 'now', 'yet', 'already', 'again', 'even', 'ever', 'never', 'always', 'often',
  'one', 'two', 'three', 'first', 'second', 'last', 'next', 'many', 'much', 'few', 'several', 'each', 'every', 'both', 'other', 'another',
  'after', 'before', 'while', 'during', 'since', 'until', 'between', 'through', 'across', 'against', 'among', 'within', 'because',
  'said', 'says', 'say', 'get', 'gets', 'got', 'make', 'makes', 'made', 'use', 'uses', 'used', 'using', 'like', 'well', 'way',
  'year', 'years', 'today', 'week', 'month', 'day', 'days', 'time', 'times', 'however', 'although', 'though', 'whether', 'just', 'really',
  // Chinese
  '仍然', '仍', '依然', '还是', '已经', '已', '正在', '将', '将会', '会', '能', '能够', '可以', '可能', '需要', '应该', '要', '想',
  '更', '最', '很', '非常', '比较', '更加', '越来越', '不', '不是', '没', '再', '又', '才', '刚', '曾', '曾经', '一直', '开始',
  '进行', '表示', '认为', '称', '目前', '现在', '今年', '去年', '明年', '今天', '日前', '近日', '最近', '同时', '此外', '另外',
  '但', '但是', '因为', '所以', '如果', '虽然', '而且', '以及', '以', '为', '由', '所', '让', '给', '等', '等等', '上', '中', '下',
  '个', '们', '些', '多', '少', '大', '小', '新', '其中', '这些', '那些', '这样', '那样', '通过', '对于', '方面', '之后', '之前',
]);

export const MAX_THEMES = 5;
const MIN_THEME_SIZE = 2;

function salientKeywords(item: ThemeInput, queryTerms: ReadonlySet<string>): Set<string> {
  const keywords = new Set<string>();
  for (const token of tokenize(`${item.title} ${item.summary ?? ''}`)) {
    if (isStopWord(token) || THEME_STOP_WORDS.has(token) || queryTerms.has(token) || /^\d+$/.test(token) || [...token].length < 2) continue;
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
