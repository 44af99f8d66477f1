/**
 * The topic table: every Kafka topic Skrya uses, with its partitions, retention, value contract
 * and dead-letter topic. Topic, subject and group names are made here and nowhere else.
 */
import { randomBytes } from 'node:crypto';
import { deadLetterAvro, ingestBatchAvro, monitorStateAvro, rawResultAvro, retrievalRequestAvro, scoredResultAvro, tenantUsageAvro, topicConfigAvro } from '../schemas/avro.ts';
import { deadLetterSchema, ingestBatchSchema, monitorStateSchema, rawResultSchema, retrievalRequestSchema, scoredResultSchema, tenantUsageSchema, topicConfigSchema } from '../schemas/messages.ts';
import type { z } from 'zod';

export type TopicName = 'retrieval-requests' | 'raw-results' | 'scored-results' | 'ingest-normalized' | 'dead-letters' | 'monitor-state' | 'tenant-usage' | 'topic-configs';

/**
 * Monitor shards: topic-configs and monitor-state have this many partitions each, so a topic's
 * config and its state share a partition number (same key, same murmur2 partitioner) and the
 * monitor owning config partition p restores its state from state partition p alone. Up to this
 * many monitor processes share the fleet; see docs/fleet-scale.md for the sizing.
 */
export const MONITOR_SHARDS = 12;

export interface TopicSpec<S extends z.ZodType = z.ZodType> {
  name: TopicName;
  partitions: number;
  /** Kafka topic configs applied on creation. */
  config: Record<string, string>;
  /**
   * Keys are `<tenant>/<topic-id>`: one topic's messages share a partition and keep their order.
   * Quota claims are keyed `<tenant>/<utc-day>`, so one tenant's claims of a day are totally ordered.
   */
  keyFormat: '<tenant>/<topic-id>' | '<tenant>/<utc-day>';
  avro: object;
  contract: S;
  deadLetterTopic: TopicName | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export const TOPICS = {
  'retrieval-requests': {
    name: 'retrieval-requests',
    partitions: 6,
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(7 * DAY_MS) },
    keyFormat: '<tenant>/<topic-id>',
    avro: retrievalRequestAvro,
    contract: retrievalRequestSchema,
    deadLetterTopic: 'dead-letters',
  },
  'raw-results': {
    name: 'raw-results',
    partitions: 6,
    // Replays read raw results back by timestamp, so they are kept longest.
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(30 * DAY_MS), 'max.message.bytes': String(16 * 1024 * 1024) },
    keyFormat: '<tenant>/<topic-id>',
    avro: rawResultAvro,
    contract: rawResultSchema,
    deadLetterTopic: 'dead-letters',
  },
  'scored-results': {
    name: 'scored-results',
    partitions: 6,
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(7 * DAY_MS) },
    keyFormat: '<tenant>/<topic-id>',
    avro: scoredResultAvro,
    contract: scoredResultSchema,
    deadLetterTopic: 'dead-letters',
  },
  'ingest-normalized': {
    name: 'ingest-normalized',
    partitions: 6,
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(30 * DAY_MS), 'max.message.bytes': String(16 * 1024 * 1024) },
    keyFormat: '<tenant>/<topic-id>',
    avro: ingestBatchAvro,
    contract: ingestBatchSchema,
    deadLetterTopic: 'dead-letters',
  },
  'dead-letters': {
    name: 'dead-letters',
    partitions: 1,
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(30 * DAY_MS), 'max.message.bytes': String(16 * 1024 * 1024) },
    keyFormat: '<tenant>/<topic-id>',
    avro: deadLetterAvro,
    contract: deadLetterSchema,
    deadLetterTopic: null,
  },
  'monitor-state': {
    name: 'monitor-state',
    partitions: MONITOR_SHARDS,
    // Compacted: the latest state per <tenant>/<topic-id> is kept forever, older ones are cleaned.
    config: { 'cleanup.policy': 'compact', 'min.cleanable.dirty.ratio': '0.1', 'segment.ms': String(DAY_MS) },
    keyFormat: '<tenant>/<topic-id>',
    avro: monitorStateAvro,
    contract: monitorStateSchema,
    deadLetterTopic: null,
  },
  'tenant-usage': {
    name: 'tenant-usage',
    partitions: 6,
    // A log, not compacted: the order of claims is what ranks a tenant's runs of a day. Only today
    // and yesterday matter; three days cover a retriever that restarts around midnight.
    config: { 'cleanup.policy': 'delete', 'retention.ms': String(3 * DAY_MS) },
    keyFormat: '<tenant>/<utc-day>',
    avro: tenantUsageAvro,
    contract: tenantUsageSchema,
    deadLetterTopic: null,
  },
  'topic-configs': {
    name: 'topic-configs',
    partitions: MONITOR_SHARDS,
    // Compacted: every topic's newest config is kept; a deleted topic's tombstone stays a day so
    // every monitor reading from the start sees the delete.
    config: { 'cleanup.policy': 'compact', 'min.cleanable.dirty.ratio': '0.1', 'segment.ms': String(DAY_MS), 'delete.retention.ms': String(DAY_MS) },
    keyFormat: '<tenant>/<topic-id>',
    avro: topicConfigAvro,
    contract: topicConfigSchema,
    deadLetterTopic: null,
  },
} as const satisfies Record<TopicName, TopicSpec>;

export const TOPIC_NAMES = Object.keys(TOPICS) as TopicName[];

/** Physical names: a prefix keeps tests, and tenants of a shared cluster, apart. */
export interface TopicNaming {
  prefix: string;
}

export function physicalTopic(naming: TopicNaming, topic: TopicName): string {
  return `${naming.prefix}${topic}`;
}

/** Value subjects follow the topic-name strategy: `<physical topic>-value`. */
export function valueSubject(naming: TopicNaming, topic: TopicName): string {
  return `${physicalTopic(naming, topic)}-value`;
}

export function consumerGroup(naming: TopicNaming, service: string): string {
  return `${naming.prefix}skrya-${service}`;
}

/** One transactional producer per shard a sharded service owns (the monitor over topic-configs): a new owner fences the old. */
export function shardTransactionalId(naming: TopicNaming, service: string, shard: number): string {
  return `${naming.prefix}skrya-${service}-shard-${shard}`;
}

/**
 * Throwaway readers (state on restart, the usage ledger's log, dead-letter and replay reads) never
 * commit; each gets a group of its own under this prefix and deletes it when it is done.
 */
export function readerGroup(naming: TopicNaming, purpose: string): string {
  return `${naming.prefix}skrya-reader-${purpose}-${randomBytes(6).toString('hex')}`;
}
