/** Seeded PRNG (mulberry32) and helpers shared by corpus generators and trainers: same seed, same output. */
export type Random = () => number;

export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, values: readonly T[]): T {
  const value = values[Math.floor(random() * values.length)];
  if (value === undefined) throw new Error('pick from an empty list');
  return value;
}

export function shuffle<T>(random: Random, values: readonly T[]): T[] {
  const copy = [...values];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy;
}

/** FNV-1a over UTF-16 units: a stable 32-bit hash for feature hashing and seeds. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export type Split = 'train' | 'validation' | 'test';

/**
 * The split of a template family: families of one technique or intent, in declaration order, go
 * train, validation, test, train, train, validation, test, ... so every technique reaches every
 * split once it has three families, and a family (all paraphrases of one idea) sits in one split.
 */
export function splitOfIndex(index: number): Split {
  const cycle: Split[] = ['train', 'validation', 'test', 'train', 'train', 'validation', 'test', 'train'];
  return cycle[index % cycle.length] as Split;
}

/** Fills {slot} placeholders from pools; an unknown slot is left as written so a typo shows. */
export function fill(random: Random, template: string, pools: Readonly<Record<string, readonly string[]>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const pool = pools[name];
    return pool === undefined ? whole : fill(random, pick(random, pool), pools);
  });
}
