import { createRandom, pick, type Random } from '../../domain/learned/random.ts';

/** The project's seeded generator, for tests of layers that do not import domain/ (runtime/). */
export { createRandom };

/** Characters of one to four UTF-8 bytes and a NUL: what byte-level encoders get wrong first. */
const ALPHABET = ['a', 'Z', '7', ' ', 'é', 'ß', '中', '文', '🙂', '\u0000'];

/** `length` characters drawn from ALPHABET: random text for tests that compare encoders byte for byte. */
export function randomText(random: Random, length: number): string {
  return Array.from({ length }, () => pick(random, ALPHABET)).join('');
}
