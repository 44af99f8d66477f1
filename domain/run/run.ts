/**
 * A run: one execution of a tenant's topic, from its retrieval request to its batch. Every stage
 * names a run by the same key, and the run-end marker that closes it is built here: by the
 * retriever after its last response (raw-results), and again by the scorer with its own counts
 * (scored-results). The collector closes a run on that marker or when the run goes quiet.
 */
import type { Capability } from '../../schemas/ingest.ts';
import type { ProviderStatus, RawResult, RetrievalRequest, RunCounts, ScoredResult } from '../../schemas/messages.ts';
import { type RunId, type TenantId, type TopicId, topicKey } from '../../runtime/ids.ts';

export interface RunRef {
  tenant: TenantId;
  topic_id: TopicId;
  run_id: RunId;
}

/** The Kafka key of every message of a topic's runs: one tenant's topic stays in one partition, in order. */
export function topicKeyOf(run: Pick<RunRef, 'tenant' | 'topic_id'>): string {
  return topicKey({ tenant: run.tenant, topicId: run.topic_id });
}

/** Names one run across the stages: `<tenant>/<topic-id>/<run-id>`. */
export function runKey(run: RunRef): string {
  return `${topicKeyOf(run)}/${run.run_id}`;
}

type RawRunEnd = Extract<RawResult, { kind: 'RUN_END' }>;
type ScoredRunEnd = Extract<ScoredResult, { kind: 'RUN_END' }>;

/** The retriever's marker after a run's last response: how many it sent, and how every provider fared. */
export function rawRunEnd(request: RetrievalRequest, context: RawRunEnd['request'], end: { responseCount: number; startedAt: string; finishedAt: string; providerStatus: ProviderStatus[]; degradationLog: unknown[]; planJson: string | null }): RawRunEnd {
  return {
    tenant: request.tenant,
    topic_id: request.topic_id,
    run_id: request.run_id,
    request: context,
    kind: 'RUN_END',
    producer: { kind: 'provider', name: 'retriever', persistent: true, capabilities: [...new Set<Capability>(request.capabilities)] },
    response: null,
    run_end: {
      response_count: end.responseCount,
      started_at: end.startedAt,
      finished_at: end.finishedAt,
      provider_status: end.providerStatus,
      degradation_log_json: JSON.stringify(end.degradationLog),
      plan_json: end.planJson,
    },
  };
}

/** The scorer's marker: the retriever's, with the item messages the scorer sent and its counts. */
export function scoredRunEnd(marker: RawRunEnd, tally: { itemMessages: number; counts: RunCounts }): ScoredRunEnd {
  const { run_end: end } = marker;
  return {
    tenant: marker.tenant,
    topic_id: marker.topic_id,
    run_id: marker.run_id,
    request: marker.request,
    kind: 'RUN_END',
    producer: marker.producer,
    item: null,
    run_end: {
      item_messages: tally.itemMessages,
      counts: { ...tally.counts, raw_responses: end.response_count },
      started_at: end.started_at,
      finished_at: end.finished_at,
      provider_status: end.provider_status,
      degradation_log_json: end.degradation_log_json,
      plan_json: end.plan_json,
    },
  };
}
