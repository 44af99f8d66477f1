/**
 * Inputs whose work finishes after their handler returned (a handler's `later`). Each such input
 * is held (the runner commits nothing past it) until the outcomes of its completion have been
 * delivered; completions are delivered one batch at a time, in the order they finish, and a
 * delivery that fails for a passing reason is tried again. A new assignment forgets everything:
 * what was held is re-read from the committed offsets, and completions of the old assignment are
 * dropped when they arrive.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { isSkryaError } from './errors.ts';
import type { Logger } from './logger.ts';

export interface Completed<Input, Result> {
  partition: number;
  offset: bigint;
  input: Input;
  result: Result;
}

export interface DeferredWork<Input, Result> {
  /** Holds `offset` on `partition` until `completion`'s result is delivered (null: abandoned, stays held). */
  track(partition: number, offset: string, input: Input, completion: Promise<Result | null>): void;
  heldFrom(partition: number): string | null;
  /** A new assignment. */
  reset(): void;
  /** Stops delivering; what is still held is re-read after a restart. */
  stop(): void;
}

export function createDeferredWork<Input, Result>(options: {
  /** Produces the results and waits for their acknowledgement. */
  deliver(completed: ReadonlyArray<Completed<Input, Result>>): Promise<void>;
  /** After a delivery released held input: the runner commits what it can. */
  afterDelivery(): Promise<void>;
  /** A completion rejected or a result can never be delivered: a bug, the service must crash. */
  crash(error: Error): void;
  logger: Logger;
  retryDelayMs?: number;
}): DeferredWork<Input, Result> {
  let generation = 0;
  let stopped = false;
  const held = new Map<number, Map<bigint, number>>();
  let completed: Array<Completed<Input, Result>> = [];
  let delivering: Promise<void> = Promise.resolve();

  const hold = (partition: number, offset: bigint) => {
    const offsets = held.get(partition) ?? new Map<bigint, number>();
    offsets.set(offset, (offsets.get(offset) ?? 0) + 1);
    held.set(partition, offsets);
  };
  const release = (partition: number, offset: bigint) => {
    const offsets = held.get(partition);
    const count = offsets?.get(offset) ?? 0;
    if (count <= 1) offsets?.delete(offset);
    else offsets!.set(offset, count - 1);
  };

  async function deliverCompleted(): Promise<void> {
    while (completed.length > 0 && !stopped) {
      const batch = completed;
      const batchGeneration = generation;
      completed = [];
      try {
        await options.deliver(batch);
      } catch (error) {
        if (!isSkryaError(error) || !error.retriable) {
          options.crash(error instanceof Error ? error : new Error(String(error)));
          return;
        }
        options.logger.warn({ code: error.code, results: batch.length }, 'delivering finished work failed; trying again');
        if (batchGeneration === generation) completed = [...batch, ...completed];
        await delay(options.retryDelayMs ?? 1_000);
        continue;
      }
      if (batchGeneration !== generation) continue;
      for (const done of batch) release(done.partition, done.offset);
      await options.afterDelivery();
    }
  }

  return {
    track(partition, offset, input, completion) {
      const trackedGeneration = generation;
      hold(partition, BigInt(offset));
      completion.then(
        (result) => {
          if (result === null || trackedGeneration !== generation || stopped) return;
          completed.push({ partition, offset: BigInt(offset), input, result });
          delivering = delivering.then(deliverCompleted);
        },
        (error: unknown) => {
          if (trackedGeneration === generation && !stopped) options.crash(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
    heldFrom(partition) {
      let lowest: bigint | null = null;
      for (const offset of held.get(partition)?.keys() ?? []) if (lowest === null || offset < lowest) lowest = offset;
      return lowest === null ? null : lowest.toString();
    },
    reset() {
      generation += 1;
      held.clear();
      completed = [];
    },
    stop() {
      stopped = true;
    },
  };
}
