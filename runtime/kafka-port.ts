/**
 * The one way the stages, the CLI and replay reach Kafka: consume (run a stage), publish, own shards
 * with fenced transactions (the monitor), and read topics outside every service group (to the end, by time, following).
 * It carries the serde and the topic naming, so nothing above the runtime handles the client, the
 * serde and the naming as a loose triple, and every name comes from topics/.
 */
import {
  readDeadLetters,
  redriveDeadLetters,
  type RedriveResult,
  type StoredDeadLetter,
  type UnreadableDeadLetter,
} from './dead-letters.ts';
import { readConsumerLag, type GroupLag } from './consumer-lag.ts';
import type { ValueOf } from './handler.ts';
import { createTopics, type Kafka } from './kafka.ts';
import { createPublisher, type Publisher } from './publishers.ts';
import { startService, type RunnerOptions, type RunningService } from './runner.ts';
import type { Serde } from './serde.ts';
import { createCompactedWriter, startShardOwners, type CompactedWriter, type ShardOwners, type ShardOwnersOptions } from './shard-owners.ts';
import { followTopic, readCompactedTopic, readTimeRange, readTopicToEnd, type FollowedTopic, type StoredRecord } from './topic-readers.ts';
import type { TopicLayout } from '../topics/topic-plan.ts';
import { consumerGroup, physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';

export type StageRun<T extends TopicName> = Omit<RunnerOptions<T>, 'kafka' | 'serde' | 'naming'>;

export interface TimeRangeRead {
  sinceMs: number;
  untilMs: number;
  keep: (record: StoredRecord) => boolean;
  onRecord: (record: StoredRecord) => Promise<void>;
  onProgress?: (done: number, total: number) => void;
  /** Names the throwaway reader group. */
  purpose: string;
}

export interface KafkaPort {
  readonly naming: TopicNaming;
  readonly serde: Serde;
  /** Runs a stage: its consumer group reads the handler's input topic (runner.ts). */
  consume<T extends TopicName>(run: StageRun<T>): Promise<RunningService>;
  publisher(stage: string): Promise<Publisher>;
  /** Every committed message from the beginning up to the end offsets at the time of the call. */
  readToEnd<T extends TopicName>(topic: T): Promise<Array<{ key: string | null; value: ValueOf<T> }>>;
  /** A compacted state topic as a map: every key's newest value. */
  readCompacted<T extends TopicName>(topic: T): Promise<Map<string, ValueOf<T>>>;
  /** The records of a topic stamped in [sinceMs, untilMs), undecoded, in offset order per partition. */
  readTimeRange(topic: TopicName, read: TimeRangeRead): Promise<void>;
  /** Reads a topic from its beginning and keeps following it until closed. */
  follow<T extends TopicName>(topic: T, purpose: string, onRecord: Parameters<typeof followTopic<T>>[0]['onRecord']): Promise<FollowedTopic>;
  /** Every letter now on dead-letters (or only the one at `at`); undecodable ones are listed apart. */
  readDeadLetters(options?: { at?: { partition: number; offset: string } }): Promise<{ letters: StoredDeadLetter[]; unreadable: UnreadableDeadLetter[] }>;
  redriveDeadLetters(letters: readonly StoredDeadLetter[], onRedriven: (letter: StoredDeadLetter, result: RedriveResult) => void | Promise<void>): Promise<void>;
  /** How far each service's consumer group is behind, per partition (admin reads only; no group is joined). */
  consumerLag(services: readonly string[]): Promise<Array<GroupLag & { service: string }>>;
  /** Owns shards of a config topic as a consumer group, with one fenced transactional producer per shard (the monitor). */
  shardOwners<C extends TopicName, S extends TopicName>(options: Omit<ShardOwnersOptions<C, S>, 'kafka' | 'serde' | 'naming'>): Promise<ShardOwners>;
  /** Writes values and tombstones to a compacted topic (topic configs). */
  compactedWriter<T extends TopicName>(stage: string, topic: T): Promise<CompactedWriter<T>>;
  /** Creates the table's topics that do not exist yet, laid out as planned; returns the physical names it created. */
  ensureTopics(): Promise<string[]>;
  /** The physical name of a topic, for messages to people. */
  topicName(topic: TopicName): string;
}

export function createKafkaPort(deps: { kafka: Kafka; serde: Serde; naming: TopicNaming; layout: TopicLayout }): KafkaPort {
  const { kafka, serde, naming } = deps;
  return {
    naming,
    serde,
    consume: (run) => startService({ ...run, kafka, serde, naming }),
    publisher: (stage) => createPublisher({ kafka, serde, naming, stage }),
    readToEnd: (topic) => readTopicToEnd({ kafka, serde, naming, topic }),
    readCompacted: (topic) => readCompactedTopic({ kafka, serde, naming, topic }),
    readTimeRange: (topic, read) => readTimeRange({ kafka, naming, topic: physicalTopic(naming, topic), ...read }),
    follow: (topic, purpose, onRecord) => followTopic({ kafka, serde, naming, topic, purpose, onRecord }),
    readDeadLetters: (options = {}) => readDeadLetters({ kafka, serde, naming }, options),
    redriveDeadLetters: (letters, onRedriven) => redriveDeadLetters({ kafka }, letters, onRedriven),
    async consumerLag(services) {
      const groups = await readConsumerLag(kafka, services.map((service) => consumerGroup(naming, service)));
      return groups.map((group, index) => ({ ...group, service: services[index]! }));
    },
    shardOwners: (options) => startShardOwners({ ...options, kafka, serde, naming }),
    compactedWriter: (stage, topic) => createCompactedWriter({ kafka, serde, naming, stage, topic }),
    async ensureTopics() {
      const admin = kafka.admin();
      await admin.connect();
      try {
        return await createTopics(admin, naming, deps.layout);
      } finally {
        await admin.disconnect();
      }
    },
    topicName: (topic) => physicalTopic(naming, topic),
  };
}
