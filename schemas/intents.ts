/**
 * The intents of a search query and the freshness windows (spec 000) as plain constants, apart from
 * their zod schemas in ingest.ts: query classification needs the names alone, and loading zod is
 * most of a short command's start-up.
 */
export const INTENTS = ['factual', 'status', 'comparison', 'tutorial', 'exploratory', 'news', 'resource'] as const;
export type Intent = (typeof INTENTS)[number];

/** Whether a text names an intent (intentSchema's check, for code that does not load zod). */
export function isIntent(value: string): value is Intent {
  return (INTENTS as readonly string[]).includes(value);
}

export const FRESHNESS = ['pd', 'pw', 'pm', 'py'] as const;
export type Freshness = (typeof FRESHNESS)[number];
