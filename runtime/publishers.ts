/** Producing outside a consumer: plain publishers (acks from all replicas) and transactional ones. */
import { Partitioners, type ProducerConfig } from 'kafkajs';
import type { ValueOf } from './handler.ts';
import { standardHeaders } from './headers.ts';
import type { Kafka } from './kafka.ts';
import type { Serde } from './serde.ts';
import { physicalTopic, transactionalId, type TopicName, type TopicNaming, type TransactionalRole } from '../topics/topics.ts';

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
  close(): Promise<void>;
}

export async function createPublisher(options: PublisherDeps): Promise<Publisher> {
  const producer = options.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  return {
    async publish(topic, key, value, headers) {
      const encoded = await options.serde.encode(topic, value);
      const [written] = await producer.send({
        topic: physicalTopic(options.naming, topic),
        acks: -1,
        messages: [{ key, value: encoded, headers: { ...standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic, value }), ...headers } }],
      });
      if (written?.baseOffset === undefined) throw new Error(`the broker did not say where the ${topic} message was written`);
      return { partition: written.partition, offset: written.baseOffset };
    },
    close: () => producer.disconnect(),
  };
}

/**
 * Produces several messages as one Kafka transaction: all become visible together or none do.
 * One transactional id per role (named in topics/), so a second instance fences a stale first one.
 */
export interface TransactionalPublisher {
  publishAll(messages: ReadonlyArray<{ topic: TopicName; key: string; value: unknown }>): Promise<void>;
  close(): Promise<void>;
}

export async function createTransactionalPublisher(options: PublisherDeps & { role: TransactionalRole }): Promise<TransactionalPublisher> {
  const producer = options.kafka.producer({ ...PRODUCER_CONFIG, transactionalId: transactionalId(options.naming, options.role) });
  await producer.connect();
  return {
    async publishAll(messages) {
      const encoded = await Promise.all(messages.map(async (message) => ({
        topic: physicalTopic(options.naming, message.topic),
        messages: [{
          key: message.key,
          value: await options.serde.encode(message.topic, message.value as never),
          headers: standardHeaders({ stage: options.stage, naming: options.naming, serde: options.serde, topic: message.topic, value: message.value }),
        }],
      })));
      const transaction = await producer.transaction();
      try {
        await transaction.sendBatch({ acks: -1, topicMessages: encoded });
        await transaction.commit();
      } catch (error) {
        await transaction.abort().catch(() => {});
        throw error;
      }
    },
    close: () => producer.disconnect(),
  };
}
