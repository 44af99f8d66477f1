import { foldText, isStopWord } from '../../../domain/text/tokenize.ts';

/**
 * Numeric claims in a text: a number with the unit it counts ("45 enhancements", "30 %",
 * "$5 million", "500 万 downloads"). Bare numbers are skipped on purpose: after a name they are
 * versions ("Deno 2") and alone they are mostly years, and comparing those across sources would
 * flag every article about another release as a disagreement.
 */
export interface NumericClaim {
  /** What is counted: the unit word, '%' or a currency. */
  unit: string;
  value: number;
  /** The claim as written, for the digest ("5 million users"). */
  text: string;
}

const SEGMENTER = new Intl.Segmenter('und', { granularity: 'word' });
const QUALIFIER = /^(?:\p{L}{3,}|\p{Script=Han}{2,})$/u;
const NUMBER = /^\d[\d,]*(?:\.\d+)?$/;
const MULTIPLIERS: Readonly<Record<string, number>> = { k: 1e3, thousand: 1e3, m: 1e6, million: 1e6, b: 1e9, bn: 1e9, billion: 1e9, 万: 1e4, 亿: 1e8 };
const CURRENCIES: Readonly<Record<string, string>> = { $: 'usd', '€': 'eur', '£': 'gbp', '¥': 'cny', '￥': 'cny' };
const SYMBOL_UNITS: Readonly<Record<string, string>> = { '%': '%', '％': '%' };
/** Nouns that follow version numbers ("Deno 2 release"), not counts. */
const NOT_UNITS = new Set(['release', 'releases', 'released', 'version', 'versions', 'update', 'updates', 'beta', 'alpha', 'preview', 'edition', 'series', 'generation', 'lts', 'rc']);
const PLAIN_UNITS = new Set(['percent', 'ms', 'seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'gb', 'mb', 'kb', 'tb', 'x', 'times', '倍', '秒', '毫秒', '元', '美元', '人', '次', '项', '个']);

/** `ignoredUnits`: words never taken as units, typically the query's own terms. */
export function extractNumericClaims(text: string, ignoredUnits: ReadonlySet<string> = new Set()): NumericClaim[] {
  const segments = [...SEGMENTER.segment(foldText(text))].map((segment) => segment.segment).filter((segment) => segment.trim() !== '');
  const claims: NumericClaim[] = [];
  for (let index = 0; index < segments.length; index++) {
    const current = segments[index]!;
    if (!NUMBER.test(current)) continue;
    let value = Number.parseFloat(current.replaceAll(',', ''));
    let end = index + 1;
    const multiplier = MULTIPLIERS[segments[end] ?? ''];
    if (multiplier !== undefined) {
      value *= multiplier;
      end++;
    }
    const previous = segments[index - 1] ?? '';
    const next = segments[end] ?? '';
    let unit: string | null = null;
    if (CURRENCIES[previous] !== undefined) unit = CURRENCIES[previous]!;
    else if (SYMBOL_UNITS[next] !== undefined) unit = SYMBOL_UNITS[next]!;
    else if (PLAIN_UNITS.has(next)) unit = next === 'percent' ? '%' : next;
    else if (/^\p{L}{3,}$/u.test(next) && !isStopWord(next) && !NOT_UNITS.has(next) && !ignoredUnits.has(next)) unit = next;
    if (unit === null) continue;
    // A share is only comparable with a share of the same thing: "30% faster" vs "30% smaller".
    if (unit === '%') {
      const qualifier = [segments[end + 1], segments[index - 1]].find((word) => word !== undefined && QUALIFIER.test(word) && !isStopWord(word));
      if (qualifier !== undefined) unit = `% ${qualifier}`;
    }
    const first = CURRENCIES[previous] !== undefined ? index - 1 : index;
    const last = CURRENCIES[previous] !== undefined && unit === CURRENCIES[previous] ? end - 1 : end;
    claims.push({ unit, value, text: segments.slice(first, last + 1).join(' ').replace(/^([$€£¥￥]) /, '$1').replace(/ %$/, '%') });
  }
  return claims;
}
