import { FIRST_CAPACITY, growArray } from '../arrays/grow-array.ts';

/**
 * Numbers for strings, equal strings one number (0, 1, 2 … in the order first seen), each string
 * given with its fnv1a hash (domain/learned/random.ts). The hash is taken where the string is made
 * (`skrya rank`'s reading threads hash each canonical URL as they read it), so numbering a string
 * here probes a table of integers and reads the string only to confirm a match. A Map keyed by the
 * strings themselves, looked up 100k times over 70k URLs, was two thirds of `skrya rank`'s
 * clustering time on its own thread.
 */
export interface StringNumbers {
  numberOf(text: string, hash: number): number;
  readonly size: number;
}

const EMPTY = -1;

export function createStringNumbers(): StringNumbers {
  // Open addressing, linear probing, at most half full: a slot holds a string's number (EMPTY: none).
  let slots = new Int32Array(FIRST_CAPACITY).fill(EMPTY);
  const strings: string[] = [];
  // By number: each string's hash, to place it again when the table grows.
  let hashes = new Int32Array(FIRST_CAPACITY);

  function place(number: number): void {
    const mask = slots.length - 1;
    let slot = hashes[number]! & mask;
    while (slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    slots[slot] = number;
  }

  return {
    numberOf(text, hash) {
      const mask = slots.length - 1;
      let slot = hash & mask;
      for (; slots[slot] !== EMPTY; slot = (slot + 1) & mask) {
        const known = slots[slot]!;
        if (hashes[known] === (hash | 0) && strings[known] === text) return known;
      }
      const number = strings.length;
      strings.push(text);
      hashes = growArray(hashes, number + 1);
      hashes[number] = hash;
      if (2 * strings.length > slots.length) {
        slots = new Int32Array(2 * slots.length).fill(EMPTY);
        for (let placed = 0; placed < strings.length; placed++) place(placed);
      } else {
        // The free slot the lookup stopped at is the new string's place.
        slots[slot] = number;
      }
      return number;
    },
    get size() {
      return strings.length;
    },
  };
}
