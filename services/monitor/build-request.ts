/**
 * Turns a topic's sources.json into one provider-neutral skrya.retrieval-request.v1 (spec 000):
 * the union of enabled runtime-retrieval sources' capabilities, queries, languages and locations,
 * the largest max_items, a time window, the intent and the expanded sub-queries.
 */
import { createHash } from 'node:crypto';
import { SkryaError } from '../../runtime/errors.ts';
import { parseRunId, type RunId, type TenantId, type TopicId } from '../../runtime/ids.ts';
import type { Capability, Intent } from '../../schemas/ingest.ts';
import { RETRIEVAL_REQUEST_VERSION, retrievalRequestSchema, type RetrievalRequest } from '../../schemas/messages.ts';
import { classifyQuery } from '../../domain/intent/classify-query.ts';
import { expandQuery } from '../../domain/intent/expand-query.ts';
import { DEFAULT_MAX_ITEMS, type TopicSources } from './sources-file.ts';

const HOUR_MS = 60 * 60 * 1000;
const MAX_SUB_QUERIES = 12;

export interface RequestInput {
  tenant: TenantId;
  topicId: TopicId;
  topic: TopicSources;
  now: Date;
  trigger: RetrievalRequest['trigger'];
  /** Explicit window bounds (CLI --since/--until); otherwise since the last run, or recency_hours back. */
  since?: string | undefined;
  until?: string | undefined;
  lastRunUntil?: string | null | undefined;
  /** The intent and sub-queries resolved beforehand for this topic and the window's year (topic-configs carry them). */
  expansion?: QueryExpansion | undefined;
}

export interface QueryExpansion {
  intent: Intent | null;
  subQueries: string[];
}

/**
 * The topic's intent (its own, or classified from its first query) and its expanded sub-queries.
 * Pure for a given UTC year (status and news expansions name the year), and the costly part of a
 * request (about half a millisecond), so fleets compute it once per config and year.
 */
export function expandTopicQueries(topic: TopicSources, until: Date): QueryExpansion {
  const queries = union(topic.sources.map((source) => source.queries));
  const intent: Intent | null = topic.intent ?? (queries[0] ? classifyQuery(queries[0], { now: until }).intent : null);
  const subQueries = intent
    ? union(queries.map((query) => expandQuery(query, intent, { now: until }))).slice(0, MAX_SUB_QUERIES)
    : queries;
  return { intent, subQueries };
}

function union<T>(lists: T[][]): T[] {
  return [...new Set(lists.flat())];
}

/**
 * A date (UTC midnight) or a date-time with Z or an offset. Date.parse alone is too lenient: it
 * reads "1" as 2001, rolls 2026-02-30 over to March and reads a time without offset in the
 * server's zone, so the same command would mean different windows on different machines.
 */
const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

function isoOrThrow(value: string, flag: string): string {
  const parts = ISO_DATE_TIME.exec(value.trim());
  const time = Date.parse(value.trim());
  const calendarDay = parts ? new Date(Date.UTC(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]))).toISOString().slice(0, 10) : null;
  if (!parts || Number.isNaN(time) || calendarDay !== `${parts[1]}-${parts[2]}-${parts[3]}`) {
    throw new SkryaError('INVALID_INPUT', `${flag} ${JSON.stringify(value)} is not a date: use ISO 8601 with an offset, e.g. 2026-04-24T00:00:00+08:00`);
  }
  return new Date(time).toISOString();
}

/** Run ids are deterministic for a tenant, topic and window: emitting the same request twice is the same run. */
export function runIdFor(tenant: TenantId, topicId: TopicId, window: { since: string; until: string }): RunId {
  const stamp = window.until.replace(/[-:]/g, '').replace(/\.\d+/, '').toLowerCase();
  const digest = createHash('sha256').update(`${tenant}/${topicId}/${window.since}/${window.until}`).digest('hex').slice(0, 8);
  return parseRunId(`run-${stamp}-${digest}`);
}

export function buildRetrievalRequest(input: RequestInput): RetrievalRequest {
  const { tenant, topicId } = input;
  const { sources } = input.topic;
  if (sources.length === 0) throw new SkryaError('CONFIG_INVALID', `${input.topic.file}: no enabled runtime-retrieval source`);

  const until = input.until !== undefined ? isoOrThrow(input.until, '--until') : input.now.toISOString();
  const since = input.since !== undefined
    ? isoOrThrow(input.since, '--since')
    : input.lastRunUntil
      ? isoOrThrow(input.lastRunUntil, 'the end of the last run')
      : new Date(Date.parse(until) - input.topic.recencyHours * HOUR_MS).toISOString();
  // A window of no length would fetch nothing and still take a run id.
  if (Date.parse(since) >= Date.parse(until)) throw new SkryaError('INVALID_INPUT', `the time window is empty: since ${since} is not before until ${until}`);

  const queries = union(sources.map((source) => source.queries));
  const { intent, subQueries } = input.expansion ?? expandTopicQueries(input.topic, new Date(until));

  const request: RetrievalRequest = {
    interface_version: RETRIEVAL_REQUEST_VERSION,
    tenant,
    topic_id: topicId,
    run_id: runIdFor(tenant, topicId, { since, until }),
    requested_at: input.now.toISOString(),
    trigger: input.trigger,
    time_window: { since, until },
    capabilities: union<Capability>(sources.map((source) => source.capabilities)),
    queries,
    languages: union(sources.map((source) => source.languages)),
    max_items: Math.max(0, ...sources.map((source) => source.max_items ?? 0)) || DEFAULT_MAX_ITEMS,
    locations: {
      feeds: union(sources.map((source) => source.feeds)),
      paths: union(sources.map((source) => source.paths)),
      urls: union(sources.map((source) => source.urls)),
      sites: union(sources.map((source) => source.sites)),
    },
    intent,
    sub_queries: subQueries,
    boost_domains: input.topic.boostDomains,
    plan_json: null,
  };
  return retrievalRequestSchema.parse(request);
}
