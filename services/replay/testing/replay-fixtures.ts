/**
 * Raw-results for replay tests without a broker: a JSON serde that checks the same contracts as
 * the Avro one, and stored records of feed responses and run-end markers.
 */
import type { StoredRecord } from '../../../runtime/topic-readers.ts';
import { SkryaError } from '../../../runtime/errors.ts';
import type { Serde } from '../../../runtime/serde.ts';
import type { RawResult, RequestContext } from '../../../schemas/messages.ts';
import { TOPICS, type TopicName } from '../../../topics/topics.ts';
import { parseRunId, parseTenantId, parseTopicId } from '../../../runtime/ids.ts';

/** JSON instead of Avro; the zod contracts are checked on both sides, as the real serde does. */
export function jsonSerde(): Serde {
  const serde = {
    schemaId: () => 1,
    async encode(topic: TopicName, value: unknown) {
      const parsed = TOPICS[topic].contract.safeParse(value);
      if (!parsed.success) throw new SkryaError('SCHEMA_INVALID', `invalid ${topic} message`);
      return Buffer.from(JSON.stringify(parsed.data));
    },
    async decode(topic: TopicName, bytes: Buffer) {
      let json: unknown;
      try {
        json = JSON.parse(bytes.toString('utf8'));
      } catch {
        throw new SkryaError('UNDECODABLE', 'not JSON');
      }
      const parsed = TOPICS[topic].contract.safeParse(json);
      if (!parsed.success) throw new SkryaError('SCHEMA_INVALID', `${topic} message breaks its contract`);
      return parsed.data as never;
    },
    async relay(topic: TopicName, value: unknown) {
      return serde.decode(topic, await serde.encode(topic, value as never));
    },
  } as Serde;
  return serde;
}

export function requestAt(requestedAt: string): RequestContext {
  return { requested_at: requestedAt, window_since: '2026-11-27T00:00:00Z', window_until: requestedAt, queries: ['kafka release'], sub_queries: ['kafka release'], intent: 'news', languages: ['en'], max_items: 50, boost_domains: [] };
}

export function rss(titles: string[]): string {
  const items = titles.map((title, index) => `<item><title>${title}</title><link>https://example.com/${index}-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}</link><pubDate>Sun, 29 Nov 2026 08:00:00 GMT</pubDate><description>${title}: what Kafka operators need to know about this release.</description></item>`);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Kafka</title>${items.join('')}</channel></rss>`;
}

export function feedResponse(runId: string, request: RequestContext, sequence: number, payload: string, options: { topicId?: string; producerName?: string } = {}): RawResult {
  return {
    tenant: parseTenantId('acme'), topic_id: parseTopicId(options.topicId ?? 'kafka-news'), run_id: parseRunId(runId), kind: 'RESPONSE', request,
    producer: { kind: 'provider', name: options.producerName ?? 'feed_reader', persistent: true, capabilities: ['rss_feed'] },
    response: { sequence, capability: 'rss_feed', sub_query: null, counter_evidence: false, fetched_at: request.requested_at, http_status: 200, content_type: 'application/rss+xml', url: `https://example.com/feed-${sequence}.xml`, payload },
    run_end: null,
  };
}

export function runEnd(runId: string, request: RequestContext, responses: number, options: { topicId?: string } = {}): RawResult {
  return {
    tenant: parseTenantId('acme'), topic_id: parseTopicId(options.topicId ?? 'kafka-news'), run_id: parseRunId(runId), kind: 'RUN_END', request,
    producer: { kind: 'provider', name: 'retriever', persistent: true, capabilities: ['rss_feed'] }, response: null,
    run_end: { response_count: responses, started_at: request.requested_at, finished_at: request.requested_at, provider_status: [], degradation_log_json: '[]', plan_json: null },
  };
}

/** Stored records at offsets 0, 1, … on partition 0; a Buffer is taken as already-encoded bytes. */
export function storedRecords(values: Array<RawResult | Buffer>, key = 'acme/kafka-news'): StoredRecord[] {
  return values.map((value, offset) => ({
    partition: 0,
    offset: String(offset),
    timestamp: String(Date.UTC(2026, 10, 30) + offset * 1000),
    key: Buffer.from(Buffer.isBuffer(value) ? key : `${value.tenant}/${value.topic_id}`),
    value: Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value)),
    headers: {},
  }));
}
