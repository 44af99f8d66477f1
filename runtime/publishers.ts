/** Producing outside a consumer: publishers that await acks from all in-sync replicas (transactions per shard: shard-owners.ts). */
import './kafkajs-replacements.ts';
import { Partitioners, type ProducerConfig } from 'kafkajs';
import type { ValueOf } from './handler.ts';
import { standardHeaders } from './headers.ts';
import type { Kafka } from './kafka.ts';
import type { Serde } from './serde.ts';
import { physicalTopic, type TopicName, type TopicNaming } from '../topics/topics.ts';

/**
 * Idempotent, ordered, and patient: while the broker is away sends are retried without limit,
 * so a stage waits for the broker instead of failing the input it is working on.
 */
export const PRODUCER_CONFIG: ProducerConfig = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  createPartitioner: Partitioners.DefaultPartitioner,
  retry: { retries: Number.MAX_SAFE_INTEGER, initialRetryTime: 300, maxRetryTime: 5_000 },
};

export interface WrittenAt {
  partition: number;
  offset: string;
}

interface PublisherDeps {
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
  stage: string;
}

/** Produces messages outside a consumer (`skrya request`, `skrya ingest`, the usage ledger), awaiting acks. */
export interface Publisher {
  /** Resolves with where the message was written once every in-sync replica has it. */
  publish<T extends TopicName>(topic: T, key: string, value: ValueOf<T>, headers?: Record<string, string>): Promise<WrittenAt>;
  /** Several messages of one topic in a single send, awaiting acks once. */
  publishAll<T extends TopicName>(topic: T, messages: ReadonlyArray<{ key: string; value: ValueOf<T> }>): Promise<void>;
  close(): Promise<void>;
}

export async function createPublisher(options: PublisherDeps): Promise<Publisher> {
  const producer = options.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  const send = async <T extends TopicName>(topic: T, messages: ReadonlyArray<{ key: string; value: ValueOf<T>; headers?: Record<string, string> | undefined }>) =>
    producer.send({
      topic: physicalTopic(options.naming, topic),
      acks: -1,
      messages: await Promise.all(messages.map(async ({ key, value, headers }) => ({
        key,
        value: await options.serde.encode(topic, value),
        headers: { ...standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic, value }), ...headers },
      }))),
    });
  return {
    async publish(topic, key, value, headers) {
      const [written] = await send(topic, [{ key, value, headers }]);
      if (written?.baseOffset === undefined) throw new Error(`the broker did not say where the ${topic} message was written`);
      return { partition: written.partition, offset: written.baseOffset };
    },
    async publishAll(topic, messages) {
      await send(topic, messages);
    },
    close: () => producer.disconnect(),
  };
}
