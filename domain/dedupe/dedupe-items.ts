import { canonicalUrl, type CanonicalHints } from '../urls/canonical-url.ts';
import { isStopWord } from '../text/tokenize.ts';
import { createTokenIds, type TokenIds, type TokenWords } from '../text/token-ids.ts';
import { createFingerprintIndex } from './fingerprint-index.ts';
import { fnv1a } from '../learned/random.ts';
import { createStringNumbers } from './string-numbers.ts';
import { FIRST_CAPACITY, growArray } from '../arrays/grow-array.ts';
import { createInternedColumn, type InternedColumn } from '../arrays/interned-column.ts';
import { featureHash, simhashOfFeatures } from './simhash.ts';
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
 * highest-scored one and a chain A≈B≈C cannot drag an unrelated C into A's cluster. Fingerprints
 * are looked up in a banded index (fingerprint-index.ts), so only plausible pairs are compared
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
  /**
   * The URL's canonical form when the caller has it already (a scored item carries the one its id
   * was made from); worked out from `url` and `canonicalHints` when absent.
   */
  canonicalUrl?: string | null;
}

export interface SourceRef {
  provider: string;
  url: string | null;
  id: string;
}

export type MergeReason = 'canonical_url' | 'translation' | 'near_duplicate';

export interface DedupedItem<T> {
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

/** What every version number has in it: most texts have none, and leave at this cheaper test. */
const DIGIT_DOT_DIGIT = /\d\.\d/;

/** The version numbers an item names: its title's, else its text's ("Deno 2.6", "PostgreSQL 18.1"). */
export function versionKey(title: string, text: string): string {
  const from = (value: string) => (DIGIT_DOT_DIGIT.test(value) ? [...new Set([...value.matchAll(VERSION_NUMBER)].map((match) => match[1]!))].sort().join(' ') : '');
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

/** RankKeys item by item, read where they are kept: a 100k-item run need not make an object of each to order them. */
export interface RankKeyColumns {
  count: number;
  id(index: number): string;
  score(index: number): number | null;
  canonicalUrl(index: number): string | null | undefined;
  contentHash(index: number): string | undefined;
}

/**
 * Equal scores: canonical URL, then content hash, then id, then input order (exact repeats). The
 * keys come from the evidence, never from the run, so the same evidence is ordered (and cut at
 * max_items) the same way in every run, whatever order its messages arrived in.
 */
function compareTieKeys(keys: RankKeyColumns, a: number, b: number): number {
  const urlA = keys.canonicalUrl(a) ?? NO_KEY;
  const urlB = keys.canonicalUrl(b) ?? NO_KEY;
  if (urlA !== urlB) return urlA < urlB ? -1 : 1;
  const hashA = keys.contentHash(a) ?? NO_KEY;
  const hashB = keys.contentHash(b) ?? NO_KEY;
  if (hashA !== hashB) return hashA < hashB ? -1 : 1;
  const idA = keys.id(a);
  const idB = keys.id(b);
  return idA === idB ? a - b : idA < idB ? -1 : 1;
}

/** Best first: score descending, then the content-derived tie keys; null scores after scored ones, in input order. */
export function rankOrder<T extends RankKeys>(items: readonly T[]): number[] {
  return rankOrderOf({
    count: items.length,
    id: (index) => items[index]!.id,
    score: (index) => items[index]!.score,
    canonicalUrl: (index) => items[index]!.canonicalUrl,
    contentHash: (index) => items[index]!.contentHash,
  });
}

/** rankOrder of keys kept in columns. */
export function rankOrderOf(keys: RankKeyColumns): number[] {
  return packedRankOrder(keys) ?? comparedRankOrder(keys);
}

/** rankOrderOf by comparing items two at a time: any scores. */
function comparedRankOrder(keys: RankKeyColumns): number[] {
  const order = Array.from({ length: keys.count }, (_item, index) => index);
  order.sort((left, right) => compareRanked(keys, left, right));
  return order;
}

function compareRanked(keys: RankKeyColumns, left: number, right: number): number {
  const a = keys.score(left);
  const b = keys.score(right);
  if (a === null || b === null) {
    if (a !== b) return a === null ? 1 : -1;
    return left - right;
  }
  if (a !== b) return b - a;
  return compareTieKeys(keys, left, right);
}

/** Scores the packed order takes: whole millionths from 0 to 1, as every ranking score is rounded. */
const SCORE_STEPS = 1e6;
/** A packed key is step * INDEX_SPAN + index: exact in a double for up to INDEX_SPAN items. */
const INDEX_SPAN = 2 ** 21;

/**
 * rankOrderOf as one numeric sort of packed keys (the score's place, best first, then the index)
 * followed by the tie keys only within runs of equal scores: a comparator called 1.7 million
 * times, through the key columns, was most of ordering a 100k-item run. Null when some score is
 * not a whole millionth in [0, 1] or the run is too large to pack: comparedRankOrder then.
 */
function packedRankOrder(keys: RankKeyColumns): number[] | null {
  const { count } = keys;
  if (count > INDEX_SPAN) return null;
  const packed = new Float64Array(count);
  for (let index = 0; index < count; index++) {
    const score = keys.score(index);
    let step = SCORE_STEPS + 1;
    if (score !== null) {
      const millionths = Math.round(score * SCORE_STEPS);
      if (millionths / SCORE_STEPS !== score || millionths < 0 || millionths > SCORE_STEPS) return null;
      step = SCORE_STEPS - millionths;
    }
    packed[index] = step * INDEX_SPAN + index;
  }
  packed.sort();
  const order = new Array<number>(count);
  for (let at = 0; at < count; at++) order[at] = packed[at]! % INDEX_SPAN;
  // Runs of one score: ordered by index so far, by the tie keys now (unscored ones stay in index order).
  for (let start = 0; start < count;) {
    const step = Math.floor(packed[start]! / INDEX_SPAN);
    let end = start + 1;
    while (end < count && Math.floor(packed[end]! / INDEX_SPAN) === step) end++;
    if (end - start > 1 && step <= SCORE_STEPS) {
      const run = order.slice(start, end).sort((left, right) => compareTieKeys(keys, left, right));
      for (let k = 0; k < run.length; k++) order[start + k] = run[k]!;
    }
    start = end;
  }
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
 * One run's dedupe, fed a candidate at a time: `add` reads what matching needs from the candidate
 * (its canonical URL, version numbers and word ids) and keeps only that and `keep`, never the
 * title or text, so a caller holding 100k results need not hold their texts until the end.
 * `finish` clusters them; each cluster's `item` is the `keep` given with its best-ranked copy.
 */
export interface DedupeRun<K> {
  add(candidate: DedupeCandidate, keep: K): void;
  /**
   * A candidate already read elsewhere (`skrya rank`'s reading threads): its keys (matchKeys) and
   * its title and text as token ids of `tokens.table`, a table this run may be handed again.
   */
  addRead(keys: MatchKeys, tokens: CandidateTokens, keep: K): void;
  finish(): DedupedItem<K>[];
}

/** What dedupe keeps of a candidate besides its words: matchKeys reads them from it. */
export interface MatchKeys {
  id: string;
  url: string | null;
  provider: string;
  score: number | null;
  contentHash?: string;
  canonicalUrl: string | null;
  /** fnv1a of canonicalUrl (0 without one): dedupe numbers URLs by it (string-numbers.ts). */
  canonicalUrlHash: number;
  /** translationKey of its canonical URL: read with the other keys, where `skrya rank` reads them on its reading threads. */
  translation: string | null;
  /** versionKey of its title and text. */
  version: string;
}

/** A candidate's title and text as tokens: ids[start .. start + count) in `table`. */
export interface CandidateTokens {
  table: TokenWords;
  ids: Int32Array;
  start: number;
  count: number;
}

export function matchKeys(candidate: DedupeCandidate): MatchKeys {
  const canonical = candidate.canonicalUrl !== undefined ? candidate.canonicalUrl : candidate.url === null ? null : canonicalUrl(candidate.url, candidate.canonicalHints);
  return {
    id: candidate.id,
    url: candidate.url,
    provider: candidate.provider,
    score: candidate.score,
    contentHash: candidate.contentHash,
    canonicalUrl: canonical,
    canonicalUrlHash: canonical === null ? 0 : fnv1a(canonical),
    translation: canonical === null ? null : translationKey(canonical),
    version: versionKey(candidate.title, candidate.text),
  };
}

/** The text a candidate's words are read from. */
export function matchedText(candidate: Pick<DedupeCandidate, 'title' | 'text'>): string {
  return `${candidate.title} ${candidate.text}`;
}

export function dedupeItems<T extends DedupeCandidate>(items: readonly T[], options: DedupeOptions = {}): DedupedItem<T>[] {
  // The whole run is read here, in one call: the shared vocabulary serves one run at a time.
  const run = createRun<T>(options, vocabularyForRun());
  for (const item of items) run.add(item, item);
  return run.finish();
}

/**
 * The words of each candidate as it is added: interned to integer ids and hashed once per
 * distinct word; for a text long enough to match, its distinct words in one growing Int32Array,
 * its repeated words (each occurrence after a word's first) in another, and how many candidates
 * have each word (document frequency, counted for those texts only). A fingerprint counts every
 * occurrence but not their order (simhashOfFeatures sums them), so the two arrays are all it
 * needs: every word id of every text in text order, kept besides, was 16 MB at 100k results,
 * nearly all of it the distinct words again. The words are gathered as candidates come, not in
 * `features`: `skrya rank` adds them while its reading threads still read, and `features` runs
 * alone once all are in.
 */
const STOP_WORD = -1;

/** One token table's ids as word ids (STOP_WORD for stop words), filled as the table grows. */
interface TableWords {
  wordOfToken: Int32Array<ArrayBuffer>;
  registered: number;
}

/**
 * A token table kept from run to run, with what a run needs of each token worked out once: a
 * collector closes run after run of a few dozen items over much the same words, and a table of
 * its own each run had every word inserted (cut out, lower-cased, hashed twice) again. One run
 * reads it at a time (dedupeItems: a whole run in one call), so a token's word id in that run
 * sits beside it, valid where its stamp is the run's.
 */
interface Vocabulary {
  tokens: TokenIds;
  /** Tokens whose features are worked out below: ids 0 .. known - 1. */
  known: number;
  stopWord: Uint8Array<ArrayBuffer>;
  highs: Int32Array<ArrayBuffer>;
  lows: Int32Array<ArrayBuffer>;
  runWord: Int32Array<ArrayBuffer>;
  runStamp: Int32Array<ArrayBuffer>;
  /** The stamp of the run reading it now; 0 marks no run. */
  stamp: number;
}

/** Distinct tokens a vocabulary holds before it is started afresh, so no stream of new words grows it for ever (about 7 MB at the limit). */
export const VOCABULARY_LIMIT = 1 << 16;

function createVocabulary(): Vocabulary {
  return { tokens: createTokenIds(), known: 0, stopWord: new Uint8Array(FIRST_CAPACITY), highs: new Int32Array(FIRST_CAPACITY), lows: new Int32Array(FIRST_CAPACITY), runWord: new Int32Array(FIRST_CAPACITY), runStamp: new Int32Array(FIRST_CAPACITY), stamp: 0 };
}

/** The features of the tokens the vocabulary's table added since it last looked. */
function learnNewTokens(vocabulary: Vocabulary): void {
  const { tokens } = vocabulary;
  if (vocabulary.known === tokens.size) return;
  vocabulary.stopWord = growArray(vocabulary.stopWord, tokens.size);
  vocabulary.highs = growArray(vocabulary.highs, tokens.size);
  vocabulary.lows = growArray(vocabulary.lows, tokens.size);
  vocabulary.runWord = growArray(vocabulary.runWord, tokens.size);
  vocabulary.runStamp = growArray(vocabulary.runStamp, tokens.size);
  for (let token = vocabulary.known; token < tokens.size; token++) {
    const word = tokens.word(token);
    vocabulary.stopWord[token] = isStopWord(word) ? 1 : 0;
    const { high, low } = featureHash(word);
    vocabulary.highs[token] = high;
    vocabulary.lows[token] = low;
  }
  vocabulary.known = tokens.size;
}

let sharedVocabulary = createVocabulary();

/** Distinct tokens the vocabulary dedupeItems reads with holds now: what its memory grows with. */
export function vocabularyTokens(): number {
  return sharedVocabulary.tokens.size;
}

/** The vocabulary for the next run, started afresh once it holds VOCABULARY_LIMIT tokens; the run takes a stamp of its own. */
function vocabularyForRun(): Vocabulary {
  if (sharedVocabulary.tokens.size >= VOCABULARY_LIMIT) sharedVocabulary = createVocabulary();
  sharedVocabulary.stamp = sharedVocabulary.stamp === 0x7fffffff ? 1 : sharedVocabulary.stamp + 1;
  // A stamp coming round again could match a token stamped long ago: that run's marks are cleared.
  if (sharedVocabulary.stamp === 1) sharedVocabulary.runStamp.fill(0);
  return sharedVocabulary;
}

function createWordTable(minContentTokens: number, vocabulary: Vocabulary | null) {
  // A word's id, by the word, whichever token table it came from.
  const wordIds = new Map<string, number>();
  const tables = new Map<TokenWords, TableWords>();
  const wordHighs: number[] = [];
  const wordLows: number[] = [];
  const documentFrequency: number[] = [];
  const lastSeenIn: number[] = [];
  // Candidate i's repeated words: repeatedWords[repeatStarts[i] .. repeatStarts[i + 1]) (empty when too short).
  let repeatedWords = new Int32Array(FIRST_CAPACITY);
  let repeatCount = 0;
  let repeatStarts = new Int32Array(FIRST_CAPACITY);
  // 1: too few distinct content words to take part in near-duplicate matching.
  let tooShort = new Int32Array(FIRST_CAPACITY);
  // Candidate i's distinct words, in the order they first occur: distinctWords[distinctStarts[i] .. distinctStarts[i + 1]) (empty when too short).
  let distinctWords = new Int32Array(FIRST_CAPACITY);
  let distinctCount = 0;
  let distinctStarts = new Int32Array(FIRST_CAPACITY);
  let count = 0;

  /** A new word of this run, with its feature hash halves: its id. */
  function newWord(high: number, low: number): number {
    wordHighs.push(high);
    wordLows.push(low);
    documentFrequency.push(0);
    lastSeenIn.push(-1);
    return wordHighs.length - 1;
  }

  /** The word id of a token (STOP_WORD for a stop word); a new word is hashed once. */
  function wordIdOf(token: string): number {
    const known = wordIds.get(token);
    if (known !== undefined) return known;
    let id = STOP_WORD;
    if (!isStopWord(token)) {
      const { high, low } = featureHash(token);
      id = newWord(high, low);
    }
    wordIds.set(token, id);
    return id;
  }

  /** The word ids of the tokens the vocabulary gave this text, in vocabulary.runWord: a token new to this run becomes its next word. */
  function vocabularyWords(vocabulary: Vocabulary, tokenIds: Int32Array, from: number, to: number): Int32Array {
    learnNewTokens(vocabulary);
    const { runWord, runStamp, stamp, stopWord, highs, lows } = vocabulary;
    for (let k = from; k < to; k++) {
      const token = tokenIds[k]!;
      if (runStamp[token] === stamp) continue;
      runStamp[token] = stamp;
      runWord[token] = stopWord[token] === 1 ? STOP_WORD : newWord(highs[token]!, lows[token]!);
    }
    return runWord;
  }

  /** A table's token ids as word ids, the tokens it added since registered first. */
  function tableWords(table: TokenWords): Int32Array {
    let words = tables.get(table);
    if (words === undefined) tables.set(table, (words = { wordOfToken: new Int32Array(FIRST_CAPACITY), registered: 0 }));
    words.wordOfToken = growArray(words.wordOfToken, table.size);
    const { wordOfToken } = words;
    for (; words.registered < table.size; words.registered++) wordOfToken[words.registered] = wordIdOf(table.word(words.registered));
    return wordOfToken;
  }

  function add({ table, ids: tokenIds, start: tokenStart, count: tokenCount }: CandidateTokens): void {
    const itemIndex = count++;
    repeatStarts = growArray(repeatStarts, count + 1);
    tooShort = growArray(tooShort, count);
    distinctStarts = growArray(distinctStarts, count + 1);
    const wordOfToken = vocabulary !== null && table === vocabulary.tokens ? vocabularyWords(vocabulary, tokenIds, tokenStart, tokenStart + tokenCount) : tableWords(table);
    // One pass over the tokens: each content word goes to the distinct or the repeated words, after the run's so far.
    distinctWords = growArray(distinctWords, distinctCount + tokenCount);
    repeatedWords = growArray(repeatedWords, repeatCount + tokenCount);
    let distinctEnd = distinctCount;
    let repeatEnd = repeatCount;
    for (let k = tokenStart; k < tokenStart + tokenCount; k++) {
      const id = wordOfToken[tokenIds[k]!]!;
      if (id === STOP_WORD) continue;
      if (lastSeenIn[id] === itemIndex) {
        repeatedWords[repeatEnd++] = id;
        continue;
      }
      lastSeenIn[id] = itemIndex;
      distinctWords[distinctEnd++] = id;
    }
    distinctStarts[itemIndex] = distinctCount;
    repeatStarts[itemIndex] = repeatCount;
    if (distinctEnd - distinctCount < minContentTokens) {
      // Too short: none of its words are kept (the next candidate's overwrite them).
      distinctStarts[itemIndex + 1] = distinctCount;
      repeatStarts[itemIndex + 1] = repeatCount;
      tooShort[itemIndex] = 1;
      return;
    }
    for (let k = distinctCount; k < distinctEnd; k++) documentFrequency[distinctWords[k]!]!++;
    distinctCount = distinctEnd;
    repeatCount = repeatEnd;
    distinctStarts[itemIndex + 1] = distinctCount;
    repeatStarts[itemIndex + 1] = repeatCount;
  }

  /**
   * Every candidate's fingerprint, and its distinct words, once all are in (which words are the
   * run's common ones depends on all of them). The repeated words are dropped afterwards.
   */
  function features(): NearDuplicateFeatures {
    const commonAbove = Math.max(RUN_COMMON_MIN_ITEMS, Math.floor(RUN_COMMON_SHARE * count));
    const highs: number[] = [];
    const lows: number[] = [];
    /** Adds the hashes of words[from .. to) but the run's common words to highs and lows from `at`; returns where they end. */
    const gatherFeatures = (words: Int32Array, from: number, to: number, at: number): number => {
      let end = at;
      for (let k = from; k < to; k++) {
        const id = words[k]!;
        if (documentFrequency[id]! > commonAbove) continue;
        highs[end] = wordHighs[id]!;
        lows[end] = wordLows[id]!;
        end++;
      }
      return end;
    };
    const result: NearDuplicateFeatures = {
      usable: new Uint8Array(count),
      hasFingerprint: new Uint8Array(count),
      fingerprintHigh: new Int32Array(count),
      fingerprintLow: new Int32Array(count),
      words: distinctWords,
      wordsStart: distinctStarts.subarray(0, count),
      wordsEnd: distinctStarts.subarray(1, count + 1),
      documentFrequency,
    };
    for (let itemIndex = 0; itemIndex < count; itemIndex++) {
      if (tooShort[itemIndex] === 1) continue;
      result.usable[itemIndex] = 1;
      const distinctFeatures = gatherFeatures(distinctWords, distinctStarts[itemIndex]!, distinctStarts[itemIndex + 1]!, 0);
      const featureCount = gatherFeatures(repeatedWords, repeatStarts[itemIndex]!, repeatStarts[itemIndex + 1]!, distinctFeatures);
      // Word overlap uses every content word: the run's common words are most of what two copies share.
      // A text made only of them (a specification whose sentence every version repeats) has no
      // fingerprint, but its copies can still be found by overlap, with versions kept apart.
      if (featureCount === 0) continue;
      const fingerprint = simhashOfFeatures(highs, lows, featureCount);
      result.hasFingerprint[itemIndex] = 1;
      result.fingerprintHigh[itemIndex] = fingerprint.high;
      result.fingerprintLow[itemIndex] = fingerprint.low;
    }
    repeatedWords = new Int32Array(0);
    return result;
  }

  return { add, features };
}

/** Candidates' near-duplicate features, by candidate index. */
export interface NearDuplicateFeatures {
  /** 1: long enough to take part in near-duplicate matching. */
  usable: Uint8Array;
  /** 1: has a fingerprint (0 when every word is one of the run's common words, see RUN_COMMON_SHARE: word overlap still applies). */
  hasFingerprint: Uint8Array;
  fingerprintHigh: Int32Array;
  fingerprintLow: Int32Array;
  /** Distinct content word ids (stop words left out) of candidate i: words[wordsStart[i] .. wordsEnd[i]). */
  words: Int32Array;
  wordsStart: Int32Array;
  wordsEnd: Int32Array;
  documentFrequency: readonly number[];
}

export function createDedupeRun<K>(options: DedupeOptions = {}): DedupeRun<K> {
  return createRun(options, null);
}

/** A run whose `add` reads texts with `vocabulary`'s table (else a table of its own). */
function createRun<K>(options: DedupeOptions, vocabulary: Vocabulary | null): DedupeRun<K> {
  const threshold = options.hammingThreshold ?? DEFAULT_HAMMING_THRESHOLD;
  const wordTable = createWordTable(options.minContentTokens ?? DEFAULT_MIN_CONTENT_TOKENS, vocabulary);
  const tokens = vocabulary?.tokens ?? createTokenIds();
  const keeps: K[] = [];
  // Per candidate, in columns rather than an object each: these live until finish(). Values few
  // distinct ones fill are interned (interned-column.ts); so are content hashes, which `skrya rank`
  // never has and a collector run has a few hundred of. A score is a double (NaN: none).
  const ids: string[] = [];
  let scores = new Float64Array(FIRST_CAPACITY);
  const canonicals: (string | null)[] = [];
  const contentHashes = createInternedColumn<string | undefined>();
  const urls: (string | null)[] = [];
  const providers = createInternedColumn<string>();
  const versions = createInternedColumn<string>();
  const translations = createInternedColumn<string | null>();
  // Each candidate's canonical URL as a number (-1: none), equal numbers for equal URLs: joining a
  // cluster by URL is then an array lookup.
  const urlNumbers = createStringNumbers();
  let urlNumberOf = new Int32Array(FIRST_CAPACITY);
  function addRead(keys: MatchKeys, words: CandidateTokens, keep: K): void {
    urlNumberOf = growArray(urlNumberOf, ids.length + 1);
    urlNumberOf[ids.length] = keys.canonicalUrl === null ? -1 : urlNumbers.numberOf(keys.canonicalUrl, keys.canonicalUrlHash);
    scores = growArray(scores, ids.length + 1);
    scores[ids.length] = keys.score ?? Number.NaN;
    keeps.push(keep);
    ids.push(keys.id);
    canonicals.push(keys.canonicalUrl);
    contentHashes.push(keys.contentHash);
    urls.push(keys.url);
    providers.push(keys.provider);
    versions.push(keys.version);
    translations.push(keys.translation);
    wordTable.add(words);
  }
  return {
    add(candidate, keep) {
      const count = tokens.read(matchedText(candidate));
      addRead(matchKeys(candidate), { table: tokens, ids: tokens.ids, start: 0, count }, keep);
    },
    addRead,
    finish() {
      const clustering = createClustering(wordTable.features(), { numberOf: urlNumberOf, count: urlNumbers.size }, versions, translations, threshold, options.overlapThreshold ?? DEFAULT_OVERLAP_THRESHOLD);
      const order = rankOrderOf({
        count: ids.length,
        id: (index) => ids[index]!,
        score: (index) => (Number.isNaN(scores[index]!) ? null : scores[index]!),
        canonicalUrl: (index) => canonicals[index],
        contentHash: (index) => contentHashes.at(index),
      });
      const clusters: DedupedItem<K>[] = [];
      // By cluster, the provider + URL keys of its sources once it lists more than SCANNED_SOURCES
      // (a run can merge thousands of copies into one); fewer are compared one by one, no key made.
      const sourceKeys = new Map<number, Set<string>>();
      for (const index of order) {
        const id = ids[index]!;
        const canonical = canonicals[index]!;
        const url = urls[index]!;
        const provider = providers.at(index);
        const source: SourceRef = { provider, url, id };
        const match = clustering.join(index);
        if (match === null) {
          clusters.push({ item: keeps[index]!, canonicalUrl: canonical, sources: [source], merged: [] });
          continue;
        }
        const { sources, merged } = clusters[match.cluster]!;
        merged.push({ id, reason: match.reason });
        const keys = sourceKeys.get(match.cluster);
        if (keys === undefined) {
          if (listsSource(sources, provider, url)) continue;
          sources.push(source);
          if (sources.length > SCANNED_SOURCES) sourceKeys.set(match.cluster, new Set(sources.map((kept) => sourceKey(kept.provider, kept.url))));
          continue;
        }
        const key = sourceKey(provider, url);
        if (!keys.has(key)) {
          keys.add(key);
          sources.push(source);
        }
      }
      return clusters;
    },
  };
}

/**
 * A cluster's sources compared one by one up to here, then through a set of their keys. A key a
 * source was two strings joined for every copy merged: on the bench's 100k `skrya rank`, 30k copies
 * into clusters of two or three sources.
 */
const SCANNED_SOURCES = 8;

function sourceKey(provider: string, url: string | null): string {
  return `${provider}\u0000${url ?? ''}`;
}

/** Whether `sources` has one from `provider` at `url` (no URL and an empty one are the same, as in sourceKey). */
function listsSource(sources: readonly SourceRef[], provider: string, url: string | null): boolean {
  for (const kept of sources) if (kept.provider === provider && (kept.url ?? '') === (url ?? '')) return true;
  return false;
}

/**
 * The clusters of one run as candidates join them best first: `join` returns the cluster a
 * candidate merges into and why, or null after starting a new cluster with it as the leader.
 */
function createClustering(features: NearDuplicateFeatures, urls: { numberOf: Int32Array; count: number }, versions: InternedColumn<string>, translations: InternedColumn<string | null>, threshold: number, overlapThreshold: number) {
  const { usable, hasFingerprint, fingerprintHigh, fingerprintLow } = features;
  // By URL number, the cluster a canonical URL joined first (-1: none yet).
  const clusterByUrl = new Int32Array(urls.count).fill(-1);
  const clusterByTranslation = new Map<string, number>();
  const fingerprints = createFingerprintIndex(threshold);
  const overlaps = createOverlapIndex(features, overlapThreshold);
  const leaderVersion: string[] = [];
  let clusterCount = 0;

  function join(index: number): { cluster: number; reason: MergeReason } | null {
    const version = versions.at(index);
    const translation = translations.at(index);
    const url = urls.numberOf[index]!;
    let cluster = url === -1 || clusterByUrl[url] === -1 ? undefined : clusterByUrl[url];
    let reason: MergeReason = 'canonical_url';
    if (cluster === undefined && translation !== null) {
      cluster = clusterByTranslation.get(translation);
      reason = 'translation';
    }
    if (cluster === undefined && usable[index] === 1) {
      const sameRelease = (candidate: number) => !differentVersions(version, leaderVersion[candidate]!);
      if (hasFingerprint[index] === 1) cluster = fingerprints.earliestWithin(fingerprintHigh[index]!, fingerprintLow[index]!, sameRelease);
      cluster ??= overlaps.earliestOverlapping(index, sameRelease);
      reason = 'near_duplicate';
    }
    if (cluster !== undefined) {
      if (url !== -1 && clusterByUrl[url] === -1) clusterByUrl[url] = cluster;
      if (translation !== null && !clusterByTranslation.has(translation)) clusterByTranslation.set(translation, cluster);
      return { cluster, reason };
    }
    const created = clusterCount++;
    leaderVersion.push(version);
    if (usable[index] === 1) overlaps.addLeader(created, index);
    if (url !== -1) clusterByUrl[url] = created;
    if (translation !== null) clusterByTranslation.set(translation, created);
    if (hasFingerprint[index] === 1) fingerprints.add(created, fingerprintHigh[index]!, fingerprintLow[index]!);
    return null;
  }

  return { join };
}

/**
 * Word-overlap matching: the best-ranked earlier cluster whose leader shares at least
 * `overlapThreshold` of the shorter word set (and MIN_SHARED_WORDS words). Candidates are the
 * leaders sharing one of the item's rarer words (word → leaders, for words in at most
 * OVERLAP_INDEX_MAX_ITEMS items), so only plausible pairs are compared. How many of those rarer
 * words each candidate shares is counted from the lists first: with the item's common words (all
 * it could share besides), a candidate that cannot reach the threshold is dropped without reading
 * its words. Without that, a run whose typical word is in a few dozen items (20,000 results over a
 * 20,000-word vocabulary) compared each item with about 1,600 leaders, in full: 1.2 s of a 2.3 s
 * `skrya rank`, where 100,000 such results took 0.1 s (their words are past the index's limit).
 * On such a run a lookup still gathers about 450 candidates that share a listed word or two by
 * chance; when none shares enough to reach MIN_SHARED_WORDS with the common words, the lookup
 * ends there, without reading any candidate's leader (a profile gave the lookups 417 ms before,
 * 261 after).
 */
export function createOverlapIndex(features: NearDuplicateFeatures, overlapThreshold: number) {
  const { words, wordsStart, wordsEnd, documentFrequency } = features;
  const wordLeaders = new Map<number, number[]>();
  // Cluster → its leader's candidate index (-1: the leader has no word set).
  let leaderOf = new Int32Array(FIRST_CAPACITY).fill(-1);
  // Cluster → the lookup that last counted it as a candidate, and how many of the item's indexed words it shares.
  let seenIn = new Int32Array(FIRST_CAPACITY).fill(-1);
  let sharedIndexed = new Int32Array(FIRST_CAPACITY);
  // The clusters a lookup found, in the order found.
  let candidates = new Int32Array(FIRST_CAPACITY);
  // Word → the lookup whose item has it: a leader's shared words are counted by reading its words
  // once, with no sorted word lists to merge (sorting every item's words cost more than the lookups).
  const markedIn = new Int32Array(documentFrequency.length).fill(-1);
  let lookups = 0;

  return {
    addLeader(cluster: number, index: number): void {
      const size = leaderOf.length;
      leaderOf = growArray(leaderOf, cluster + 1);
      seenIn = growArray(seenIn, cluster + 1);
      sharedIndexed = growArray(sharedIndexed, cluster + 1);
      if (leaderOf.length > size) {
        leaderOf.fill(-1, size);
        seenIn.fill(-1, size);
      }
      leaderOf[cluster] = index;
      for (let k = wordsStart[index]!; k < wordsEnd[index]!; k++) {
        const word = words[k]!;
        if (documentFrequency[word]! > OVERLAP_INDEX_MAX_ITEMS) continue;
        const leaders = wordLeaders.get(word);
        if (leaders === undefined) wordLeaders.set(word, [cluster]);
        else leaders.push(cluster);
      }
    },
    earliestOverlapping(index: number, accept: (cluster: number) => boolean): number | undefined {
      const start = wordsStart[index]!;
      const end = wordsEnd[index]!;
      if (end - start < MIN_SHARED_WORDS) return undefined;
      const lookup = lookups++;
      let found = 0;
      let commonWords = 0;
      // The most indexed words a candidate shares (at least one, if there is one): with the common
      // words, a bound on any overlap the lookup can find.
      let mostShared = 1;
      for (let k = start; k < end; k++) {
        const word = words[k]!;
        if (documentFrequency[word]! > OVERLAP_INDEX_MAX_ITEMS) {
          commonWords++;
          continue;
        }
        const leaders = wordLeaders.get(word);
        if (leaders === undefined) continue;
        candidates = growArray(candidates, found + leaders.length);
        for (let at = 0; at < leaders.length; at++) {
          const cluster = leaders[at]!;
          if (seenIn[cluster] === lookup) {
            const shared = ++sharedIndexed[cluster]!;
            if (shared > mostShared) mostShared = shared;
            continue;
          }
          seenIn[cluster] = lookup;
          sharedIndexed[cluster] = 1;
          candidates[found++] = cluster;
        }
      }
      // No candidate can share MIN_SHARED_WORDS: the usual case, where each shares a rare word or two by chance.
      if (found === 0 || mostShared + commonWords < MIN_SHARED_WORDS) return undefined;
      let marked = false;
      let best: number | undefined;
      for (let at = 0; at < found; at++) {
        const cluster = candidates[at]!;
        // Short of MIN_SHARED_WORDS whatever its leader's size: passed over before the leader is read.
        if ((best !== undefined && cluster >= best) || sharedIndexed[cluster]! + commonWords < MIN_SHARED_WORDS) continue;
        const leader = leaderOf[cluster]!;
        if (leader === -1) continue;
        const leaderSize = wordsEnd[leader]! - wordsStart[leader]!;
        if (leaderSize < MIN_SHARED_WORDS) continue;
        const needed = Math.max(MIN_SHARED_WORDS, overlapThreshold * Math.min(end - start, leaderSize));
        if (sharedIndexed[cluster]! + commonWords < needed) continue;
        if (!marked) {
          for (let m = start; m < end; m++) markedIn[words[m]!] = lookup;
          marked = true;
        }
        let shared = 0;
        for (let m = wordsStart[leader]!; m < wordsEnd[leader]!; m++) if (markedIn[words[m]!] === lookup) shared++;
        if (shared >= needed && accept(cluster)) best = cluster;
      }
      return best;
    },
  };
}

