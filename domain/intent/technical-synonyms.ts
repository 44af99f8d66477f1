import { SkryaError } from '../../runtime/errors.ts';
import { closestWord } from './correct-typos.ts';
import { isNonEmptyString, isRecord, nonEmptyStrings, unknownKeys, versionedFileProblem } from './data-file-checks.ts';

interface SynonymEntry {
  term: string;
  canonical: string;
  /** Also an ordinary word ("go", "node", "os"): expanded only in its `form` casing or beside a context term. */
  ambiguous: boolean;
  form: string | undefined;
}

/** What is wrong with one entry ({term, canonical, ambiguous?, form?}), or null. */
function entryProblem(entry: unknown): string | null {
  if (!isRecord(entry)) return 'not an object';
  const extra = unknownKeys(entry, ['term', 'canonical', 'ambiguous', 'form']);
  if (extra.length > 0) return `unknown fields: ${extra.join(', ')}`;
  if (!isNonEmptyString(entry.term) || !isNonEmptyString(entry.canonical)) return 'term and canonical must be non-empty strings';
  if (entry.ambiguous !== undefined && typeof entry.ambiguous !== 'boolean') return 'ambiguous must be true or false';
  if (entry.form !== undefined && !isNonEmptyString(entry.form)) return 'form must be a non-empty string';
  if (entry.ambiguous === true && entry.form === undefined) return 'an ambiguous term needs its form';
  return null;
}

/** What is wrong with a synonym file ({version: 1, description, entries, contextTerms}), or null. */
function synonymFileProblem(raw: unknown): string | null {
  if (!isRecord(raw)) return 'not a JSON object';
  const envelope = versionedFileProblem(raw, ['entries', 'contextTerms']);
  if (envelope !== null) return envelope;
  if (!Array.isArray(raw.entries)) return 'entries must be a list';
  for (const [index, entry] of raw.entries.entries()) {
    const problem = entryProblem(entry);
    if (problem !== null) return `entries[${index}]: ${problem}`;
  }
  if (!nonEmptyStrings(raw.contextTerms)) return 'contextTerms must be a list of non-empty strings';
  return null;
}

export interface SynonymTable {
  /** By lower-cased term. */
  entries: ReadonlyMap<string, SynonymEntry>;
  /** Any term, whole-word, longest first (one pass, so a replacement is never replaced again). */
  matcher: RegExp;
  /** Lower-cased words that make a query technical, so an ambiguous term in it is the technical one. */
  contextWords: ReadonlySet<string>;
  /** Chinese context words, matched as substrings (Chinese has no spaces). */
  contextPhrases: readonly string[];
  /** Known names by lower case → display form, for correcting swapped letters ("Pyhton"). */
  knownNames: ReadonlyMap<string, string>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
// Whole-word in a technical sense: not inside Google/goal, not the "js" of next.js, not the "ci" of ci-cd.
const before = '(?<![A-Za-z0-9_.@#+/-])';
const after = '(?![A-Za-z0-9_@#+/-]|\\.[A-Za-z0-9])';
const WORD = new RegExp(`${before}[A-Za-z][A-Za-z0-9.+#-]*${after}`, 'gu');

/** Validates the synonym data file and prepares its matchers; a broken file is CONFIG_INVALID. */
export function buildSynonymTable(raw: unknown): SynonymTable {
  const problem = synonymFileProblem(raw);
  if (problem !== null) throw new SkryaError('CONFIG_INVALID', `technical synonym table is invalid: ${problem}`);
  const file = raw as { entries: Array<{ term: string; canonical: string; ambiguous?: boolean; form?: string }>; contextTerms: string[] };
  const entries: SynonymEntry[] = file.entries.map((entry) => ({ term: entry.term, canonical: entry.canonical, ambiguous: entry.ambiguous ?? false, form: entry.form }));
  const byTerm = new Map(entries.map((entry) => [entry.term.toLowerCase(), entry]));
  // Longer terms first, so "ci/cd" wins over a shorter term that could split it.
  const alternatives = [...byTerm.keys()].sort((left, right) => right.length - left.length).map(escapeRegExp);
  const matcher = new RegExp(`${before}(?:${alternatives.join('|')})${after}`, 'giu');
  const contextTerms = file.contextTerms;
  const hasCjk = (text: string) => /\p{Script=Han}/u.test(text);
  const contextWords = new Set([
    ...contextTerms.filter((term) => !hasCjk(term)).map((term) => term.toLowerCase()),
    ...entries.filter((entry) => !entry.ambiguous).flatMap((entry) => [entry.term.toLowerCase(), entry.canonical.toLowerCase()]),
  ]);
  const knownNames = new Map<string, string>();
  for (const name of [...contextTerms, ...entries.map((entry) => entry.canonical)]) {
    if (/^[A-Za-z][A-Za-z0-9.+#-]{4,}$/u.test(name)) knownNames.set(name.toLowerCase(), name);
  }
  return { entries: byTerm, matcher, contextWords, contextPhrases: contextTerms.filter(hasCjk), knownNames };
}

function isTechnical(text: string, table: SynonymTable, exceptTerm: string): boolean {
  const words = text.match(WORD) ?? [];
  if (words.some((word) => word.toLowerCase() !== exceptTerm && table.contextWords.has(word.toLowerCase()))) return true;
  return table.contextPhrases.some((phrase) => text.includes(phrase));
}

/**
 * The text with technical abbreviations spelled out (k8s → Kubernetes) and swapped-letter
 * misspellings of known names corrected (Pyhton → Python). Matching is whole-word, so
 * "Google", "goal" and "next.js" are left alone; an ambiguous term ("go") is expanded only when
 * typed as its form ("Go") or in a query that is otherwise technical ("rust vs go").
 */
export function applySynonyms(text: string, table: SynonymTable): string {
  const corrected = text.replace(WORD, (word) => {
    const lower = word.toLowerCase();
    if (table.knownNames.has(lower) || table.contextWords.has(lower) || !/^[a-z]+$/u.test(lower)) return word;
    const known = closestWord(lower, table.knownNames.keys(), { transpositionsOnly: true });
    return known === undefined ? word : (table.knownNames.get(known) ?? word);
  });
  return corrected.replace(table.matcher, (typed) => {
    const entry = table.entries.get(typed.toLowerCase());
    if (entry === undefined) return typed;
    if (!entry.ambiguous) return entry.canonical;
    return typed === entry.form || isTechnical(corrected, table, entry.term) ? entry.canonical : typed;
  });
}
