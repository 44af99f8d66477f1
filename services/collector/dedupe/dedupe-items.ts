import { canonicalUrl, type CanonicalHints } from '../../../domain/urls/canonical-url.ts';
import { isStopWord, tokenize } from '../../../domain/text/tokenize.ts';
import { featureHash, fingerprintBands, popcount32, simhashOfFeatures, type Fingerprint } from './simhash.ts';
import { translationKey } from './translation-key.ts';

/**
 * Per-run dedupe: copies of one document merge into one item that keeps the best-ranked copy and
 * lists every copy as a source.
 *
 * 1. Exact: copies whose canonical URLs are equal (see canonicalUrl) merge.
 * 2. Translation: a documentation file and its sibling translation (`README.md`,
 *    `README.zh-CN.md`) merge, by URL (translationKey), since their texts share no words.
 * 3. Near-duplicate: syndicated copies at different URLs, on any domain, merge when the SimHash
 *    fingerprints of their title + text are at most `hammingThreshold` bits apart, or when most of
 *    the shorter text's words are in the other (overlap ≥ `overlapThreshold` of at least
 *    MIN_SHARED_WORDS words: a mirror that adds "Originally published on …" or cuts the snippet
 *    elsewhere moves a fingerprint more than it moves the shared words). Version numbers protect
 *    releases: two items whose titles (else texts) name different versions (2.5 / 2.6, 18.0 /
 *    18.1) never merge as near-duplicates, however alike their text. Texts with fewer than
 *    `minContentTokens` content words are never merged this way: a fingerprint of five words is
 *    noise, and two "Release notes" titles without snippets are not the same document.
 *
 * Items are visited best first (score descending, then canonical URL and content hash; without
 * scores, provider order), and
 * each joins the best-ranked existing cluster it matches, so the kept copy is always the
 * highest-scored one and a chain A≈B≈C cannot drag an unrelated C into A's cluster. The
 * fingerprint is cut into `hammingThreshold + 1` bands: two fingerprints within the threshold
 * agree on at least one whole band (pigeonhole), so only items sharing a band bucket are compared
 * instead of all pairs.
 */
export interface DedupeCandidate {
  id: string;
  url: string | null;
  canonicalHints?: CanonicalHints;
  /** The provider that returned this copy (brave, exa, rss …). */
  provider: string;
  title: string;
  /** The text compared for near-duplicates: content when fetched, else summary or snippet. */
  text: string;
  /** Ranking score; null when the request had no intent (provider order is kept). */
  score: number | null;
  /** The scorer's hash of the text: breaks ties between equal scores after the canonical URL. */
  contentHash?: string;
}

export interface SourceRef {
  provider: string;
  url: string | null;
  id: string;
}

export type MergeReason = 'canonical_url' | 'translation' | 'near_duplicate';

export interface DedupedItem<T extends DedupeCandidate> {
  /** The kept copy: the best-ranked one. */
  item: T;
  canonicalUrl: string | null;
  /** Every copy, kept copy first, then in rank order; one entry per distinct provider + URL. */
  sources: SourceRef[];
  /** Ids of the copies merged into this item, with why each merged. */
  merged: { id: string; reason: MergeReason }[];
}

export interface DedupeOptions {
  /** Max differing bits of 64 for a near-duplicate (default 6). */
  hammingThreshold?: number;
  /** Min distinct non-stop-word tokens before a text takes part in near-duplicate matching (default 8). */
  minContentTokens?: number;
  /** Min share of the shorter text's distinct words found in the other for a word-overlap match (default 0.8). */
  overlapThreshold?: number;
}

export const DEFAULT_HAMMING_THRESHOLD = 6;
export const DEFAULT_MIN_CONTENT_TOKENS = 8;
export const DEFAULT_OVERLAP_THRESHOLD = 0.8;
/** Shared words a word-overlap match needs at least. */
export const MIN_SHARED_WORDS = 8;
/** Words in more items than this are not used to find overlap candidates (they would make every item a candidate). */
export const OVERLAP_INDEX_MAX_ITEMS = 50;

const VERSION_NUMBER = /(?<![\p{L}\p{N}.])v?(\d+(?:\.\d+)+)(?![\p{N}]|\.\d)/gu;

/** The version numbers an item names: its title's, else its text's ("Deno 2.6", "PostgreSQL 18.1"). */
export function versionKey(title: string, text: string): string {
  const from = (value: string) => [...new Set([...value.matchAll(VERSION_NUMBER)].map((match) => match[1]!))].sort().join(' ');
  return from(title) || from(text);
}

/** Different releases: both name versions, and not the same ones. */
export function differentVersions(left: string, right: string): boolean {
  return left !== '' && right !== '' && left !== right;
}

/** What rankOrder reads: the score, and content-derived keys that break ties between equal scores. */
export interface RankKeys {
  id: string;
  score: number | null;
  /** Canonical URL of the item; null (or absent) sorts after every URL. */
  canonicalUrl?: string | null;
  /** The scorer's hash of the item's text. */
  contentHash?: string;
}

const NO_KEY = '\uffff';

/**
 * Equal scores: canonical URL, then content hash, then id. The keys come from the evidence, never
 * from the run, so the same evidence is ordered (and cut at max_items) the same way in every run,
 * whatever order its messages arrived in.
 */
function compareTieKeys(a: RankKeys, b: RankKeys): number {
  const urlA = a.canonicalUrl ?? NO_KEY;
  const urlB = b.canonicalUrl ?? NO_KEY;
  if (urlA !== urlB) return urlA < urlB ? -1 : 1;
  const hashA = a.contentHash ?? NO_KEY;
  const hashB = b.contentHash ?? NO_KEY;
  if (hashA !== hashB) return hashA < hashB ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? -1 : 1;
}

/** Best first: score descending, then the content-derived tie keys; null scores after scored ones, in input order. */
export function rankOrder<T extends RankKeys>(items: readonly T[]): number[] {
  const order = items.map((_item, index) => index);
  order.sort((left, right) => {
    const a = items[left]!;
    const b = items[right]!;
    if (a.score === null || b.score === null) {
      if (a.score !== b.score) return a.score === null ? 1 : -1;
      return left - right;
    }
    if (a.score !== b.score) return b.score - a.score;
    return compareTieKeys(a, b) || left - right;
  });
  return order;
}

/**
 * Words in more than this share of a run's items (and in at least RUN_COMMON_MIN_ITEMS) are left
 * out of near-duplicate fingerprints: they are the run's topic ("kubernetes" in every result), say
 * nothing about which document an item is, and would pull every fingerprint towards the same bits
 * (large band buckets, slow matching, false merges).
 */
export const RUN_COMMON_SHARE = 0.1;
export const RUN_COMMON_MIN_ITEMS = 3;

/**
 * Candidates for near-duplicate matching: their fingerprints and words, or null when the text is too short.
 * Words are interned to integer ids and hashed once per distinct word, so 100k items cost one
 * tokenization each and little garbage. Every item's word ids live in one shared array and its
 * distinct words are views into one shared buffer: a typed array of its own per item was one
 * malloc'd backing store each, 200k of them on 100k results.
 */
interface NearDuplicateFeatures {
  /** Null when every word is one of the run's common words (see RUN_COMMON_SHARE): word overlap still applies. */
  fingerprint: Fingerprint | null;
  /** Distinct content word ids (stop words left out), sorted. */
  words: Int32Array;
}

function nearDuplicateFeatures(items: readonly DedupeCandidate[], minContentTokens: number): { features: (NearDuplicateFeatures | null)[]; documentFrequency: readonly number[] } {
  const vocabulary = new Map<string, number>();
  const wordHighs: number[] = [];
  const wordLows: number[] = [];
  const documentFrequency: number[] = [];
  const lastSeenIn: number[] = [];
  // Item i's word ids, in text order, are allIds[idStarts[i] .. idStarts[i + 1]); a too-short text is marked in tooShort.
  const allIds: number[] = [];
  const idStarts = new Int32Array(items.length + 1);
  const tooShort = new Uint8Array(items.length);
  items.forEach((item, itemIndex) => {
    const start = allIds.length;
    for (const token of tokenize(`${item.title} ${item.text}`)) {
      if (isStopWord(token)) continue;
      let id = vocabulary.get(token);
      if (id === undefined) {
        id = vocabulary.size;
        vocabulary.set(token, id);
        const { high, low } = featureHash(token);
        wordHighs.push(high);
        wordLows.push(low);
        documentFrequency.push(0);
        lastSeenIn.push(-1);
      }
      allIds.push(id);
    }
    idStarts[itemIndex + 1] = allIds.length;
    let distinct = 0;
    for (let k = start; k < allIds.length; k++) {
      const id = allIds[k]!;
      if (lastSeenIn[id] === itemIndex) continue;
      lastSeenIn[id] = itemIndex;
      distinct++;
    }
    if (distinct < minContentTokens) {
      tooShort[itemIndex] = 1;
      return;
    }
    for (let k = start; k < allIds.length; k++) {
      const id = allIds[k]!;
      if (lastSeenIn[id] !== itemIndex) continue;
      documentFrequency[id]!++;
      lastSeenIn[id] = -2 - itemIndex;
    }
  });
  const commonAbove = Math.max(RUN_COMMON_MIN_ITEMS, Math.floor(RUN_COMMON_SHARE * items.length));
  const highs: number[] = [];
  const lows: number[] = [];
  const distinctWords = new Int32Array(allIds.length);
  let distinctEnd = 0;
  const features = items.map((_item, itemIndex): NearDuplicateFeatures | null => {
    if (tooShort[itemIndex] === 1) return null;
    const start = idStarts[itemIndex]!;
    const end = idStarts[itemIndex + 1]!;
    const wordsStart = distinctEnd;
    let count = 0;
    for (let k = start; k < end; k++) {
      const id = allIds[k]!;
      // Marks distinct words with a value no counting pass above left behind.
      if (lastSeenIn[id] !== items.length + itemIndex) {
        lastSeenIn[id] = items.length + itemIndex;
        distinctWords[distinctEnd++] = id;
      }
      if (documentFrequency[id]! > commonAbove) continue;
      highs[count] = wordHighs[id]!;
      lows[count] = wordLows[id]!;
      count++;
    }
    // Word overlap uses every content word: the run's common words are most of what two copies share.
    // A text made only of them (a specification whose sentence every version repeats) has no
    // fingerprint, but its copies can still be found by overlap, with versions kept apart.
    return { fingerprint: count === 0 ? null : simhashOfFeatures(highs, lows, count), words: distinctWords.subarray(wordsStart, distinctEnd).sort() };
  });
  return { features, documentFrequency };
}

/** Distinct words two sorted id lists share. */
function sharedWords(left: Int32Array, right: Int32Array): number {
  let shared = 0;
  let i = 0;
  let j = 0;
  while (i < left.length && j < right.length) {
    if (left[i] === right[j]) {
      shared++;
      i++;
      j++;
    } else if (left[i]! < right[j]!) i++;
    else j++;
  }
  return shared;
}

export function dedupeItems<T extends DedupeCandidate>(items: readonly T[], options: DedupeOptions = {}): DedupedItem<T>[] {
  const threshold = options.hammingThreshold ?? DEFAULT_HAMMING_THRESHOLD;
  const minContentTokens = options.minContentTokens ?? DEFAULT_MIN_CONTENT_TOKENS;
  const bands = threshold + 1;
  const overlapThreshold = options.overlapThreshold ?? DEFAULT_OVERLAP_THRESHOLD;
  const { features, documentFrequency } = nearDuplicateFeatures(items, minContentTokens);
  const versions = items.map((item) => versionKey(item.title, item.text));
  const leaderWords: (Int32Array | null)[] = [];
  const leaderVersion: string[] = [];
  // Word id → clusters whose leader has it (only words in at most OVERLAP_INDEX_MAX_ITEMS items).
  const wordLeaders = new Map<number, number[]>();
  const clusters: (DedupedItem<T> & { sourceKeys: Set<string> })[] = [];
  // Leader fingerprints by cluster index, in flat arrays for a tight comparison loop.
  const leaderHigh: number[] = [];
  const leaderLow: number[] = [];
  const clusterByUrl = new Map<string, number>();
  const clusterByTranslation = new Map<string, number>();
  // One map per band: band value → clusters whose leader has that value, in creation (= rank) order.
  const bandBuckets = Array.from({ length: bands }, () => new Map<number, number[]>());

  const canonicals = items.map((candidate) => (candidate.url === null ? null : canonicalUrl(candidate.url, candidate.canonicalHints)));
  const keys = items.map((candidate, index) => ({ id: candidate.id, score: candidate.score, canonicalUrl: canonicals[index], contentHash: candidate.contentHash }));
  for (const index of rankOrder(keys)) {
    const candidate = items[index]!;
    const canonical = canonicals[index] ?? null;
    const feature = features[index] ?? null;
    const fingerprint = feature?.fingerprint ?? null;
    const version = versions[index]!;
    const bandValues = fingerprint === null ? null : fingerprintBands(fingerprint, bands);
    const translation = canonical === null ? null : translationKey(canonical);
    let clusterIndex = canonical === null ? undefined : clusterByUrl.get(canonical);
    let reason: MergeReason = 'canonical_url';
    if (clusterIndex === undefined && translation !== null) {
      clusterIndex = clusterByTranslation.get(translation);
      reason = 'translation';
    }
    if (clusterIndex === undefined && feature !== null) {
      const sameRelease = (cluster: number) => !differentVersions(version, leaderVersion[cluster]!);
      if (fingerprint !== null && bandValues !== null) clusterIndex = closestEarlierCluster(fingerprint, bandValues, bandBuckets, leaderHigh, leaderLow, threshold, sameRelease);
      clusterIndex ??= overlappingEarlierCluster(feature.words, documentFrequency, wordLeaders, leaderWords, overlapThreshold, sameRelease);
      reason = 'near_duplicate';
    }
    const source: SourceRef = { provider: candidate.provider, url: candidate.url, id: candidate.id };
    const sourceKey = `${candidate.provider}\u0000${candidate.url ?? ''}`;
    if (clusterIndex !== undefined) {
      const cluster = clusters[clusterIndex]!;
      cluster.merged.push({ id: candidate.id, reason });
      if (!cluster.sourceKeys.has(sourceKey)) {
        cluster.sourceKeys.add(sourceKey);
        cluster.sources.push(source);
      }
      if (canonical !== null && !clusterByUrl.has(canonical)) clusterByUrl.set(canonical, clusterIndex);
      if (translation !== null && !clusterByTranslation.has(translation)) clusterByTranslation.set(translation, clusterIndex);
      continue;
    }
    const newIndex = clusters.length;
    clusters.push({ item: candidate, canonicalUrl: canonical, sources: [source], merged: [], sourceKeys: new Set([sourceKey]) });
    leaderHigh.push(fingerprint?.high ?? 0);
    leaderLow.push(fingerprint?.low ?? 0);
    leaderWords.push(feature?.words ?? null);
    leaderVersion.push(version);
    if (feature !== null) {
      for (const word of feature.words) {
        if (documentFrequency[word]! > OVERLAP_INDEX_MAX_ITEMS) continue;
        const leaders = wordLeaders.get(word);
        if (leaders === undefined) wordLeaders.set(word, [newIndex]);
        else leaders.push(newIndex);
      }
    }
    if (canonical !== null) clusterByUrl.set(canonical, newIndex);
    if (translation !== null) clusterByTranslation.set(translation, newIndex);
    bandValues?.forEach((value, band) => {
      const bucket = bandBuckets[band]!;
      const members = bucket.get(value);
      if (members === undefined) bucket.set(value, [newIndex]);
      else members.push(newIndex);
    });
  }
  return clusters.map(({ item, canonicalUrl: url, sources, merged }) => ({ item, canonicalUrl: url, sources, merged }));
}

/** The best-ranked (earliest) cluster within the threshold among those sharing a band, if any. */
function closestEarlierCluster(
  fingerprint: Fingerprint,
  bandValues: readonly number[],
  bandBuckets: readonly Map<number, number[]>[],
  leaderHigh: readonly number[],
  leaderLow: readonly number[],
  threshold: number,
  accept: (cluster: number) => boolean,
): number | undefined {
  let best = Number.POSITIVE_INFINITY;
  for (let band = 0; band < bandValues.length; band++) {
    const members = bandBuckets[band]!.get(bandValues[band]!);
    if (members === undefined) continue;
    for (const clusterIndex of members) {
      // Buckets are in rank order: nothing later in this one can beat a match already found.
      if (clusterIndex >= best) break;
      const distance = popcount32((fingerprint.high ^ leaderHigh[clusterIndex]!) >>> 0) + popcount32((fingerprint.low ^ leaderLow[clusterIndex]!) >>> 0);
      if (distance <= threshold && accept(clusterIndex)) {
        best = clusterIndex;
        break;
      }
    }
  }
  return Number.isFinite(best) ? best : undefined;
}

/**
 * The best-ranked earlier cluster whose leader shares at least `overlapThreshold` of the shorter
 * word set (and MIN_SHARED_WORDS words). Candidates are the leaders sharing one of the item's
 * rarer words (the index), so only plausible pairs are compared.
 */
function overlappingEarlierCluster(
  words: Int32Array,
  documentFrequency: readonly number[],
  wordLeaders: ReadonlyMap<number, number[]>,
  leaderWords: readonly (Int32Array | null)[],
  overlapThreshold: number,
  accept: (cluster: number) => boolean,
): number | undefined {
  if (words.length < MIN_SHARED_WORDS) return undefined;
  const candidates = new Set<number>();
  for (const word of words) {
    if (documentFrequency[word]! > OVERLAP_INDEX_MAX_ITEMS) continue;
    for (const cluster of wordLeaders.get(word) ?? []) candidates.add(cluster);
  }
  let best: number | undefined;
  for (const cluster of candidates) {
    if (best !== undefined && cluster >= best) continue;
    const other = leaderWords[cluster];
    if (other === null || other === undefined || other.length < MIN_SHARED_WORDS) continue;
    const shared = sharedWords(words, other);
    if (shared >= MIN_SHARED_WORDS && shared >= overlapThreshold * Math.min(words.length, other.length) && accept(cluster)) best = cluster;
  }
  return best;
}
