import { createMappedTextBuilder, type MappedText } from './mapped-text.ts';

/** How two words differ when they are one edit apart (optimal string alignment), else null. */
export function singleEdit(typed: string, known: string): 'transposition' | 'edit' | null {
  if (typed === known) return null;
  const lengthGap = typed.length - known.length;
  if (Math.abs(lengthGap) > 1) return null;
  let prefix = 0;
  while (prefix < typed.length && prefix < known.length && typed[prefix] === known[prefix]) prefix += 1;
  if (lengthGap === 0) {
    if (typed.slice(prefix + 1) === known.slice(prefix + 1)) return 'edit';
    const swapped = typed[prefix + 1] === known[prefix] && typed[prefix] === known[prefix + 1];
    return swapped && typed.slice(prefix + 2) === known.slice(prefix + 2) ? 'transposition' : null;
  }
  const longer = lengthGap > 0 ? typed : known;
  const shorter = lengthGap > 0 ? known : typed;
  return longer.slice(prefix + 1) === shorter.slice(prefix) ? 'edit' : null;
}

// QWERTY rows: a wrong letter is a slip only when the finger landed on a neighbouring key.
const KEYBOARD_ROWS = ['qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

function neighbouringKeys(left: string, right: string): boolean {
  const place = (letter: string) => {
    const row = KEYBOARD_ROWS.findIndex((keys) => keys.includes(letter));
    return { row, column: row < 0 ? -9 : (KEYBOARD_ROWS[row] ?? '').indexOf(letter) };
  };
  const [a, b] = [place(left), place(right)];
  return a.row >= 0 && b.row >= 0 && Math.abs(a.row - b.row) <= 1 && Math.abs(a.column - b.column) <= 1;
}

/** For two words of one length differing in one letter: whether that letter sits next to the intended one. */
function plausibleSubstitution(typed: string, known: string): boolean {
  if (typed.length !== known.length) return true;
  let at = 0;
  while (at < typed.length && typed[at] === known[at]) at += 1;
  return neighbouringKeys(typed[at] ?? '', known[at] ?? '');
}

/**
 * The one word of `vocabulary` the typed word is a plausible slip of, or undefined.
 * Swapped letters ("electoin") are corrected from 4 letters on; a dropped, doubled or wrong letter
 * only from 7 on, because short words one letter apart are usually different words
 * ("latent" is not "latest"), and never at the end ("compared" is not a slip of "compare", "installed" not
 * one of "installer").
 * A wrong letter must be a neighbouring key: "electron" is a word of its own, not "election".
 * Two equally close candidates mean no correction.
 */
export function closestWord(typed: string, vocabulary: Iterable<string>, options: { transpositionsOnly?: boolean } = {}): string | undefined {
  if (typed.length < 4) return undefined;
  let found: string | undefined;
  for (const known of vocabulary) {
    const edit = singleEdit(typed, known);
    const longEnough = typed.length >= 7 && known.length >= 7 && options.transpositionsOnly !== true;
    // One letter more, less or other at the end is an inflection (compare → compared, installer → installed), not a slip.
    const inflection = typed.startsWith(known) || known.startsWith(typed) || typed.slice(0, -1) === known.slice(0, -1);
    const plausible = edit === 'transposition' || (edit === 'edit' && longEnough && !inflection && plausibleSubstitution(typed, known));
    if (!plausible) continue;
    if (found !== undefined) return undefined;
    found = known;
  }
  return found;
}

/** Replaces misspelt ASCII words by the vocabulary word they slip from; spans keep pointing at the typed word. */
export function correctTypos(mapped: MappedText, vocabulary: ReadonlySet<string>): MappedText {
  const builder = createMappedTextBuilder();
  let cursor = 0;
  for (const match of mapped.text.matchAll(/[a-z]+/gu)) {
    const word = match[0];
    const start = match.index;
    for (let unit = cursor; unit < start; unit += 1) builder.append(mapped.text.charAt(unit), mapped.origins[unit] ?? [0, 0]);
    const correction = vocabulary.has(word) ? undefined : closestWord(word, vocabulary);
    if (correction === undefined) {
      for (let unit = start; unit < start + word.length; unit += 1) builder.append(mapped.text.charAt(unit), mapped.origins[unit] ?? [0, 0]);
    } else {
      const first = mapped.origins[start] ?? [0, 0];
      const last = mapped.origins[start + word.length - 1] ?? first;
      builder.append(correction, [first[0], last[1]]);
    }
    cursor = start + word.length;
  }
  for (let unit = cursor; unit < mapped.text.length; unit += 1) builder.append(mapped.text.charAt(unit), mapped.origins[unit] ?? [0, 0]);
  return builder.build();
}
