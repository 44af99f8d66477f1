/**
 * ELD's small n-gram database as eld-language.ts reads it: the languages by index, and each
 * n-gram's (language, score) pairs in one Int32Array. ELD ships the database as a 1.6 MB
 * JavaScript object literal; evaluating it costs over half a second of CPU in every process and
 * every worker thread that detects a language (half a scoring worker's start). Packed once into a
 * binary file in the model cache, keyed by a hash of ELD's own file so an upgrade repacks it, the
 * same database loads in a few tens of milliseconds.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadOrBuild } from '../learned/model-cache.ts';

/** The database as ELD's module holds it: scores are stored less BASE_NGRAM_SCORE. */
export interface EldSource {
  languages: Record<number, string>;
  ngrams: Record<string, Record<number, number> | undefined>;
}

export interface EldDatabase {
  /** ISO 639-1 codes by language index. */
  languages: readonly string[];
  /** An n-gram's index, -1 when the database does not hold it. */
  indexOf(ngram: string): number;
  /** N-gram i's pairs are pairs[pairStarts[i] .. pairStarts[i + 1]): language index, full score, … in language order. */
  pairStarts: Int32Array;
  pairs: Int32Array;
}

/** ELD subtracts this from every stored score to keep its database small and adds it back. */
const BASE_NGRAM_SCORE = 53;
/** Bumped whenever the packed layout changes, so files in the old one are repacked. */
const PACKED_FORMAT = 1;

// The database, separator pattern and byte dictionary are not in the package's exports: they are
// loaded by path beside the entry the exports do name (the same files `eld/small` runs).
const load = createRequire(import.meta.url);
const ELD_SOURCES = new URL('..', `${import.meta.resolve('eld/small')}`);
const SMALL_DATABASE = fileURLToPath(new URL('ngrams/small.js', ELD_SOURCES));

/** One of ELD's source modules, by its path under the package's src/ (e.g. 'dictionary.js'). */
export function eldModule<T>(file: string): T {
  return load(fileURLToPath(new URL(file, ELD_SOURCES))) as T;
}

/** ELD's database module itself: the slow load the packed file replaces. */
export function eldSource(): EldSource {
  return eldModule<{ ngramsData: EldSource }>('ngrams/small.js').ngramsData;
}

/** FNV-1a over a string's UTF-16 code units. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5 | 0;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash;
}

const EMPTY_SLOT = -1;

/**
 * Layout: a little-endian u32 header length and a JSON header (languages and section sizes),
 * padded to 4 bytes, then i32 sections: where each n-gram's pairs start (one more than the
 * n-grams), the pairs, where each n-gram's code units start (one more), an open-addressing table
 * of n-gram indices by hashOf (linear probing, at most half full); then the n-grams' UTF-16 code
 * units one after another. Loading is reading the file: nothing is built per n-gram.
 */
export function packEldDatabase(source: EldSource): Buffer {
  const languages = Object.keys(source.languages).map(Number).sort((a, b) => a - b).map((index) => source.languages[index]!);
  const keys: string[] = [];
  const pairStarts: number[] = [0];
  const pairs: number[] = [];
  for (const [ngram, entry] of Object.entries(source.ngrams)) {
    if (entry === undefined) continue;
    keys.push(ngram);
    // Integer keys enumerate in ascending order: the pairs come in language order.
    for (const language in entry) pairs.push(Number(language), entry[language as unknown as number]! + BASE_NGRAM_SCORE);
    pairStarts.push(pairs.length);
  }
  const unitStarts = [0];
  for (const key of keys) unitStarts.push(unitStarts.at(-1)! + key.length);
  const slots = new Int32Array(2 ** Math.ceil(Math.log2(2 * Math.max(keys.length, 1)))).fill(EMPTY_SLOT);
  const mask = slots.length - 1;
  keys.forEach((key, index) => {
    let slot = hashOf(key) & mask;
    while (slots[slot] !== EMPTY_SLOT) slot = (slot + 1) & mask;
    slots[slot] = index;
  });
  const header = Buffer.from(JSON.stringify({ format: PACKED_FORMAT, languages, ngrams: keys.length, pairs: pairs.length, slots: slots.length }));
  const headerLength = Buffer.alloc(4);
  headerLength.writeUInt32LE(header.length);
  return Buffer.concat([
    headerLength,
    header,
    Buffer.alloc(paddedLength(header.length) - header.length),
    ...[Int32Array.from(pairStarts), Int32Array.from(pairs), Int32Array.from(unitStarts), slots].map((section) => Buffer.from(section.buffer)),
    Buffer.from(keys.join(''), 'utf16le'),
  ]);
}

export function unpackEldDatabase(packed: Uint8Array): EldDatabase {
  // A copy at offset 0 of its own buffer: typed-array views need aligned offsets.
  const bytes = Buffer.alloc(packed.length);
  bytes.set(packed);
  const headerLength = bytes.readUInt32LE(0);
  const header = JSON.parse(bytes.toString('utf8', 4, 4 + headerLength)) as { format: number; languages: string[]; ngrams: number; pairs: number; slots: number };
  if (header.format !== PACKED_FORMAT) throw new Error(`packed ELD database has format ${header.format}, expected ${PACKED_FORMAT}`);
  let at = 4 + paddedLength(headerLength);
  const section = (length: number) => {
    const view = new Int32Array(bytes.buffer, at, length);
    at += 4 * length;
    return view;
  };
  const pairStarts = section(header.ngrams + 1);
  const pairs = section(header.pairs);
  const unitStarts = section(header.ngrams + 1);
  const slots = section(header.slots);
  const units = new Uint16Array(bytes.buffer, at, unitStarts[header.ngrams]!);
  const mask = header.slots - 1;
  return {
    languages: header.languages,
    pairStarts,
    pairs,
    indexOf(ngram) {
      for (let slot = hashOf(ngram) & mask; slots[slot] !== EMPTY_SLOT; slot = (slot + 1) & mask) {
        const index = slots[slot]!;
        const start = unitStarts[index]!;
        if (unitStarts[index + 1]! - start !== ngram.length) continue;
        let unit = 0;
        while (unit < ngram.length && units[start + unit] === ngram.charCodeAt(unit)) unit++;
        if (unit === ngram.length) return index;
      }
      return -1;
    },
  };
}

/** The packed file's key in the model cache: ELD's database module and the packed layout. */
export function eldDatabaseKey(): string {
  return createHash('sha256').update(`${PACKED_FORMAT}\0`).update(readFileSync(SMALL_DATABASE)).digest('hex').slice(0, 16);
}

/** The database from the model cache, packed from ELD's module on first use. */
export function loadEldDatabase(): EldDatabase {
  return unpackEldDatabase(loadOrBuild('eld-small', eldDatabaseKey(), () => packEldDatabase(eldSource())).bytes);
}

const paddedLength = (length: number) => Math.ceil(length / 4) * 4;
