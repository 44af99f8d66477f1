/**
 * A read_committed consumer against the real broker never hands on a record of an aborted
 * transaction, even when transactions on a partition end in another order than they began (two
 * shards of a killed monitor fenced one after the other). kafkajs 2.2.4 alone delivers the first
 * one's records there; runtime/kafkajs-read-committed.ts corrects its filter.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKafkaTestContext, type KafkaTestContext } from '../support/kafka-context.ts';

let context: KafkaTestContext;
let topic: string;

beforeAll(async () => {
  context = await createKafkaTestContext('read-committed', []);
  topic = `${context.naming.prefix}read-committed-${randomUUID().slice(0, 8)}`;
  await context.admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
});

afterAll(async () => {
  await context?.admin.deleteTopics({ topics: [topic] }).catch(() => {});
  await context?.close();
});

describe('a read_committed consumer', () => {
  it('skips two aborted transactions that ended in another order than they began, and keeps the committed one after them', async () => {
    const producers = ['first', 'second'].map((name) => context.kafka.producer({ transactionalId: `${topic}-${name}`, idempotent: true, maxInFlightRequests: 1 }));
    const [first, second] = producers as [(typeof producers)[number], (typeof producers)[number]];
    await Promise.all(producers.map((producer) => producer.connect()));
    try {
      const began = await first.transaction();
      await began.send({ topic, messages: [{ key: 'a', value: 'aborted, began first' }] });
      const beganLater = await second.transaction();
      await beganLater.send({ topic, messages: [{ key: 'b', value: 'aborted, began second' }] });
      await beganLater.abort();
      await began.abort();
      const committed = await second.transaction();
      await committed.send({ topic, messages: [{ key: 'c', value: 'committed' }] });
      await committed.commit();
    } finally {
      await Promise.all(producers.map((producer) => producer.disconnect()));
    }

    const consumer = context.kafka.consumer({ groupId: `${topic}-reader`, readUncommitted: false });
    const values: string[] = [];
    await consumer.connect();
    try {
      await consumer.subscribe({ topic, fromBeginning: true });
      // Waits for the committed record, the last one: what came before it has been handed on by then.
      await new Promise<void>((resolve, reject) => {
        consumer.run({
          eachMessage: async ({ message }) => {
            values.push(message.value?.toString('utf8') ?? '');
            if (message.value?.toString('utf8') === 'committed') resolve();
          },
        }).catch(reject);
      });
    } finally {
      await consumer.disconnect();
    }
    expect(values).toEqual(['committed']);
  }, 120_000);
});
