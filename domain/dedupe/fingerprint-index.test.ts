import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createFingerprintIndex } from './fingerprint-index.ts';
import { hammingDistance } from './simhash.ts';

const half = fc.integer({ min: 0, max: 0xffffffff });
const fingerprint = fc.record({ high: half, low: half });

/** A fingerprint `bits` flips away from `base`: the near neighbours a uniform random pick would almost never give. */
function flipped(base: { high: number; low: number }, bits: readonly number[]): { high: number; low: number } {
  let { high, low } = base;
  for (const bit of bits) {
    if (bit < 32) high = (high ^ (1 << bit)) >>> 0;
    else low = (low ^ (1 << (bit - 32))) >>> 0;
  }
  return { high, low };
}

describe('createFingerprintIndex', () => {
  it('finds the earliest accepted fingerprint within the threshold, exactly as a scan of all of them does', () => {
    fc.assert(
      fc.property(
        fingerprint,
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 12 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 12 }),
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 12 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 5 }),
        (base, entryFlips, threshold, queryFlips, rejectEvery) => {
          const entries = entryFlips.map((bits) => flipped(base, bits));
          const index = createFingerprintIndex(threshold);
          entries.forEach((entry, position) => index.add(position, entry.high, entry.low));
          // Rejecting some entries checks that the search goes on past a match the caller refuses.
          const accept = (entry: number) => entry % rejectEvery !== rejectEvery - 1;
          for (const bits of queryFlips) {
            const query = flipped(base, bits);
            const scanned = entries.findIndex((entry, position) => hammingDistance(entry, query) <= threshold && accept(position));
            expect(index.earliestWithin(query.high, query.low, accept)).toBe(scanned === -1 ? undefined : scanned);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives the same answers while its buckets grow with the entries, queries between additions included', () => {
    fc.assert(
      fc.property(
        fingerprint,
        fc.array(fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 10 }), { minLength: 60, maxLength: 1_200 }),
        fc.integer({ min: 0, max: 12 }),
        fc.integer({ min: 1, max: 5 }),
        (base, entryFlips, threshold, rejectEvery) => {
          const entries = entryFlips.map((bits) => flipped(base, bits));
          const index = createFingerprintIndex(threshold);
          const accept = (entry: number) => entry % rejectEvery !== rejectEvery - 1;
          entries.forEach((entry, position) => {
            // Each new entry is first a query against those before it, as dedupe asks.
            const scanned = entries.slice(0, position).findIndex((earlier, at) => hammingDistance(earlier, entry) <= threshold && accept(at));
            expect(index.earliestWithin(entry.high, entry.low, accept)).toBe(scanned === -1 ? undefined : scanned);
            index.add(position, entry.high, entry.low);
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('finds a match whose differing bits are spread over every band', () => {
    // Six bits, at least one in each 16-bit band: no band is equal, one differs by a single bit.
    const query = flipped({ high: 0, low: 0 }, [1, 17, 18, 33, 34, 49]);
    const [within, beyond] = [6, 5].map((threshold) => {
      const index = createFingerprintIndex(threshold);
      index.add(0, 0, 0);
      return index.earliestWithin(query.high, query.low, () => true);
    });
    expect(within).toBe(0);
    expect(beyond).toBeUndefined();
  });
});
