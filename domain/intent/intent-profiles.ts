import type { Freshness, Intent } from '../../schemas/ingest.ts';

export type SearchMode = 'answer' | 'deep' | 'fast';

export interface IntentProfile {
  mode: SearchMode;
  /** The provider freshness window to request, or null for no recency filter. */
  freshness: Freshness | null;
}

/**
 * Spec 001 phase 1 table. Where the table offers two windows (status pw/pm, news pd/pw) the
 * first, narrower one is used: a status or news query is asking about *now*, and a caller that
 * finds too little can widen to the second window; starting wide would bury the fresh items.
 */
export const INTENT_PROFILES: Readonly<Record<Intent, Readonly<IntentProfile>>> = {
  factual: { mode: 'answer', freshness: null },
  status: { mode: 'deep', freshness: 'pw' },
  comparison: { mode: 'deep', freshness: 'py' },
  tutorial: { mode: 'answer', freshness: 'py' },
  exploratory: { mode: 'deep', freshness: null },
  news: { mode: 'deep', freshness: 'pd' },
  resource: { mode: 'fast', freshness: null },
};

/**
 * Which intent wins when two match with equally strong signals: the most specific first.
 * A comparison names two things and asks about their relation; news names a time window;
 * status asks about the present state of one thing; a tutorial names a task; a resource names an
 * artefact type; factual asks about a concept; exploratory is the broadest and the default.
 */
export const SPECIFICITY_ORDER: readonly Intent[] = ['comparison', 'news', 'status', 'tutorial', 'resource', 'factual', 'exploratory'];

export const DEFAULT_INTENT: Intent = 'exploratory';
