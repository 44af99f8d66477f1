/**
 * Hashed sparse features for the linear models: word unigrams and bigrams (Latin script), character
 * n-grams of the whole text (punctuation included, so `<|im_start|>` and `[inst]` are features too),
 * and CJK character unigrams to trigrams. Each feature name is hashed into `2^bits` buckets; the
 * vector is binary and scaled to unit length. Names are kept on request so a verdict can say which
 * features drove it.
 */
import { growArray } from '../arrays/grow-array.ts';
import { fnv1a } from './random.ts';

export interface FeatureRecipe {
  bits: number;
  /** Character n-gram sizes over the whole text. */
  charNgrams: readonly number[];
  /** Word n-gram sizes over Latin-script words. */
  wordNgrams: readonly number[];
  /** CJK character n-gram sizes over runs of CJK characters. */
  cjkNgrams: readonly number[];
}

export interface SparseVector {
  indices: Int32Array;
  values: Float32Array;
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'._+#-]*/gu;

/** Feature names of one text, in a stable order (duplicates kept; hashing merges them). */
export function featureNames(text: string, recipe: FeatureRecipe): string[] {
  const names: string[] = [];
  const padded = ` ${text} `;
  for (const size of recipe.charNgrams) for (let index = 0; index + size <= padded.length; index++) names.push(`c${size}:${padded.slice(index, index + size)}`);
  const words = (text.match(WORD) ?? []).filter((word) => !CJK.test(word));
  for (const size of recipe.wordNgrams) for (let index = 0; index + size <= words.length; index++) names.push(`w:${words.slice(index, index + size).join(' ')}`);
  let run = '';
  const flushRun = () => {
    for (const size of recipe.cjkNgrams) for (let index = 0; index + size <= run.length; index++) names.push(`z:${run.slice(index, index + size)}`);
    run = '';
  };
  for (const char of text) {
    if (CJK.test(char)) run += char;
    else if (run !== '') flushRun();
  }
  flushRun();
  return names;
}

export function bucketOf(name: string, bits: number): number {
  return fnv1a(name) & ((1 << bits) - 1);
}

function continueHash(hash: number, text: string, from: number, to: number): number {
  let state = hash;
  for (let index = from; index < to; index++) {
    state ^= text.charCodeAt(index);
    state = Math.imul(state, 0x01000193);
  }
  return state >>> 0;
}

const WORD_PREFIX_HASH = fnv1a('w:');

/**
 * The buckets of a text's features; the same buckets as hashing every name of featureNames, but
 * character and word n-grams are hashed in place without building strings (the hot path of screening).
 */
export function featureBuckets(text: string, recipe: FeatureRecipe, into: Set<number> = new Set()): Set<number> {
  forEachFeatureBucket(text, recipe, (bucket) => into.add(bucket));
  return into;
}

// Word bounds of the text being hashed, reused between calls (screening hashes millions of words);
// pairHashes[i] is the hash of word i - 1 and word i as a bigram ('w:' a ' ' b), when asked for.
let wordStarts = new Int32Array(256);
let wordEnds = new Int32Array(256);
let wordHashes = new Uint32Array(256);
let pairHashes = new Uint32Array(256);

/**
 * What an ASCII character is to WORD, one table lookup instead of a chain of comparisons per
 * character: WORD_START for [\p{L}\p{N}], WORD_PART for the rest of [\p{L}\p{N}'._+#-]; 0 neither.
 */
const WORD_START = 2;
const WORD_PART = 1;
const ASCII_WORD_CLASS = new Uint8Array(0x80);
for (let code = 0; code < 0x80; code++) {
  const char = String.fromCharCode(code);
  ASCII_WORD_CLASS[code] = /[\p{L}\p{N}]/u.test(char) ? WORD_START : /['._+#-]/.test(char) ? WORD_PART : 0;
}
const isAsciiWordStart = (code: number) => code < 0x80 && ASCII_WORD_CLASS[code] === WORD_START;
const isAsciiWordPart = (code: number) => code < 0x80 && ASCII_WORD_CLASS[code] !== 0;

/**
 * Bounds of the WORD matches of an ASCII-only text, found without a regular expression, and each
 * word hashed from 'w:' on the way; -1 as soon as a character is not ASCII (one pass for the check,
 * the bounds and the unigrams). With `pairs`, each word is also hashed on from the word before it
 * and a space, in the same pass: the bigram's hash without reading the word a second time.
 */
function asciiWords(text: string, from: number, to: number, pairs: boolean): number {
  let count = 0;
  let pairStart = 0;
  for (let index = from; index < to; ) {
    const code = text.charCodeAt(index);
    if (!isAsciiWordStart(code)) {
      if (code > 0x7f) return -1;
      index++;
      continue;
    }
    const start = index;
    let hash = WORD_PREFIX_HASH;
    let pair = pairStart;
    for (let part = code; ; ) {
      hash = Math.imul(hash ^ part, 0x01000193);
      if (pairs) pair = Math.imul(pair ^ part, 0x01000193);
      if (++index === to) break;
      part = text.charCodeAt(index);
      if (!isAsciiWordPart(part)) break;
    }
    if (count === wordStarts.length) {
      wordStarts = growArray(wordStarts, count + 1);
      wordEnds = growArray(wordEnds, count + 1);
      wordHashes = growArray(wordHashes, count + 1);
      pairHashes = growArray(pairHashes, count + 1);
    }
    wordStarts[count] = start;
    wordEnds[count] = index;
    wordHashes[count] = hash >>> 0;
    pairHashes[count++] = pair >>> 0;
    // The next word's bigram starts from this one and a space.
    pairStart = Math.imul(hash ^ 0x20, 0x01000193);
  }
  return count;
}

/**
 * Calls add with every feature bucket of a text, in featureBuckets' order, duplicates included;
 * with `from` and `to`, of whole.slice(from, to) read where it stands in `whole`: a passage cut
 * from its field is a sliced string, whose characters V8 reads more slowly than the field's own.
 */
export function forEachFeatureBucket(whole: string, recipe: FeatureRecipe, add: (bucket: number) => void, from = 0, to = whole.length): void {
  const mask = (1 << recipe.bits) - 1;
  // The stretch as a string of its own, cut only where a path needs one, and once.
  let cut: string | null = from === 0 && to === whole.length ? whole : null;
  const stretch = () => (cut ??= whole.slice(from, to));
  if (recipe.charNgrams.length > 0) {
    const padded = ` ${stretch()} `;
    for (const size of recipe.charNgrams) {
      const prefix = fnv1a(`c${size}:`);
      for (let index = 0; index + size <= padded.length; index++) add(continueHash(prefix, padded, index, index + size) & mask);
    }
  }
  // FNV-1a runs left to right, so `w:a b` hashes as 'w:' continued with a, ' ', b: no n-gram string is built.
  // No CJK in ASCII text, so no word is filtered out; words are hashed straight from the text.
  const count = asciiWords(whole, from, to, recipe.wordNgrams.some((size) => size >= 2));
  if (count >= 0) {
    // An n-gram starts from its first word's hash, or its first two words' (pairHashes), continued per size.
    for (const size of recipe.wordNgrams) {
      for (let index = 0; index + size <= count; index++) {
        let hash = size === 1 ? wordHashes[index]! : pairHashes[index + 1]!;
        for (let next = 2; next < size; next++) hash = continueHash(Math.imul(hash ^ 0x20, 0x01000193) >>> 0, whole, wordStarts[index + next]!, wordEnds[index + next]!);
        add(hash & mask);
      }
    }
    return;
  }
  otherBuckets(stretch(), recipe, mask, add);
}

/** forEachFeatureBucket's word and CJK buckets of a text that is not all ASCII. */
function otherBuckets(text: string, recipe: FeatureRecipe, mask: number, add: (bucket: number) => void): void {
  const words = (text.match(WORD) ?? []).filter((word) => !CJK.test(word));
  for (const size of recipe.wordNgrams) {
    for (let index = 0; index + size <= words.length; index++) {
      let hash = fnv1a(words[index]!, WORD_PREFIX_HASH);
      for (let next = 1; next < size; next++) hash = fnv1a(words[index + next]!, fnv1a(' ', hash));
      add(hash & mask);
    }
  }
  const zPrefix = fnv1a('z:');
  let runStart = -1;
  const flush = (end: number) => {
    for (const size of recipe.cjkNgrams) for (let index = runStart; index + size <= end; index++) add(continueHash(zPrefix, text, index, index + size) & mask);
    runStart = -1;
  };
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const cjk = (code >= 0x3400 && code <= 0x9fff) || (code >= 0xf900 && code <= 0xfaff);
    if (cjk && runStart < 0) runStart = index;
    else if (!cjk && runStart >= 0) flush(index);
  }
  if (runStart >= 0) flush(text.length);
}

/** A binary, unit-length vector over the given buckets. */
export function toVector(buckets: ReadonlySet<number>): SparseVector {
  const indices = Int32Array.from(buckets).sort();
  const value = indices.length === 0 ? 0 : 1 / Math.sqrt(indices.length);
  return { indices, values: new Float32Array(indices.length).fill(value) };
}

/** Binary, unit-length hashed vector of a text, plus the extra named features given (e.g. rule hits). */
export function vectorize(text: string, recipe: FeatureRecipe, extra: readonly string[] = []): SparseVector {
  const buckets = featureBuckets(text, recipe);
  for (const name of extra) buckets.add(bucketOf(name, recipe.bits));
  return toVector(buckets);
}

/** Hashes the recipe so a cached model is rebuilt whenever the features change. */
export function recipeKey(recipe: FeatureRecipe): string {
  return JSON.stringify(recipe);
}
