/**
 * The usage ledger on Kafka: a claim is produced to tenant-usage (acks from all replicas), and its
 * place is known once this instance's reader of the log has read up to the claim's offset, so every
 * claim before it, by any instance, has been counted. The reader follows the log without committing:
 * each instance reads the whole (three-day) log.
 */
import { SkryaError } from '../../../runtime/errors.ts';
import type { KafkaPort } from '../../../runtime/kafka-port.ts';
import type { Logger } from '../../../runtime/logger.ts';
import { createUsageBook, type UsageClaim, type UsageLedger } from './usage-ledger.ts';

export interface KafkaUsageLedgerOptions {
  port: KafkaPort;
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

  const publisher = await options.port.publisher('retriever');
  const reader = await options.port.follow('tenant-usage', 'usage', (record) => {
    if (record.value) book.record({ tenant: record.value.tenant, day: record.value.day, runId: record.value.run_id });
    readUpTo.set(record.partition, record.nextOffset);
    settle();
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
      const value = { tenant: claim.tenant, day: claim.day, run_id: claim.runId, claimed_at: clock().toISOString() };
      const written = await publisher.publish('tenant-usage', `${claim.tenant}/${claim.day}`, value);
      await reached(written.partition, BigInt(written.offset));
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
      await reader.close();
      await publisher.close();
      options.logger.debug('usage ledger closed');
    },
  };
}
