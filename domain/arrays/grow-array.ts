/**
 * Entries a growing array starts with. A collector run has a few dozen items: typed arrays of up
 * to 64 bytes live on V8's heap, larger ones get a backing store of their own (allocated, zeroed,
 * tracked and freed apart), and the twenty-odd 1024-entry arrays a run's dedupe started with cost
 * it about 90 µs: 29 against 34 µs an item on the stage bench's 20-item runs.
 */
export const FIRST_CAPACITY = 16;

type GrowableArray = Int32Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Uint8Array<ArrayBuffer> | Float64Array<ArrayBuffer>;

/**
 * A copy of `array` (same kind) with room for at least `length` entries, doubling so n appends cost
 * O(n); `array` itself when it has room. For columns of many items and scratch space kept in typed
 * arrays.
 */
export function growArray<A extends GrowableArray>(array: A, length: number): A {
  if (length <= array.length) return array;
  const larger = new (array.constructor as new (size: number) => A)(Math.max(length, array.length * 2));
  (larger as GrowableArray).set(array);
  return larger;
}
