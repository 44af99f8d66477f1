/**
 * Names a query and a result may spell differently: "Postgres" / "PostgreSQL", "k8s" /
 * "Kubernetes", "MCP" / "Model Context Protocol", and a Chinese term / its usual English phrase
 * ("向量数据库" / "vector database"). The data is the intent code's own: the technical synonym table
 * (technical-synonyms.json; ambiguous entries such as "go" are left out, since a page about the
 * board game must not match Golang) and the Chinese–English glossary (zh-en-glossary.json), without
 * the intent framing words.
 *
 * For each query term, the alternatives that also count as finding it: a list of terms that must
 * all be in the text.
 */
import glossaryFile from '../intent/zh-en-glossary.json' with { type: 'json' };
import synonymFile from '../intent/technical-synonyms.json' with { type: 'json' };
import { SIGNAL_RULES } from '../intent/signal-rules.ts';
import { queryTerms } from '../text/tokenize.ts';

/**
 * Intent framing words (官网, 文档, 新闻, 教程 …: the intent rules' cues) are not names: spelled in
 * English they match every generic "official documentation" or "news" page, so they keep only
 * their own spelling.
 */
const FRAMING = SIGNAL_RULES.filter((rule) => rule.role === 'cue').map((rule) => new RegExp(rule.pattern.source, 'u'));
const isFraming = (term: string) => FRAMING.some((pattern) => pattern.test(term));

export type Alternatives = ReadonlyMap<string, readonly (readonly string[])[]>;

interface AliasData {
  synonyms: readonly { term: string; canonical: string; ambiguous?: boolean }[];
  glossary: Readonly<Record<string, string>>;
}

function add(map: Map<string, string[][]>, term: string, alternative: string[]): void {
  if (alternative.length === 0 || (alternative.length === 1 && alternative[0] === term)) return;
  const list = map.get(term) ?? [];
  if (!list.some((existing) => existing.join('\u0000') === alternative.join('\u0000'))) list.push(alternative);
  map.set(term, list);
}

const HAN_RUN = /\p{Script=Han}+/gu;

/**
 * Alternatives for the terms of one request's queries (all sub-queries' terms together). The
 * sub-queries themselves are read for whole Chinese phrases the segmenter cut into pieces
 * (向量数据库 → 向量 | 数据 | 库): each piece is also found by the phrase's English (vector database).
 */
/** A synonym entry as query terms: one short term and the words of its spelled-out name. */
interface TokenizedSynonym {
  shortTerm: string;
  long: string[];
}

/**
 * Tokenized once per alias data set: a request's terms are matched against every entry, and
 * tokenizing the whole table on each request was most of the cost of preparing a query.
 */
const tokenizedSynonyms = new WeakMap<AliasData, readonly TokenizedSynonym[]>();

function synonymsOf(data: AliasData): readonly TokenizedSynonym[] {
  const cached = tokenizedSynonyms.get(data);
  if (cached !== undefined) return cached;
  const tokenized: TokenizedSynonym[] = [];
  for (const entry of data.synonyms) {
    if (entry.ambiguous === true) continue;
    const short = queryTerms(entry.term);
    const long = queryTerms(entry.canonical);
    if (short.length !== 1 || long.length === 0) continue;
    tokenized.push({ shortTerm: short[0] as string, long });
  }
  tokenizedSynonyms.set(data, tokenized);
  return tokenized;
}

export function aliasAlternatives(terms: readonly string[], subQueries: readonly string[] = [], data: AliasData = SHIPPED_ALIAS_DATA): Alternatives {
  const termSet = new Set(terms);
  const map = new Map<string, string[][]>();
  for (const { shortTerm, long } of synonymsOf(data)) {
    if (termSet.has(shortTerm)) add(map, shortTerm, [...long]);
    // The spelled-out name in the query is found by its abbreviation when every word of it was asked for.
    // Not when the short form is one of the words ("tailwind" → "Tailwind CSS"): "tailwind" alone is not "css".
    if (!long.includes(shortTerm) && long.every((term) => termSet.has(term))) for (const term of long) add(map, term, [shortTerm]);
  }
  for (const term of terms) {
    const english = data.glossary[term];
    if (english !== undefined && !isFraming(term)) add(map, term, queryTerms(english));
  }
  for (const query of subQueries) {
    for (const [run] of query.normalize('NFKC').matchAll(HAN_RUN)) {
      const english = data.glossary[run];
      if (english === undefined || isFraming(run)) continue;
      const alternative = queryTerms(english);
      for (const term of terms) if (run.includes(term) && term !== run) add(map, term, alternative);
    }
  }
  return map;
}

export const SHIPPED_ALIAS_DATA: AliasData = { synonyms: synonymFile.entries, glossary: glossaryFile.terms };
