import { aliasAlternatives } from './name-aliases.ts';
import { foldText, hasAsciiToken, isCjkTerm, queryTerms, tokenizeFolded, tokenizesAsAscii } from '../text/tokenize.ts';

/**
 * Keyword coverage (0–1) of an item's title + snippet over every sub-query of a request.
 *
 * Coverage of one sub-query = share of its distinct content terms found in the text. The
 * sub-queries combine as 0.7 × best sub-query + 0.3 × coverage of the union of all their terms:
 * an item only has to answer one angle of the request to rank well ("Bun advantages" fully covers
 * one of "Bun vs Deno", "Bun advantages", "Deno advantages"), and touching several angles lifts
 * it a little further. Latin terms must match a whole token ("go" does not match "good"); CJK
 * terms match as substrings of the folded text, because the segmenter cuts Chinese differently
 * depending on the surrounding characters. A term also counts as found when the text spells it
 * another known way (name-aliases.ts: Postgres / PostgreSQL, k8s / Kubernetes, 向量数据库 / vector
 * database).
 */
export const BEST_SUB_QUERY_WEIGHT = 0.7;
export const UNION_WEIGHT = 0.3;

export interface PreparedQueries {
  /** Every distinct term across sub-queries. */
  readonly terms: readonly string[];
  /** Per sub-query, the indexes of its terms in `terms`; sub-queries without content terms are left out. */
  readonly subQueryTermIndexes: readonly (readonly number[])[];
  readonly tokenTermIndex: ReadonlyMap<string, number>;
  readonly cjkTermIndexes: readonly number[];
  /** Per term index, other spellings: each a list of terms that must all be in the text. */
  readonly alternatives: ReadonlyMap<number, readonly (readonly string[])[]>;
}

export function prepareQueries(subQueries: readonly string[]): PreparedQueries {
  const termIndex = new Map<string, number>();
  const subQueryTermIndexes: number[][] = [];
  for (const query of subQueries) {
    const indexes: number[] = [];
    for (const term of queryTerms(query)) {
      let index = termIndex.get(term);
      if (index === undefined) {
        index = termIndex.size;
        termIndex.set(term, index);
      }
      indexes.push(index);
    }
    if (indexes.length > 0) subQueryTermIndexes.push(indexes);
  }
  const terms = [...termIndex.keys()];
  const tokenTermIndex = new Map<string, number>();
  const cjkTermIndexes: number[] = [];
  terms.forEach((term, index) => (isCjkTerm(term) ? cjkTermIndexes.push(index) : tokenTermIndex.set(term, index)));
  const byTerm = aliasAlternatives(terms, subQueries);
  const alternatives = new Map<number, readonly (readonly string[])[]>();
  terms.forEach((term, index) => {
    const list = byTerm.get(term);
    if (list !== undefined) alternatives.set(index, list);
  });
  return { terms, subQueryTermIndexes, tokenTermIndex, cjkTermIndexes, alternatives };
}

export function keywordCoverage(queries: PreparedQueries, text: string): number {
  if (queries.terms.length === 0) return 0;
  const folded = foldText(text);
  const found = new Uint8Array(queries.terms.length);
  // Text whose tokens are its ASCII runs (nearly all) is searched for the few query terms instead of split into tokens.
  const ascii = tokenizesAsAscii(folded);
  if (ascii) {
    for (const [term, index] of queries.tokenTermIndex) if (hasAsciiToken(folded, term)) found[index] = 1;
  } else {
    for (const token of tokenizeFolded(folded)) {
      const index = queries.tokenTermIndex.get(token);
      if (index !== undefined) found[index] = 1;
    }
  }
  for (const index of queries.cjkTermIndexes) {
    if (folded.includes(queries.terms[index] ?? '')) found[index] = 1;
  }
  if (queries.alternatives.size > 0) {
    let tokens: Set<string> | null = null;
    for (const [index, alternatives] of queries.alternatives) {
      if (found[index] === 1) continue;
      if (!ascii) tokens ??= new Set(tokenizeFolded(folded));
      const present = tokens;
      const hasToken = (term: string) => (present === null ? hasAsciiToken(folded, term) : present.has(term));
      if (alternatives.some((terms) => terms.every((term) => (isCjkTerm(term) ? folded.includes(term) : hasToken(term))))) found[index] = 1;
    }
  }
  let best = 0;
  for (const indexes of queries.subQueryTermIndexes) {
    let hits = 0;
    for (const index of indexes) hits += found[index] ?? 0;
    best = Math.max(best, hits / indexes.length);
  }
  let unionHits = 0;
  for (const hit of found) unionHits += hit;
  return BEST_SUB_QUERY_WEIGHT * best + UNION_WEIGHT * (unionHits / queries.terms.length);
}
