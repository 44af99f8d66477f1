/** A copy of `array` with room for at least `length` entries (doubling, so n appends cost O(n)); `array` itself when it has room. */
export function growInt32(array: Int32Array<ArrayBuffer>, length: number): Int32Array<ArrayBuffer> {
  if (length <= array.length) return array;
  const grown = new Int32Array(Math.max(length, array.length * 2));
  grown.set(array);
  return grown;
}
