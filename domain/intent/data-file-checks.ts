/**
 * Small structural checks for the data files shipped beside the intent code (synonyms, glossary):
 * written out rather than as zod schemas because `skrya classify` reads these files on every run,
 * and loading zod would be most of its start-up.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The keys of `value` that are not among `known`. */
export const unknownKeys = (value: Record<string, unknown>, known: readonly string[]): string[] => Object.keys(value).filter((key) => !known.includes(key));

export const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';

export const nonEmptyStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every(isNonEmptyString);

/** The envelope both shipped data files share ({version: 1, description, …only `fields`}): what is wrong with it, or null. */
export function versionedFileProblem(raw: Record<string, unknown>, fields: readonly string[]): string | null {
  const extra = unknownKeys(raw, ['version', 'description', ...fields]);
  if (extra.length > 0) return `unknown fields: ${extra.join(', ')}`;
  if (raw.version !== 1) return 'version must be 1';
  if (typeof raw.description !== 'string') return 'description must be a string';
  return null;
}
