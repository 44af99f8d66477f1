/**
 * The real-query set: candidates extracted from other people's documents (extract-queries.ts)
 * joined with their hand labels (labels.json), in the generated corpus's row shape so the eval
 * script and training read both alike. Candidates labelled 'skip' are headings that are no query
 * on their own and are left out. A candidate without a label, or a label naming no candidate,
 * means the extraction or the pinned package changed: INVALID_INPUT, so the set is never silently
 * smaller or relabelled.
 */
import { SkryaError } from '../../../runtime/errors.ts';
import { isIntent, type Intent } from '../../../schemas/intents.ts';
import type { Split } from '../../learned/random.ts';
import { queryCandidates, type QueryCandidate } from './extract-queries.ts';
import labelFile from './labels.json' with { type: 'json' };

export interface RealQuery {
  id: string;
  query: string;
  lang: QueryCandidate['lang'];
  intent: Intent;
  split: Split;
  family: string;
}

export type QueryLabel = Intent | 'skip';

const isLabel = (value: string): value is QueryLabel => value === 'skip' || isIntent(value);

/** Candidates joined with labels; throws INVALID_INPUT naming what does not match. */
export function joinLabels(candidates: readonly QueryCandidate[], labels: Readonly<Record<string, string>>): RealQuery[] {
  const keys = new Set(candidates.map((candidate) => candidate.key));
  const unlabelled = candidates.filter((candidate) => labels[candidate.key] === undefined).map((candidate) => `${candidate.key} (${candidate.document}: ${candidate.query})`);
  const orphans = Object.keys(labels).filter((key) => !keys.has(key));
  const invalid = Object.entries(labels).filter(([, label]) => !isLabel(label)).map(([key, label]) => `${key}: ${label}`);
  if (unlabelled.length + orphans.length + invalid.length > 0) {
    throw new SkryaError('INVALID_INPUT', `real-query labels do not match the extracted candidates: ${unlabelled.length} unlabelled, ${orphans.length} labels without a candidate, ${invalid.length} unknown labels (first: ${[...unlabelled, ...orphans, ...invalid].slice(0, 3).join('; ')})`, {
      details: { unlabelled, orphans, invalid },
    });
  }
  return candidates.flatMap((candidate) => {
    const label = labels[candidate.key] as QueryLabel;
    return label === 'skip' ? [] : [{ id: `real-${candidate.document}#${candidate.key}`, query: candidate.query, lang: candidate.lang, intent: label, split: candidate.split, family: candidate.family }];
  });
}

export const REAL_QUERY_LABELS: Readonly<Record<string, string>> = labelFile.labels;

let cached: RealQuery[] | undefined;

/** The labelled real queries of the pinned sources (fetched into the cache first when missing). */
export function realQueries(): RealQuery[] {
  cached ??= joinLabels(queryCandidates(), REAL_QUERY_LABELS);
  return cached;
}
