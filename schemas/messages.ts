/**
 * The semantic rules of every Kafka message, checked after Avro decoding and before encoding.
 * Field sets match schemas/avro.ts; schemas/contracts.test.ts proves it.
 */
import { z } from 'zod';
import { runIdSchema, tenantIdSchema, topicIdSchema } from '../runtime/ids.ts';
import { CAPABILITIES, INTENTS, isoDateTime } from './ingest.ts';

const unit = z.number().min(0).max(1);
const nullableString = z.string().nullable();
const count = z.number().int().min(0);

export const RETRIEVAL_REQUEST_VERSION = 'skrya.retrieval-request.v1';
export const INGEST_VERSION = 'skrya.ingest.v1';

export const requestContextSchema = z.object({
  requested_at: isoDateTime,
  window_since: isoDateTime,
  window_until: isoDateTime,
  queries: z.array(z.string()),
  sub_queries: z.array(z.string()),
  intent: z.enum(INTENTS).nullable(),
  languages: z.array(z.string()),
  max_items: z.number().int().min(1).max(10_000),
  boost_domains: z.array(z.string()),
});
export type RequestContext = z.infer<typeof requestContextSchema>;

export const producerSchema = z.object({
  kind: z.enum(['provider', 'runtime-skill']),
  name: z.string().min(1),
  persistent: z.boolean(),
  capabilities: z.array(z.enum(CAPABILITIES)),
});
export type Producer = z.infer<typeof producerSchema>;

export const providerStatusSchema = z.object({
  provider: z.string().min(1),
  capability: z.string(),
  status: z.enum(['ok', 'error', 'skipped', 'not_connected']),
  code: nullableString,
  message: nullableString,
  calls: count,
  results: count,
});
export type ProviderStatus = z.infer<typeof providerStatusSchema>;

export const retrievalRequestSchema = z.object({
  interface_version: z.literal(RETRIEVAL_REQUEST_VERSION),
  tenant: tenantIdSchema,
  topic_id: topicIdSchema,
  run_id: runIdSchema,
  requested_at: isoDateTime,
  trigger: z.enum(['SCHEDULE', 'CLI', 'REPLAY']),
  time_window: z.object({ since: isoDateTime, until: isoDateTime }).refine((window) => Date.parse(window.since) <= Date.parse(window.until), 'time_window.since must not be after until'),
  capabilities: z.array(z.enum(CAPABILITIES)).min(1),
  queries: z.array(z.string().min(1)),
  languages: z.array(z.string().min(1)),
  max_items: z.number().int().min(1).max(10_000),
  locations: z.object({
    feeds: z.array(z.string().min(1)),
    paths: z.array(z.string().min(1)),
    urls: z.array(z.string().min(1)),
    sites: z.array(z.string().min(1)),
  }),
  intent: z.enum(INTENTS).nullable(),
  sub_queries: z.array(z.string().min(1)),
  boost_domains: z.array(z.string().min(1)),
  plan_json: z.string().nullable(),
});
export type RetrievalRequest = z.infer<typeof retrievalRequestSchema>;

const providerResponseSchema = z.object({
  sequence: count,
  capability: z.enum(CAPABILITIES),
  sub_query: nullableString,
  counter_evidence: z.boolean(),
  fetched_at: isoDateTime,
  http_status: z.number().int(),
  content_type: z.string(),
  url: nullableString,
  payload: z.string(),
});
export type ProviderResponse = z.infer<typeof providerResponseSchema>;

/** What every run-end marker reports about the run as a whole. */
const runSummary = {
  started_at: isoDateTime,
  finished_at: isoDateTime,
  provider_status: z.array(providerStatusSchema),
  degradation_log_json: z.string(),
  plan_json: z.string().nullable(),
};

const runEndSchema = z.object({
  response_count: count,
  ...runSummary,
});

const runScoped = { tenant: tenantIdSchema, topic_id: topicIdSchema, run_id: runIdSchema, request: requestContextSchema, producer: producerSchema };

export const rawResultSchema = z.discriminatedUnion('kind', [
  z.object({ ...runScoped, kind: z.literal('RESPONSE'), response: providerResponseSchema, run_end: z.null() }),
  z.object({ ...runScoped, kind: z.literal('RUN_END'), response: z.null(), run_end: runEndSchema }),
]);
export type RawResult = z.infer<typeof rawResultSchema>;

export const VERDICTS = ['ACCEPTED', 'DOWNWEIGHTED', 'QUARANTINED', 'DROPPED'] as const;
export type Verdict = (typeof VERDICTS)[number];

export const reasonSchema = z.object({ code: z.string().min(1), field: z.string(), message: z.string() });
export type Reason = z.infer<typeof reasonSchema>;

export const scoreComponentsSchema = z.object({
  keyword: unit,
  freshness: unit,
  authority: unit,
  authority_tier: z.number().int().min(1).max(4),
  authority_rule: nullableString,
  authority_version: z.string(),
  boosted: z.boolean(),
  base: unit,
  agreement: z.number().min(0).max(1),
  independent_sources: z.number().int().min(1),
  weight_keyword: unit,
  weight_freshness: unit,
  weight_authority: unit,
  rank: unit,
  weight_rank: unit,
  weight_agreement: unit,
  freshness_basis: z.enum(['published', 'estimated', 'undated']),
  freshness_date: nullableString,
  /** The scoring model (id@version) whose weights, tiers and thresholds gave these numbers. */
  model: nullableString,
});
export type ScoreComponents = z.infer<typeof scoreComponentsSchema>;

export const scoredItemSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  url: nullableString,
  source_name: nullableString,
  published_at: nullableString,
  fetched_at: isoDateTime,
  language: nullableString,
  content: nullableString,
  summary: nullableString,
  evidence_type: nullableString,
  confidence: z.enum(['high', 'medium', 'low']).nullable(),
  canonical_url: nullableString,
  content_hash: z.string().regex(/^[0-9a-f]{16,64}$/),
  producer_name: z.string().min(1),
  capability: z.enum(CAPABILITIES),
  position: count,
  response_sequence: count,
  counter_evidence: z.boolean(),
  sources: z.array(z.object({ provider: z.string().min(1), url: nullableString, item_id: z.string().min(1) })).min(1),
  verdict: z.enum(VERDICTS),
  reasons: z.array(reasonSchema),
  injection_score: unit,
  evidence: z.array(z.object({ rule: z.string(), technique: z.string(), field: z.string(), start: count, end: count, text: z.string() })),
  score: unit.nullable(),
  components: scoreComponentsSchema.nullable(),
});
export type ScoredItem = z.infer<typeof scoredItemSchema>;

export const runCountsSchema = z.object({
  raw_responses: count,
  raw_items: count,
  accepted: count,
  downweighted: count,
  quarantined: count,
  dropped: count,
  normalize_failures: count,
});
export type RunCounts = z.infer<typeof runCountsSchema>;

const scoredRunEndSchema = z.object({
  item_messages: count,
  counts: runCountsSchema,
  ...runSummary,
});

export const scoredResultSchema = z.discriminatedUnion('kind', [
  z.object({ ...runScoped, kind: z.literal('ITEM'), item: scoredItemSchema, run_end: z.null() }),
  z.object({ ...runScoped, kind: z.literal('RUN_END'), item: z.null(), run_end: scoredRunEndSchema }),
]);
export type ScoredResult = z.infer<typeof scoredResultSchema>;

/** An item ranked below max_items: left out of the document, but found, so change tracking remembers it. */
export const cutItemSchema = z.object({
  id: z.string().min(1),
  title: z.string(),
  url: nullableString,
  canonical_url: nullableString,
  content_hash: z.string().regex(/^[0-9a-f]{16,64}$/),
});
export type CutItem = z.infer<typeof cutItemSchema>;

export const ingestBatchSchema = z.object({
  interface_version: z.literal(INGEST_VERSION),
  tenant: tenantIdSchema,
  topic_id: topicIdSchema,
  run_id: runIdSchema,
  retrieved_at: isoDateTime,
  producer: producerSchema,
  request: requestContextSchema,
  items: z.array(scoredItemSchema),
  cut: z.array(cutItemSchema),
  stats: z.object({
    counts: runCountsSchema,
    merged_duplicates: count,
    cut_by_max_items: count,
    complete: z.boolean(),
    incomplete_reason: nullableString,
    provider_status: z.array(providerStatusSchema),
    degradation_log_json: z.string(),
    plan_json: z.string().nullable(),
  }),
  digest_markdown: z.string(),
  /** The scoring model (id@version) the run was ranked with: named even when no item carries score components. */
  scoring_model: nullableString,
});
export type IngestBatch = z.infer<typeof ingestBatchSchema>;

export const deadLetterSchema = z.object({
  source_topic: z.string().min(1),
  source_partition: z.number().int().min(0),
  source_offset: z.string().regex(/^\d+$/),
  original_key: z.instanceof(Buffer).nullable(),
  original_value: z.instanceof(Buffer).nullable(),
  original_headers_json: z.string(),
  stage: z.string().min(1),
  reason_code: z.string().min(1),
  error_message: z.string(),
  failed_at: isoDateTime,
  tenant: tenantIdSchema.nullable(),
});
export type DeadLetter = z.infer<typeof deadLetterSchema>;

export const monitorStateSchema = z.object({
  tenant: tenantIdSchema,
  topic_id: topicIdSchema,
  last_run_id: runIdSchema,
  last_window_since: isoDateTime,
  last_window_until: isoDateTime,
  fired_at: isoDateTime,
});
export type MonitorState = z.infer<typeof monitorStateSchema>;

/**
 * One topic's validated configuration as published to the compacted topic-configs topic (keyed
 * `<tenant>/<topic-id>`; a deleted topic is a tombstone). `sources_json` is the normalized
 * sources.json (cadence, window, intent, enabled runtime-retrieval sources), so monitors never
 * re-lint. The publisher also resolves the intent and its sub-queries once, for the UTC year
 * `expanded_for_year` (the year enters status and news expansions), so a burst of due topics
 * does not expand 100,000 queries.
 */
export const topicConfigSchema = z.object({
  tenant: tenantIdSchema,
  topic_id: topicIdSchema,
  sources_json: z.string().min(2),
  content_sha256: z.string().regex(/^[0-9a-f]{64}$/),
  intent: z.enum(INTENTS).nullable(),
  sub_queries: z.array(z.string()),
  expanded_for_year: z.number().int().min(1970).max(9999),
  /** The end of the last run the data tree shows (latest-ingest.json), for a topic Kafka has no state of yet. */
  last_run_until: isoDateTime.nullable(),
  published_at: isoDateTime,
});
export type TopicConfig = z.infer<typeof topicConfigSchema>;

/** A UTC calendar day, YYYY-MM-DD: the unit of a tenant's daily request quota. */
export const utcDaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a UTC day, YYYY-MM-DD');

export const tenantUsageSchema = z.object({
  tenant: tenantIdSchema,
  day: utcDaySchema,
  run_id: runIdSchema,
  claimed_at: isoDateTime,
});
export type TenantUsage = z.infer<typeof tenantUsageSchema>;
