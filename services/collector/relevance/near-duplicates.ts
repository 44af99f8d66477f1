/**
 * Near-duplicate detection measured on the judged set's labelled pairs (docs/relevance-rubric.md):
 * two rows of a pool at different canonical URLs are a positive pair when they carry the same
 * group (a syndicated copy, mirror or repost), a negative pair otherwise. A negative pair whose
 * titles carry different version numbers is a cross-version pair (release notes of 2.5 and 2.6).
 * Every distinct URL of a pool goes through dedupeItems as the collector would run it.
 */
import { canonicalUrl } from '../../../domain/urls/canonical-url.ts';
import { dedupeItems, type DedupeOptions } from '../../../domain/dedupe/dedupe-items.ts';
import type { JudgedPool, JudgedResult } from './judged-set.ts';

export interface PairOutcome {
  pool: string;
  a: string;
  b: string;
}

export interface NearDuplicateReport {
  positivePairs: number;
  foundPairs: number;
  recall: number;
  negativePairs: number;
  falseMerges: number;
  crossVersionPairs: number;
  crossVersionFalseMerges: number;
  misses: PairOutcome[];
  wrongMerges: PairOutcome[];
}

const VERSION = /\bv?(\d+(?:\.\d+)+)\b/gu;
export function versionsOf(text: string): string[] {
  return [...text.matchAll(VERSION)].map((match) => match[1]!);
}

function differentVersions(a: JudgedResult, b: JudgedResult): boolean {
  const left = versionsOf(a.title);
  const right = versionsOf(b.title);
  return left.length > 0 && right.length > 0 && left.join(' ') !== right.join(' ');
}

export function evaluateNearDuplicates(pools: readonly JudgedPool[], options: DedupeOptions = {}): NearDuplicateReport {
  const report: NearDuplicateReport = { positivePairs: 0, foundPairs: 0, recall: 0, negativePairs: 0, falseMerges: 0, crossVersionPairs: 0, crossVersionFalseMerges: 0, misses: [], wrongMerges: [] };
  for (const pool of pools) {
    const byUrl = new Map<string, JudgedResult>();
    for (const result of pool.results) {
      const key = canonicalUrl(result.url) ?? result.url;
      if (!byUrl.has(key)) byUrl.set(key, result);
    }
    const rows = [...byUrl.values()];
    const clusters = dedupeItems(rows.map((result) => ({ id: `r${result.row}`, url: result.url, provider: result.provider, title: result.title, text: result.snippet, score: null })), options);
    const clusterOf = new Map<string, number>();
    clusters.forEach((cluster, index) => {
      clusterOf.set(cluster.item.id, index);
      for (const merged of cluster.merged) clusterOf.set(merged.id, index);
    });
    for (let i = 0; i < rows.length; i++) {
      for (let j = i + 1; j < rows.length; j++) {
        const a = rows[i]!;
        const b = rows[j]!;
        const merged = clusterOf.get(`r${a.row}`) === clusterOf.get(`r${b.row}`);
        const pair = { pool: pool.id, a: a.url, b: b.url };
        if (a.doc === b.doc) {
          report.positivePairs++;
          if (merged) report.foundPairs++;
          else report.misses.push(pair);
        } else {
          report.negativePairs++;
          const crossVersion = differentVersions(a, b);
          if (crossVersion) report.crossVersionPairs++;
          if (merged) {
            report.falseMerges++;
            if (crossVersion) report.crossVersionFalseMerges++;
            report.wrongMerges.push(pair);
          }
        }
      }
    }
  }
  report.recall = report.positivePairs === 0 ? 1 : report.foundPairs / report.positivePairs;
  return report;
}
