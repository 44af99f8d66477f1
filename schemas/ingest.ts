/**
 * skrya.ingest.v1 and skrya.retrieval-request.v1 (spec 000) as zod schemas: the semantic rules
 * checked at every boundary. The Avro contracts beside this file carry the same fields on the wire.
 */
import { z } from 'zod';
import { FRESHNESS, INTENTS } from './intents.ts';

export { FRESHNESS, INTENTS, type Freshness, type Intent } from './intents.ts';

// Spec 000's recommended names, plus local_file (spec 004's local source: a folder of notes).
export const CAPABILITIES = ['rss_feed', 'web_search', 'news_search', 'site_search', 'social_search', 'document_fetch', 'local_file'] as const;
export const capabilitySchema = z.enum(CAPABILITIES);
export type Capability = z.infer<typeof capabilitySchema>;

export const intentSchema = z.enum(INTENTS);
export const freshnessSchema = z.enum(FRESHNESS);

export const isoDateTime = z.iso.datetime({ offset: true });

/** One item of a skrya.ingest.v1 document, as spec 000 lists it. */
export const ingestItemSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  url: z.string().nullable(),
  source_name: z.string().nullable(),
  published_at: z.string().nullable(),
  fetched_at: z.string(),
  language: z.string().nullable(),
  content: z.string().nullable(),
  summary: z.string().nullable(),
  evidence_type: z.string().nullable(),
  confidence: z.enum(['high', 'medium', 'low']).nullable(),
});
export type IngestItem = z.infer<typeof ingestItemSchema>;

/**
 * What a search provider returns for one hit before normalization
 * ({url, title, snippet, published_date, source}, as `skrya rank --jsonl` reads it).
 */
export const providerResultSchema = z.object({
  url: z.string(),
  title: z.string().default(''),
  snippet: z.string().default(''),
  published_date: z.string().nullable().default(null),
  source: z.string().default(''),
  content: z.string().nullable().default(null),
  language: z.string().nullable().default(null),
  /** The markup the text came from, when there was any: injection screening looks for hidden HTML in it. */
  html: z.string().nullish(),
});
export type ProviderResult = z.infer<typeof providerResultSchema>;
