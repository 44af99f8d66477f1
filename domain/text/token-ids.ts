import { tokenize } from './tokenize.ts';

/**
 * `tokenize`'s tokens as integer ids, for code that reads the tokens of many texts (dedupe of a
 * 100k-result run): a token's id is found in an open-addressing table by hashing and comparing its
 * characters where they stand in the text, so no string is made per token, only one per distinct
 * token (`word`). Ids are dense, from 0, in the order tokens are first seen. ASCII text is
 * scanned here directly ([a-z0-9] runs after lower-casing, exactly what `tokenize` gives it);
 * other text goes through `tokenize` and its tokens are looked up the same way.
 */
export interface TokenIds extends TokenWords {
  /** The tokens of `text`, in order: their ids in `ids[0 .. count)` (valid until the next call). */
  read(text: string): number;
  readonly ids: Int32Array;
}

/** The tokens a table has given ids to. */
export interface TokenWords {
  /** Distinct tokens seen so far; ids are 0 .. size - 1. */
  readonly size: number;
  /** The token an id stands for. */
  word(id: number): string;
}

const EMPTY = -1;

/** A-Z to a-z; tokens from `tokenize` hold no upper-case ASCII, so folding them again changes nothing. */
function foldAscii(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function isAsciiWordCharacter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
}

/**
 * Each byte's character as a token holds it (a-z and 0-9, A-Z lower-cased), 0 for a byte no
 * token holds: one table read a byte instead of folding and two range checks. With each token's
 * bytes read by a loop of their own, the scan of rank's texts takes 0.81-0.85x the time it did.
 */
const WORD_BYTE = new Uint8Array(256);
for (let code = 0; code < 256; code++) WORD_BYTE[code] = isAsciiWordCharacter(foldAscii(code)) ? foldAscii(code) : 0;

/** bytes[at .. at + 4) as a little-endian int32, only its first `length` bytes (all four from 4 on). */
function packedWord(bytes: Uint8Array, at: number, length: number): number {
  const word = bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24);
  return length >= 4 ? word : word & ((1 << (length << 3)) - 1);
}

/**
 * A table slot, two to a cache line: a token's id (EMPTY: free), its hash, where its characters
 * start in `characters` and how many; or, when there are at most PACKED_CHARACTERS and none is
 * above 0xff, the characters themselves in the slot, a byte each (PACKED in the last place). A lookup of such a token
 * touches its slot only: on a large table, beside the other work of a reading thread, the second
 * cache miss (into the characters) was most of a lookup's cost.
 */
const SLOT = 8;
const PACKED_AT = 4;
const PACKED_CHARACTERS = 12;
const PACKED_FLAG_AT = 7;
const PACKED = 1;

export function createTokenIds(): TokenIds {
  // One slot holds everything a probe compares (see SLOT), so a lookup touches little beyond it.
  // Small at first, grown by doubling: a collector run of twenty items has a thousand or two distinct
  // tokens, and zero-filling tables sized for a large file cost it more than reading its text.
  let slots = new Int32Array(SLOT << 10).fill(EMPTY);
  let mask = (slots.length / SLOT) - 1;
  // The (folded) characters of every distinct token not packed in its slot, one after another.
  let characters = new Uint16Array(1 << 13);
  let characterCount = 0;
  const words: string[] = [];
  let ids = new Int32Array(256);
  let count = 0;

  /** Twice the slots once half are taken, so probe runs stay short. */
  function growSlots(): void {
    const old = slots;
    slots = new Int32Array(old.length * 2).fill(EMPTY);
    mask = (slots.length / SLOT) - 1;
    for (let from = 0; from < old.length; from += SLOT) {
      if (old[from] === EMPTY) continue;
      let slot = old[from + 1]! & mask;
      while (slots[slot * SLOT] !== EMPTY) slot = (slot + 1) & mask;
      slots.set(old.subarray(from, from + SLOT), slot * SLOT);
    }
  }

  /**
   * The id of the token text[from, to) with A-Z lower-cased, added when new; `hash` is its
   * tokenHash, `token` the token itself when the caller has it as a string (else it is cut from text).
   */
  function idOf(text: string, from: number, to: number, hash: number, token: string | null): number {
    const length = to - from;
    let slot = hash & mask;
    for (let at = slot * SLOT; slots[at] !== EMPTY; slot = (slot + 1) & mask, at = slot * SLOT) {
      if (slots[at + 1] === hash && slots[at + 3] === length) {
        let k = 0;
        if (slots[at + PACKED_FLAG_AT] === PACKED) {
          while (k < length && ((slots[at + PACKED_AT + (k >> 2)]! >>> ((k & 3) << 3)) & 0xff) === foldAscii(text.charCodeAt(from + k))) k++;
        } else {
          const start = slots[at + 2]!;
          while (k < length && characters[start + k] === foldAscii(text.charCodeAt(from + k))) k++;
        }
        if (k === length) return slots[at]!;
      }
    }
    const id = words.length;
    let packable = length <= PACKED_CHARACTERS;
    for (let k = 0; packable && k < length; k++) packable = foldAscii(text.charCodeAt(from + k)) <= 0xff;
    const at = slot * SLOT;
    slots[at] = id;
    slots[at + 1] = hash;
    slots[at + 3] = length;
    if (packable) {
      // A free slot holds EMPTY throughout: the packed places are cleared before the bytes go in.
      slots.fill(0, at + PACKED_AT, at + PACKED_FLAG_AT);
      for (let k = 0; k < length; k++) slots[at + PACKED_AT + (k >> 2)]! |= foldAscii(text.charCodeAt(from + k)) << ((k & 3) << 3);
      slots[at + PACKED_FLAG_AT] = PACKED;
    } else {
      if (characterCount + length > characters.length) characters = copyInto(new Uint16Array(Math.max(characters.length * 2, characterCount + length)), characters);
      for (let k = 0; k < length; k++) characters[characterCount + k] = foldAscii(text.charCodeAt(from + k));
      slots[at + 2] = characterCount;
      slots[at + PACKED_FLAG_AT] = 0;
      characterCount += length;
    }
    words.push(token ?? text.slice(from, to).toLowerCase());
    if (words.length * 2 * SLOT >= slots.length) growSlots();
    return id;
  }

  function push(id: number): void {
    if (count === ids.length) ids = copyInto(new Int32Array(ids.length * 2), ids);
    ids[count++] = id;
  }

  // An ASCII text's characters as bytes, lower-cased in place: a scan of a byte array costs far
  // less than charCodeAt on a string (most texts are a title and snippet joined, a cons string).
  let bytes = Buffer.allocUnsafe(4096);

  /**
   * The id of the ASCII token bytes[from, to) (lower-cased; `text` holds it at the same place),
   * its characters packed as `idOf` packs them (p0..p2) when there are at most PACKED_CHARACTERS:
   * a known token is then found by comparing three numbers, not its characters one by one.
   */
  function idOfAscii(text: string, from: number, to: number, hash: number, p0: number, p1: number, p2: number): number {
    const length = to - from;
    for (let slot = hash & mask, at = slot * SLOT; slots[at] !== EMPTY; slot = (slot + 1) & mask, at = slot * SLOT) {
      if (slots[at + 1] !== hash || slots[at + 3] !== length) continue;
      if (length <= PACKED_CHARACTERS) {
        if (slots[at + PACKED_AT] === p0 && slots[at + PACKED_AT + 1] === p1 && slots[at + PACKED_AT + 2] === p2) return slots[at]!;
        continue;
      }
      const start = slots[at + 2]!;
      let k = 0;
      while (k < length && characters[start + k] === bytes[from + k]) k++;
      if (k === length) return slots[at]!;
    }
    return idOf(text, from, to, hash, null);
  }

  // The tokens of the text being read, found before any is looked up (readAscii): start, end, hash and packed characters each.
  let found = new Int32Array(6 * 64);
  let foundCount = 0;

  /** Scans bytes[0, length), the ASCII `text` written there. */
  function readAscii(text: string, length: number): void {
    // A non-word byte past the end closes the last token.
    bytes[length] = 0;
    foundCount = 0;
    for (let index = 0; index < length; ) {
      let code = WORD_BYTE[bytes[index]!]!;
      if (code === 0) {
        index++;
        continue;
      }
      const start = index;
      let hash = FNV_OFFSET;
      do {
        bytes[index] = code;
        hash = Math.imul(hash ^ code, FNV_PRIME);
        code = WORD_BYTE[bytes[++index]!]!;
      } while (code !== 0);
      // Packed after the scan, from the lower-cased bytes, and only for a token short enough to
      // be packed: placing each byte inside the loop cost every byte of every token three tests.
      const tokenLength = index - start;
      let p0 = 0;
      let p1 = 0;
      let p2 = 0;
      if (tokenLength <= PACKED_CHARACTERS) {
        // Four bytes at a time, the places past the token's end masked off: `bytes` holds more than
        // three times the text's length (read), so the up to three places read past its end are in it.
        p0 = packedWord(bytes, start, tokenLength);
        if (tokenLength > 4) p1 = packedWord(bytes, start + 4, tokenLength - 4);
        if (tokenLength > 8) p2 = packedWord(bytes, start + 8, tokenLength - 8);
      }
      if (6 * (foundCount + 1) > found.length) found = copyInto(new Int32Array(found.length * 2), found);
      const at = 6 * foundCount++;
      found[at] = start;
      found[at + 1] = index;
      found[at + 2] = hash;
      found[at + 3] = p0;
      found[at + 4] = p1;
      found[at + 5] = p2;
    }
    // Every token's slot is read once before any is looked up: on a large table each read misses
    // the cache, and in a loop this short the processor has many of those misses in flight at
    // once, where a lookup at a time waits for each (three times the cost of a token on a busy thread).
    let touched = 0;
    for (let at = 0; at < 6 * foundCount; at += 6) touched ^= slots[(found[at + 2]! & mask) * SLOT + 1]!;
    touchedSlots[0]! ^= touched;
    for (let at = 0; at < 6 * foundCount; at += 6) push(idOfAscii(text, found[at]!, found[at + 1]!, found[at + 2]!, found[at + 3]!, found[at + 4]!, found[at + 5]!));
  }

  return {
    read(text) {
      count = 0;
      // Written as UTF-8 where any text fits (three bytes a UTF-16 unit at most): as many bytes as
      // characters means an ASCII text, and its bytes are what the scan reads; one pass for both.
      if (bytes.length <= 3 * text.length) bytes = Buffer.allocUnsafe(6 * text.length + 1);
      const length = bytes.write(text, 0, 'utf8');
      if (length === text.length) readAscii(text, length);
      else for (const token of tokenize(text)) push(idOf(token, 0, token.length, tokenHash(token), token));
      return count;
    },
    get ids() {
      return ids;
    },
    get size() {
      return words.length;
    },
    word: (id) => words[id]!,
  };
}

/** Where readAscii's early slot reads go: a store the compiler must keep, so it keeps the reads. */
const touchedSlots = new Int32Array(1);

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a of a token's folded characters, as the ASCII scan computes it while reading. */
function tokenHash(token: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < token.length; index++) hash = Math.imul(hash ^ foldAscii(token.charCodeAt(index)), FNV_PRIME);
  return hash;
}

function copyInto<A extends Int32Array<ArrayBuffer> | Uint16Array<ArrayBuffer>>(larger: A, smaller: A): A {
  larger.set(smaller);
  return larger;
}
