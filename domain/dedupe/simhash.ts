import { fnv1a } from '../learned/random.ts';

/**
 * 64-bit SimHash (Charikar) over word shingles, held as two 32-bit halves so it stays in fast
 * integer arithmetic (BigInt is ~10x slower here). Texts that share most of their shingles get
 * fingerprints a few bits apart; unrelated texts differ in about 32 of 64 bits.
 */
export interface Fingerprint {
  readonly high: number;
  readonly low: number;
}

/**
 * Words per shingle. Snippets are short (20–80 words), and there single words beat longer
 * shingles: a prefixed "Originally published on …" line or one edited phrase moves a 3-word
 * shingle fingerprint 10+ bits but a 1-word one 3–5, while different articles on the same topic
 * stay 20+ bits apart either way (see simhash.test.ts).
 */
export const SHINGLE_WORDS = 1;

/** MurmurHash3's finalizer: spreads FNV's weak bits over the whole word. */
function mix32(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/**
 * Adds one 32-bit word to 32 vertical counters stored bit-sliced (slices[k] holds bit k of every
 * counter): a ripple-carry add of a few bitwise operations instead of 32 separate increments.
 */
function addToSlicedCounters(slices: Uint32Array, word: number): void {
  let carry = word;
  for (let k = 0; carry !== 0; k++) {
    const current = slices[k]!;
    slices[k] = current ^ carry;
    carry = (current & carry) >>> 0;
  }
}

/** 32 slices count up to 2^32 - 1 features, far beyond any text. */
const SLICES = 32;
const highSlices = new Uint32Array(SLICES);
const lowSlices = new Uint32Array(SLICES);

/**
 * Bit b is set when more than half of the `total` features had bit b set, i.e. when counter b
 * exceeds floor(total / 2): a bit-sliced comparison of all 32 counters at once, from the top bit.
 */
function majorityBits(slices: Uint32Array, total: number): number {
  const half = Math.floor(total / 2);
  let greater = 0;
  let equal = 0xffffffff;
  for (let k = 31 - Math.clz32(total); k >= 0; k--) {
    const slice = slices[k]!;
    if ((half >>> k) & 1) {
      equal &= slice;
    } else {
      greater |= equal & slice;
      equal &= ~slice;
    }
  }
  return greater >>> 0;
}

/** The 64-bit feature hash of one shingle, as two 32-bit halves. */
export function featureHash(shingle: string): Fingerprint {
  const hash = fnv1a(shingle);
  return { high: mix32(hash), low: mix32((hash ^ 0x9e3779b9) >>> 0) };
}

/** SimHash of features given by their hashes (callers that hash each distinct word once). */
export function simhashOfFeatures(highs: ArrayLike<number>, lows: ArrayLike<number>, count: number): Fingerprint {
  if (count === 0) return { high: 0, low: 0 };
  // Counters reused from call to call: a run fingerprints 100k texts, two fresh typed arrays each was measurable.
  highSlices.fill(0);
  lowSlices.fill(0);
  for (let index = 0; index < count; index++) {
    addToSlicedCounters(highSlices, highs[index]!);
    addToSlicedCounters(lowSlices, lows[index]!);
  }
  return { high: majorityBits(highSlices, count), low: majorityBits(lowSlices, count) };
}

export function simhash64(tokens: readonly string[], shingleWords: number = SHINGLE_WORDS): Fingerprint {
  const width = Math.min(shingleWords, tokens.length);
  if (width === 0) return { high: 0, low: 0 };
  const highs: number[] = [];
  const lows: number[] = [];
  for (let start = 0; start + width <= tokens.length; start++) {
    const { high, low } = featureHash(width === 1 ? (tokens[start] ?? '') : tokens.slice(start, start + width).join(' '));
    highs.push(high);
    lows.push(low);
  }
  return simhashOfFeatures(highs, lows, highs.length);
}

export function popcount32(value: number): number {
  let bits = value - ((value >>> 1) & 0x55555555);
  bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
  return (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

export function hammingDistance(a: Fingerprint, b: Fingerprint): number {
  return popcount32((a.high ^ b.high) >>> 0) + popcount32((a.low ^ b.low) >>> 0);
}
