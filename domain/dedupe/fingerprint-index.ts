import { FIRST_CAPACITY, growArray } from '../arrays/grow-array.ts';
import { popcount32 } from './simhash.ts';

/**
 * Finds, among the fingerprints added so far, the earliest one within `threshold` bits of a
 * query that the caller also accepts: the near-duplicate lookup of dedupeItems.
 *
 * The 64 bits are cut into 4 bands of 16. Two fingerprints at most `threshold` bits apart differ
 * in at most `slack` = ceil((threshold + 1) / 4) - 1 bits of at least one band (pigeonhole: four
 * bands of slack + 1 or more would be more than the threshold), so probing each band's bucket for
 * the query's band value with up to `slack` bits flipped (17 buckets a band at the default
 * threshold of 6) reaches every fingerprint in range. A band has 65,536 buckets, so on 100k items
 * a bucket holds about one entry; the earlier cut into threshold + 1 bands of 9 bits had ~140 an
 * entry on 70k clusters, ~960 comparisons a lookup. Buckets are linked lists in typed arrays, in
 * insertion order, so a walk can stop at the first match and nothing is allocated per entry.
 *
 * A band starts with 64 buckets keyed by the band value's low bits and grows to all 65,536 as
 * entries come (relinking every entry in order): a collector run of twenty items used to fill
 * 2 MB of bucket heads. Fewer buckets only put more fingerprints in one bucket; every entry in
 * range is still reached and the distance check decides, so the answer is the same.
 */
const BANDS = 4;
const BAND_BITS = 16;
const BUCKETS = 1 << BAND_BITS;
const FIRST_BUCKET_BITS = 6;
const BUCKET_BITS_STEP = 2;
/** Above every entry: "no match yet" as an integer, which keeps the comparisons in the probe loop integer ones. */
const NONE = 0x7fffffff;

export interface FingerprintIndex {
  /** Adds entry `entry` (0, 1, 2 … in order; entries without a fingerprint may be skipped). */
  add(entry: number, high: number, low: number): void;
  /** The smallest entry within the threshold of (high, low) that `accept` takes, or undefined. */
  earliestWithin(high: number, low: number, accept: (entry: number) => boolean): number | undefined;
}

const PROBE_MASKS = new Map<number, readonly number[]>();

/** Every 16-bit mask with at most `slack` bits set, 0 first (worked out once per slack). */
function probeMasks(slack: number): readonly number[] {
  const known = PROBE_MASKS.get(slack);
  if (known !== undefined) return known;
  const masks: number[] = [];
  for (let mask = 0; mask < BUCKETS; mask++) if (popcount32(mask) <= slack) masks.push(mask);
  PROBE_MASKS.set(slack, masks);
  return masks;
}

function bandValue(high: number, low: number, band: number): number {
  return ((band < 2 ? high >>> (BAND_BITS * band) : low >>> (BAND_BITS * (band - 2))) & (BUCKETS - 1)) >>> 0;
}

export function createFingerprintIndex(threshold: number): FingerprintIndex {
  const allMasks = probeMasks(Math.ceil((threshold + 1) / BANDS) - 1);
  let bucketBits = 0;
  let bucketMask = 0;
  // The distinct buckets the masks reach while a band has fewer than 16 bits of buckets.
  let masks = Int32Array.of();
  let heads = Int32Array.of();
  let tails = Int32Array.of();
  let next = new Int32Array(BANDS * FIRST_CAPACITY);
  // Both halves as int32: XOR gives the same bits whatever the sign.
  let highs = new Int32Array(FIRST_CAPACITY);
  let lows = new Int32Array(FIRST_CAPACITY);
  // Entries in the order they were added, to relink them when the buckets grow.
  let added = new Int32Array(FIRST_CAPACITY);
  let count = 0;

  const link = (entry: number) => {
    for (let band = 0; band < BANDS; band++) {
      const bucket = (band << bucketBits) + (bandValue(highs[entry]!, lows[entry]!, band) & bucketMask);
      next[entry * BANDS + band] = -1;
      const tail = tails[bucket]!;
      if (tail === -1) heads[bucket] = entry;
      else next[tail * BANDS + band] = entry;
      tails[bucket] = entry;
    }
  };
  const useBuckets = (bits: number) => {
    bucketBits = bits;
    bucketMask = (1 << bits) - 1;
    masks = Int32Array.from(new Set(allMasks.map((mask) => mask & bucketMask)));
    heads = new Int32Array(BANDS << bits).fill(-1);
    tails = new Int32Array(BANDS << bits).fill(-1);
    for (let at = 0; at < count; at++) link(added[at]!);
  };
  useBuckets(FIRST_BUCKET_BITS);

  return {
    add(entry, high, low) {
      highs = growArray(highs, entry + 1);
      lows = growArray(lows, entry + 1);
      next = growArray(next, BANDS * (entry + 1));
      added = growArray(added, count + 1);
      highs[entry] = high;
      lows[entry] = low;
      added[count++] = entry;
      if (count > 1 << bucketBits && bucketBits < BAND_BITS) useBuckets(Math.min(BAND_BITS, bucketBits + BUCKET_BITS_STEP));
      else link(entry);
    },
    earliestWithin(high, low, accept) {
      let best = NONE;
      for (let band = 0; band < BANDS; band++) {
        const value = bandValue(high, low, band) & bucketMask;
        const base = band << bucketBits;
        for (let probe = 0; probe < masks.length; probe++) {
          // Buckets are in insertion order: nothing later in one can beat a match already found.
          for (let entry = heads[base + (value ^ masks[probe]!)]!; entry !== -1 && entry < best; entry = next[entry * BANDS + band]!) {
            const distance = popcount32((high ^ highs[entry]!) >>> 0) + popcount32((low ^ lows[entry]!) >>> 0);
            if (distance <= threshold && accept(entry)) {
              best = entry;
              break;
            }
          }
        }
      }
      return best === NONE ? undefined : best;
    },
  };
}
