/**
 * The usage ledger on Kafka: a claim is produced to tenant-usage (acks from all replicas), and its
 * place is known once this instance's reader of the log has read up to the claim's offset, so every
 * claim before it, by any instance, has been counted. The reader is a throwaway group that never
 * commits: each instance reads the whole (three-day) log.
 */
import { randomUUID } from 'node:crypto';
import { SkryaError } from '../../../runtime/errors.ts';
import type { Kafka } from '../../../runtime/kafka.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { PRODUCER_CONFIG } from '../../../runtime/runner.ts';
import type { Serde } from '../../../runtime/serde.ts';
import { physicalTopic, type TopicNaming } from '../../../topics/topics.ts';
import { createUsageBook, type UsageClaim, type UsageLedger } from './usage-ledger.ts';

export interface KafkaUsageLedgerOptions {
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
  logger: Logger;
  clock?: () => Date;
  /** How long a claim may wait for the reader to reach it before the run is retried. */
  readTimeoutMs?: number;
}

interface Waiter {
  partition: number;
  offset: bigint;
  resolve: () => void;
  reject: (error: Error) => void;
}

export async function createKafkaUsageLedger(options: KafkaUsageLedgerOptions): Promise<UsageLedger> {
  const topic = physicalTopic(options.naming, 'tenant-usage');
  const clock = options.clock ?? (() => new Date());
  const readTimeoutMs = options.readTimeoutMs ?? 30_000;
  const book = createUsageBook();
  /** The next offset to read, per partition. */
  const readUpTo = new Map<number, bigint>();
  let waiters: Waiter[] = [];

  const settle = () => {
    waiters = waiters.filter((waiter) => {
      if ((readUpTo.get(waiter.partition) ?? 0n) <= waiter.offset) return true;
      waiter.resolve();
      return false;
    });
  };

  const producer = options.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  const reader = options.kafka.consumer({ groupId: `${options.naming.prefix}skrya-usage-reader-${randomUUID()}`, maxWaitTimeInMs: 20 });
  await reader.connect();
  await reader.subscribe({ topic, fromBeginning: true });
  await reader.run({
    autoCommit: false,
    eachBatch: async ({ batch }) => {
      for (const message of batch.messages) {
        if (message.value) {
          const claim = await options.serde.decode('tenant-usage', message.value);
          book.record({ tenant: claim.tenant, day: claim.day, runId: claim.run_id });
        }
        readUpTo.set(batch.partition, BigInt(message.offset) + 1n);
      }
      settle();
    },
  });

  const reached = (partition: number, offset: bigint) => new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiters = waiters.filter((waiter) => waiter !== entry);
      reject(new SkryaError('BROKER_UNAVAILABLE', `the tenant-usage reader did not reach offset ${offset} of partition ${partition} within ${readTimeoutMs} ms`));
    }, readTimeoutMs);
    const entry: Waiter = {
      partition,
      offset,
      resolve: () => {
        clearTimeout(timer);
        resolve();
      },
      reject: (error) => {
        clearTimeout(timer);
        reject(error);
      },
    };
    waiters.push(entry);
    settle();
  });

  return {
    async claim(claim: UsageClaim) {
      const known = book.placeOf(claim);
      if (known !== null) return known;
      const value = await options.serde.encode('tenant-usage', { tenant: claim.tenant, day: claim.day, run_id: claim.runId, claimed_at: clock().toISOString() });
      const [written] = await producer.send({ topic, acks: -1, messages: [{ key: `${claim.tenant}/${claim.day}`, value }] });
      if (!written?.baseOffset) throw new SkryaError('BROKER_UNAVAILABLE', 'the broker did not say where the usage claim was written');
      await reached(written.partition, BigInt(written.baseOffset));
      const place = book.placeOf(claim);
      // The reader has read past the claim, so the claim is in the book; anything else is a bug.
      if (place === null) throw new Error(`usage claim of run ${claim.runId} was read past but not recorded`);
      return place;
    },
    placeOf: (claim) => book.placeOf(claim),
    counted: (tenant, day) => book.counted(tenant, day),
    async close() {
      for (const waiter of waiters) waiter.reject(new SkryaError('BROKER_UNAVAILABLE', 'the usage ledger was closed'));
      waiters = [];
      await reader.disconnect();
      await producer.disconnect();
      options.logger.debug({ topic }, 'usage ledger closed');
    },
  };
}
