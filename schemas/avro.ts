/**
 * The Avro contracts of every topic. Records shared by several messages (request context,
 * producer, provider status) are defined once here and embedded whole in each schema,
 * because an Avro schema must carry its own named types.
 * Changes must stay BACKWARD_TRANSITIVE compatible: add fields with defaults, never retype.
 */

const NAMESPACE = 'dev.skrya.v1';
const stringArray = { type: 'array', items: 'string' } as const;
const nullableString = { type: ['null', 'string'], default: null } as const;

const requestContext = {
  type: 'record',
  name: 'RequestContext',
  doc: 'What the scorer, collector and sink need from the request, carried so no stage looks it up.',
  fields: [
    { name: 'requested_at', type: 'string' },
    { name: 'window_since', type: 'string' },
    { name: 'window_until', type: 'string' },
    { name: 'queries', type: stringArray },
    { name: 'sub_queries', type: stringArray },
    { name: 'intent', ...nullableString },
    { name: 'languages', type: stringArray },
    { name: 'max_items', type: 'int' },
    { name: 'boost_domains', type: stringArray, default: [] },
  ],
};

const producer = {
  type: 'record',
  name: 'Producer',
  fields: [
    { name: 'kind', type: 'string', doc: 'provider | runtime-skill' },
    { name: 'name', type: 'string' },
    { name: 'persistent', type: 'boolean' },
    { name: 'capabilities', type: stringArray },
  ],
};

const providerStatus = {
  type: 'record',
  name: 'ProviderStatus',
  fields: [
    { name: 'provider', type: 'string' },
    { name: 'capability', type: 'string' },
    { name: 'status', type: 'string', doc: 'ok | error | skipped | not_connected' },
    { name: 'code', ...nullableString },
    { name: 'message', ...nullableString },
    { name: 'calls', type: 'int' },
    { name: 'results', type: 'int' },
  ],
};

/** What every run-end marker reports about the run as a whole. */
const runSummaryFields = [
  { name: 'started_at', type: 'string' },
  { name: 'finished_at', type: 'string' },
  { name: 'provider_status', type: { type: 'array', items: providerStatus } },
  { name: 'degradation_log_json', type: 'string', default: '[]' },
  { name: 'plan_json', ...nullableString, doc: 'The source-router plan the retriever enforced (spec 004 output), as JSON.' },
];

const reason = {
  type: 'record',
  name: 'Reason',
  fields: [
    { name: 'code', type: 'string' },
    { name: 'field', type: 'string' },
    { name: 'message', type: 'string' },
  ],
};

const evidence = {
  type: 'record',
  name: 'InjectionEvidence',
  fields: [
    { name: 'rule', type: 'string' },
    { name: 'technique', type: 'string' },
    { name: 'field', type: 'string' },
    { name: 'start', type: 'int' },
    { name: 'end', type: 'int' },
    { name: 'text', type: 'string' },
  ],
};

const scoreComponents = {
  type: 'record',
  name: 'ScoreComponents',
  doc: 'Every part of the score, so a ranking can be explained.',
  fields: [
    { name: 'keyword', type: 'double' },
    { name: 'freshness', type: 'double' },
    { name: 'authority', type: 'double' },
    { name: 'authority_tier', type: 'int' },
    { name: 'authority_rule', ...nullableString, doc: 'The authority-tiers rule that set the tier; null for the default tier.' },
    { name: 'authority_version', type: 'string', doc: 'Version of the authority-tiers data file.' },
    { name: 'boosted', type: 'boolean' },
    { name: 'base', type: 'double', doc: 'The content score (keyword, freshness, authority, verdict factor) before rank and agreement are fused in.' },
    { name: 'agreement', type: 'double', default: 0, doc: 'Agreement component 0-1: (independent sources - 1) / 3, capped.' },
    { name: 'independent_sources', type: 'int', default: 1 },
    { name: 'weight_keyword', type: 'double' },
    { name: 'weight_freshness', type: 'double' },
    { name: 'weight_authority', type: 'double' },
    { name: 'rank', type: 'double', default: 0.5, doc: "The providers' order, 0-1: reciprocal-rank fusion over every provider list and sub-query the document appeared in." },
    { name: 'weight_rank', type: 'double', default: 0 },
    { name: 'weight_agreement', type: 'double', default: 0 },
    { name: 'freshness_basis', type: 'string', default: 'published', doc: 'published | estimated (from the URL or text) | undated' },
    { name: 'freshness_date', ...nullableString, doc: 'The date freshness was measured from, published or estimated.' },
    { name: 'model', ...nullableString, doc: 'The scoring model that scored the item, id@version; null when scored before models were versioned.' },
  ],
};

const itemSource = {
  type: 'record',
  name: 'ItemSource',
  fields: [
    { name: 'provider', type: 'string' },
    { name: 'url', ...nullableString },
    { name: 'item_id', type: 'string' },
  ],
};

const verdict = { type: 'enum', name: 'Verdict', symbols: ['ACCEPTED', 'DOWNWEIGHTED', 'QUARANTINED', 'DROPPED'] };

const scoredItem = {
  type: 'record',
  name: 'ScoredItemBody',
  doc: 'A skrya.ingest.v1 item plus what the scorer learned about it.',
  fields: [
    { name: 'id', type: 'string', doc: 'Deterministic: hash of tenant, topic, canonical URL, content hash and run id.' },
    { name: 'title', type: 'string' },
    { name: 'url', ...nullableString },
    { name: 'source_name', ...nullableString },
    { name: 'published_at', ...nullableString },
    { name: 'fetched_at', type: 'string' },
    { name: 'language', ...nullableString },
    { name: 'content', ...nullableString },
    { name: 'summary', ...nullableString },
    { name: 'evidence_type', ...nullableString },
    { name: 'confidence', ...nullableString },
    { name: 'canonical_url', ...nullableString },
    { name: 'content_hash', type: 'string' },
    { name: 'producer_name', type: 'string' },
    { name: 'capability', type: 'string' },
    { name: 'position', type: 'int', doc: 'Order within the provider response: the ranking when there is no intent.' },
    { name: 'response_sequence', type: 'int' },
    { name: 'counter_evidence', type: 'boolean', default: false },
    { name: 'sources', type: { type: 'array', items: itemSource }, doc: 'Every provider copy of this item; the collector merges duplicates here.' },
    { name: 'verdict', type: verdict },
    { name: 'reasons', type: { type: 'array', items: reason } },
    { name: 'injection_score', type: 'double' },
    { name: 'evidence', type: { type: 'array', items: evidence } },
    { name: 'score', type: ['null', 'double'], default: null },
    { name: 'components', type: ['null', scoreComponents], default: null },
  ],
};

const runCounts = {
  type: 'record',
  name: 'RunCounts',
  fields: [
    { name: 'raw_responses', type: 'int' },
    { name: 'raw_items', type: 'int' },
    { name: 'accepted', type: 'int' },
    { name: 'downweighted', type: 'int' },
    { name: 'quarantined', type: 'int' },
    { name: 'dropped', type: 'int' },
    { name: 'normalize_failures', type: 'int' },
  ],
};

export const retrievalRequestAvro = {
  type: 'record',
  name: 'RetrievalRequest',
  namespace: NAMESPACE,
  doc: 'skrya.retrieval-request.v1 (spec 000) plus tenant, run id and the router plan: what one run must retrieve.',
  fields: [
    { name: 'interface_version', type: 'string' },
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'run_id', type: 'string' },
    { name: 'requested_at', type: 'string' },
    { name: 'trigger', type: { type: 'enum', name: 'RequestTrigger', symbols: ['SCHEDULE', 'CLI', 'REPLAY'] } },
    { name: 'time_window', type: { type: 'record', name: 'TimeWindow', fields: [{ name: 'since', type: 'string' }, { name: 'until', type: 'string' }] } },
    { name: 'capabilities', type: stringArray },
    { name: 'queries', type: stringArray },
    { name: 'languages', type: stringArray },
    { name: 'max_items', type: 'int' },
    {
      name: 'locations',
      doc: 'Where capability-neutral sources point: feed URLs or files, note folders, pages, sites. Never provider names.',
      type: {
        type: 'record',
        name: 'SourceLocations',
        fields: [
          { name: 'feeds', type: stringArray, default: [] },
          { name: 'paths', type: stringArray, default: [] },
          { name: 'urls', type: stringArray, default: [] },
          { name: 'sites', type: stringArray, default: [] },
        ],
      },
    },
    { name: 'intent', ...nullableString },
    { name: 'sub_queries', type: stringArray, default: [] },
    { name: 'boost_domains', type: stringArray, default: [] },
    { name: 'plan_json', ...nullableString, doc: 'The source router plan (spec 004 output) as JSON; zod checks its shape.' },
  ],
};

export const rawResultAvro = {
  type: 'record',
  name: 'RawResult',
  namespace: NAMESPACE,
  doc: 'One provider response, verbatim, or the run-end marker that closes a run.',
  fields: [
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'run_id', type: 'string' },
    { name: 'kind', type: { type: 'enum', name: 'RawResultKind', symbols: ['RESPONSE', 'RUN_END'] } },
    { name: 'request', type: requestContext },
    { name: 'producer', type: producer },
    {
      name: 'response',
      default: null,
      type: ['null', {
        type: 'record',
        name: 'ProviderResponse',
        fields: [
          { name: 'sequence', type: 'int', doc: 'Position of this response within the run, from 0.' },
          { name: 'capability', type: 'string' },
          { name: 'sub_query', ...nullableString },
          { name: 'counter_evidence', type: 'boolean', default: false },
          { name: 'fetched_at', type: 'string' },
          { name: 'http_status', type: 'int' },
          { name: 'content_type', type: 'string' },
          { name: 'url', ...nullableString },
          { name: 'payload', type: 'string', doc: "The provider's response body, verbatim (JSON, XML, HTML or text)." },
        ],
      }],
    },
    {
      name: 'run_end',
      default: null,
      type: ['null', {
        type: 'record',
        name: 'RunEnd',
        fields: [
          { name: 'response_count', type: 'int' },
          ...runSummaryFields,
        ],
      }],
    },
  ],
};

export const scoredResultAvro = {
  type: 'record',
  name: 'ScoredResult',
  namespace: NAMESPACE,
  doc: 'One scored item (kept, downweighted, quarantined or dropped) or the forwarded run-end marker with the scorer counts.',
  fields: [
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'run_id', type: 'string' },
    { name: 'kind', type: { type: 'enum', name: 'ScoredResultKind', symbols: ['ITEM', 'RUN_END'] } },
    { name: 'request', type: requestContext },
    { name: 'producer', type: producer },
    { name: 'item', type: ['null', scoredItem], default: null },
    {
      name: 'run_end',
      default: null,
      type: ['null', {
        type: 'record',
        name: 'ScoredRunEnd',
        fields: [
          { name: 'item_messages', type: 'int', doc: 'How many ITEM messages the scorer emitted for this run before this marker.' },
          { name: 'counts', type: runCounts },
          ...runSummaryFields,
        ],
      }],
    },
  ],
};

export const ingestBatchAvro = {
  type: 'record',
  name: 'IngestBatch',
  namespace: NAMESPACE,
  doc: 'The skrya.ingest.v1 document of one run plus its statistics and digest.',
  fields: [
    { name: 'interface_version', type: 'string' },
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'run_id', type: 'string' },
    { name: 'retrieved_at', type: 'string' },
    { name: 'producer', type: producer },
    { name: 'request', type: requestContext },
    { name: 'items', type: { type: 'array', items: scoredItem } },
    {
      name: 'cut',
      doc: 'Items ranked below max_items: not in the document, but found (change tracking remembers them).',
      type: {
        type: 'array',
        items: {
          type: 'record',
          name: 'CutItem',
          fields: [
            { name: 'id', type: 'string' },
            { name: 'title', type: 'string' },
            { name: 'url', ...nullableString },
            { name: 'canonical_url', ...nullableString },
            { name: 'content_hash', type: 'string' },
          ],
        },
      },
      default: [],
    },
    {
      name: 'stats',
      type: {
        type: 'record',
        name: 'RunStats',
        fields: [
          { name: 'counts', type: runCounts },
          { name: 'merged_duplicates', type: 'int' },
          { name: 'cut_by_max_items', type: 'int' },
          { name: 'complete', type: 'boolean' },
          { name: 'incomplete_reason', ...nullableString },
          { name: 'provider_status', type: { type: 'array', items: providerStatus } },
          { name: 'degradation_log_json', type: 'string', default: '[]' },
          { name: 'plan_json', ...nullableString },
        ],
      },
    },
    { name: 'digest_markdown', type: 'string', default: '' },
    { name: 'scoring_model', ...nullableString, doc: 'The scoring model the run was ranked with, id@version; null when ranked before models were versioned.' },
  ],
};

export const deadLetterAvro = {
  type: 'record',
  name: 'DeadLetter',
  namespace: NAMESPACE,
  doc: 'A message no stage could process, with its original bytes and why.',
  fields: [
    { name: 'source_topic', type: 'string' },
    { name: 'source_partition', type: 'int' },
    { name: 'source_offset', type: 'string' },
    { name: 'original_key', type: ['null', 'bytes'], default: null },
    { name: 'original_value', type: ['null', 'bytes'], default: null },
    // No '{}' default here: Apicurio 3.3's content-type detection rejects this schema with it (HTTP 422).
    { name: 'original_headers_json', type: 'string' },
    { name: 'stage', type: 'string' },
    { name: 'reason_code', type: 'string' },
    { name: 'error_message', type: 'string' },
    { name: 'failed_at', type: 'string' },
    { name: 'tenant', ...nullableString },
  ],
};

export const monitorStateAvro = {
  type: 'record',
  name: 'MonitorState',
  namespace: NAMESPACE,
  doc: "The monitor's memory of one topic (compacted by key): the last window it requested.",
  fields: [
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'last_run_id', type: 'string' },
    { name: 'last_window_since', type: 'string' },
    { name: 'last_window_until', type: 'string' },
    { name: 'fired_at', type: 'string' },
  ],
};

export const topicConfigAvro = {
  type: 'record',
  name: 'TopicConfig',
  namespace: NAMESPACE,
  doc: "One topic's validated sources.json (compacted by <tenant>/<topic-id>; a tombstone deletes the topic).",
  fields: [
    { name: 'tenant', type: 'string' },
    { name: 'topic_id', type: 'string' },
    { name: 'sources_json', type: 'string' },
    { name: 'content_sha256', type: 'string' },
    { name: 'intent', ...nullableString },
    { name: 'sub_queries', type: stringArray },
    { name: 'expanded_for_year', type: 'int' },
    { name: 'last_run_until', ...nullableString },
    { name: 'published_at', type: 'string' },
  ],
};

export const tenantUsageAvro = {
  type: 'record',
  name: 'TenantUsageClaim',
  namespace: NAMESPACE,
  doc: "One run a retriever counted against its tenant's daily request quota; the log's order decides the run's rank that day.",
  fields: [
    { name: 'tenant', type: 'string' },
    { name: 'day', type: 'string' },
    { name: 'run_id', type: 'string' },
    { name: 'claimed_at', type: 'string' },
  ],
};
