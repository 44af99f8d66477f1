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
