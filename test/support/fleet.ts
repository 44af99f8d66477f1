/**
 * A generated fleet of topics for the sharded monitor (the kill test and `npm run bench -- --only=fleet`):
 * N tenants × M topics with mixed cadences, published to topic-configs as `skrya topic apply` does,
 * and a read-committed watch on retrieval-requests that records when each request became visible,
 * to check every topic fired exactly once and to time due → emitted.
 */
import { randomUUID } from 'node:crypto';
import type { Consumer } from 'kafkajs';
import type { Pipeline } from '../../runtime/pipeline.ts';
import { createCompactedWriter, shardOfKey } from '../../runtime/shard-owners.ts';
import type { RetrievalRequest, TopicConfig } from '../../schemas/messages.ts';
import { nextRunAfter } from '../../services/monitor/cadence.ts';
import type { TopicSources } from '../../services/monitor/sources-file.ts';
import { toTopicConfig } from '../../services/monitor/topic-config.ts';
import { MONITOR_SHARDS, physicalTopic } from '../../topics/topics.ts';
import { parseTenantId, parseTopicId, type TenantId, type TopicId } from '../../runtime/ids.ts';

export type Cadence = TopicSources['cadence'];

export interface FleetTopic {
  tenant: TenantId;
  topicId: TopicId;
  key: string;
  cadence: Cadence;
  /** The end of the topic's last run as its config carries it: the monitor schedules from it. */
  lastRunUntil: string | null;
}

const QUERIES = ['Kafka KRaft migration status', 'Rust async runtime news', 'browser agents comparison', 'vector database tutorial', 'EU AI act enforcement news', '开源大模型 最新进展'];

/** A topic's sources with a cadence: a few query templates, so configs are realistic and cheap to make. */
function topicSources(cadence: Cadence, template: number): TopicSources {
  return {
    file: `fleet-template-${template}`,
    cadence,
    recencyHours: 24,
    intent: null,
    boostDomains: [],
    sources: [{
      id: 'feeds', type: 'runtime-retrieval', enabled: true, capabilities: ['rss_feed', 'web_search'], binding: 'runtime',
      queries: [QUERIES[template % QUERIES.length]!], languages: ['en'], feeds: ['https://example.org/feed.xml'], paths: [], urls: [], sites: [],
    }],
  };
}

export function fleetKey(tenant: number, topic: number): { tenant: TenantId; topicId: TopicId; key: string } {
  const tenantId = parseTenantId(`tenant-${String(tenant).padStart(5, '0')}`);
  const topicId = parseTopicId(`topic-${String(topic).padStart(4, '0')}`);
  return { tenant: tenantId, topicId, key: `${tenantId}/${topicId}` };
}

/** Configs for the topics, built once per (cadence, query template) and copied per topic. */
export function fleetConfigs(topics: readonly FleetTopic[], now: Date): Array<{ key: string; value: TopicConfig }> {
  const templates = new Map<string, TopicConfig>();
  return topics.map((topic, index) => {
    const template = index % QUERIES.length;
    const templateKey = `${JSON.stringify(topic.cadence)}|${template}`;
    let base = templates.get(templateKey);
    if (!base) {
      base = toTopicConfig({ tenant: parseTenantId('template'), topicId: parseTopicId('template'), topic: topicSources(topic.cadence, template), now, lastRunUntil: null });
      templates.set(templateKey, base);
    }
    return { key: topic.key, value: { ...base, tenant: topic.tenant, topic_id: topic.topicId, last_run_until: topic.lastRunUntil } };
  });
}

/**
 * A new daily topic on every shard, never run, so due the moment its config is read. Published
 * after other configs, all of them having fired means every shard's owner has read those configs
 * and ticked since.
 */
export function shardMarkers(label: string): FleetTopic[] {
  const markers: FleetTopic[] = [];
  for (let index = 0; markers.length < MONITOR_SHARDS; index += 1) {
    const key = `markers/${label}-${index}`;
    if (markers.some((marker) => shardOfKey(marker.key, MONITOR_SHARDS) === shardOfKey(key, MONITOR_SHARDS))) continue;
    markers.push({ tenant: parseTenantId('markers'), topicId: parseTopicId(`${label}-${index}`), key, cadence: { every_minutes: 24 * 60 }, lastRunUntil: null });
  }
  return markers;
}

/** Publishes the configs to topic-configs (as `skrya topic apply` does), all acknowledged. */
export async function publishFleet(pipeline: Pipeline, configs: ReadonlyArray<{ key: string; value: TopicConfig }>): Promise<void> {
  const writer = await createCompactedWriter({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'fleet', topic: 'topic-configs' });
  try {
    await writer.write(configs);
  } finally {
    await writer.close();
  }
}

/** When a topic with this last run is due (ms since the epoch). */
export function dueAfter(cadence: Cadence, lastRunUntil: string): number {
  return nextRunAfter(cadence, new Date(lastRunUntil)).getTime();
}

export interface SeenRequest {
  key: string;
  runId: string;
  since: string;
  until: string;
  /** When this process received it, committed (ms since the epoch): an upper bound of when it was emitted. */
  seenAt: number;
}

export interface RequestWatch {
  readonly seen: SeenRequest[];
  /** Resolves once `count` requests have been seen, or with false after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<boolean>;
  stop(): Promise<void>;
}

/** Follows retrieval-requests (committed only) from the beginning, recording each request. */
export async function watchRequests(pipeline: Pipeline): Promise<RequestWatch> {
  const seen: SeenRequest[] = [];
  const waiters: Array<{ count: number; resolve: (reached: boolean) => void }> = [];
  // A long session: a busy bench process must not be evicted and re-read everything.
  const consumer: Consumer = pipeline.kafka.consumer({ groupId: `${pipeline.port.naming.prefix}fleet-watch-${randomUUID()}`, readUncommitted: false, maxBytes: 32 * 1024 * 1024, sessionTimeout: 120_000, rebalanceTimeout: 120_000 });
  // A record read again after a rejoin is the same record (partition and offset), not a second firing.
  const records = new Set<string>();
  await consumer.connect();
  await consumer.subscribe({ topic: physicalTopic(pipeline.port.naming, 'retrieval-requests'), fromBeginning: true });
  const { promise: joined, resolve: resolveJoined } = Promise.withResolvers<void>();
  consumer.on(consumer.events.GROUP_JOIN, () => resolveJoined());
  await consumer.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      const seenAt = Date.now();
      for (const message of batch.messages) {
        const record = `${batch.partition}:${message.offset}`;
        if (!message.value || records.has(record)) continue;
        records.add(record);
        const request: RetrievalRequest = await pipeline.port.serde.decode('retrieval-requests', message.value);
        seen.push({ key: `${request.tenant}/${request.topic_id}`, runId: request.run_id, since: request.time_window.since, until: request.time_window.until, seenAt });
      }
      for (const waiter of [...waiters]) {
        if (seen.length < waiter.count) continue;
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(true);
      }
    },
  });
  await joined;
  return {
    seen,
    waitFor(count, timeoutMs) {
      if (seen.length >= count) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = { count, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index === -1) return;
          waiters.splice(index, 1);
          resolve(false);
        }, timeoutMs).unref();
      });
    },
    stop: () => consumer.disconnect(),
  };
}

export interface ExactlyOnceVerdict {
  expected: number;
  firedOnce: number;
  missing: string[];
  duplicated: string[];
  unexpected: string[];
}

/** Each expected key fired exactly once, and nothing else fired. */
export function exactlyOnce(expectedKeys: readonly string[], requests: readonly SeenRequest[]): ExactlyOnceVerdict {
  const counts = new Map<string, number>();
  for (const request of requests) counts.set(request.key, (counts.get(request.key) ?? 0) + 1);
  const expected = new Set(expectedKeys);
  return {
    expected: expected.size,
    firedOnce: expectedKeys.filter((key) => counts.get(key) === 1).length,
    missing: expectedKeys.filter((key) => !counts.has(key)),
    duplicated: expectedKeys.filter((key) => (counts.get(key) ?? 0) > 1),
    unexpected: [...counts.keys()].filter((key) => !expected.has(key)),
  };
}

/** The verdict with at most five keys a list: short enough to print whole in a failure message. */
export function briefVerdict(verdict: ExactlyOnceVerdict): ExactlyOnceVerdict {
  return { ...verdict, missing: verdict.missing.slice(0, 5), duplicated: verdict.duplicated.slice(0, 5), unexpected: verdict.unexpected.slice(0, 5) };
}
