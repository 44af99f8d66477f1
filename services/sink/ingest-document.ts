/**
 * The skrya.ingest.v1 document agents read (latest-ingest.json, normalized/<timestamp>.json):
 * spec 000's fields first, then what Skrya adds to explain each item (score components, verdict,
 * injection evidence, merged sources). Built from the batch alone, so the bytes are reproducible.
 */
import type { IngestBatch, ScoredItem } from '../../schemas/messages.ts';
import type { RunChanges } from './run-changes.ts';
import type { RunOutcome, RunStatus } from './run-status.ts';

/** A run that did not become latest-ingest.json, named there so readers know the file is the last good run, not the last attempt. */
export interface LastAttempt {
  run_id: string;
  requested_at: string;
  status: RunStatus;
  reason: string;
  /** Its own record, relative to the topic's ingest folder. */
  file: string;
}

function documentItem(item: ScoredItem) {
  return {
    id: item.id,
    title: item.title,
    url: item.url,
    source_name: item.source_name,
    published_at: item.published_at,
    fetched_at: item.fetched_at,
    language: item.language,
    content: item.content,
    summary: item.summary,
    evidence_type: item.evidence_type,
    confidence: item.confidence,
    canonical_url: item.canonical_url,
    content_hash: item.content_hash,
    producer: item.producer_name,
    capability: item.capability,
    counter_evidence: item.counter_evidence,
    verdict: item.verdict.toLowerCase(),
    reasons: item.reasons,
    score: item.score,
    score_components: item.components,
    injection: { score: item.injection_score, evidence: item.evidence },
    sources: item.sources,
  };
}

/**
 * The degradation log and the plan arrive as JSON strings from whichever stage produced the run end;
 * a malformed one is kept verbatim rather than throwing, since a batch that can never be written
 * would stall the partition.
 */
function parseEmbeddedJson(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return json;
  }
}

/**
 * `changes` is null for a run that is not good (failed or incomplete): what it did not find says
 * nothing about what its sources hold. `lastAttempt` is set only in latest-ingest.json, when a
 * later run failed.
 */
export function ingestDocument(batch: IngestBatch, changes: RunChanges | null, outcome: RunOutcome, lastAttempt: LastAttempt | null = null) {
  return {
    interface_version: batch.interface_version,
    topic_id: batch.topic_id,
    tenant: batch.tenant,
    run_id: batch.run_id,
    status: outcome.status,
    status_reason: outcome.reason,
    last_attempt: lastAttempt,
    run_requested_at: batch.request.requested_at,
    retrieved_at: batch.retrieved_at,
    producer: batch.producer,
    time_window: { since: batch.request.window_since, until: batch.request.window_until },
    intent: batch.request.intent,
    queries: batch.request.queries,
    scoring_model: batch.scoring_model,
    items: batch.items.map(documentItem),
    changes,
    stats: {
      ...batch.stats.counts,
      kept: batch.items.length,
      merged_duplicates: batch.stats.merged_duplicates,
      cut_by_max_items: batch.stats.cut_by_max_items,
      complete: batch.stats.complete,
      incomplete_reason: batch.stats.incomplete_reason,
      providers: batch.stats.provider_status,
      degradation_log: parseEmbeddedJson(batch.stats.degradation_log_json),
      plan: batch.stats.plan_json === null ? null : parseEmbeddedJson(batch.stats.plan_json),
    },
  };
}

export function renderIngestDocument(batch: IngestBatch, changes: RunChanges | null, outcome: RunOutcome, lastAttempt: LastAttempt | null = null): string {
  return `${JSON.stringify(ingestDocument(batch, changes, outcome, lastAttempt), null, 2)}\n`;
}
