/**
 * Tenant-fair scheduling of retrieval runs inside one retriever instance. The runner reads a
 * partition in order; if runs were done in that order, one tenant's flood would hold every later
 * request of the partition behind it. Instead each request is queued on arrival (the runner keeps
 * reading), and runs start round-robin across tenants with queued work: a tenant gets at most
 * `maxRunsPerTenant` of the `maxRunsInFlight` slots, so another tenant always finds a slot free,
 * and one topic's runs still go one at a time, in order.
 *
 * Commit rules hold: a queued or running request's offset is held (the runner never commits past
 * the lowest held offset of a partition), and a finished run's offset is released only on the
 * drain after the one that handed out its outcomes, i.e. after the runner has produced them and
 * had them acknowledged. A crash re-reads everything held; runs are redone, not lost.
 */
import type { Outcome } from '../../../runtime/runner.ts';

export interface QueuedRun<T> {
  tenant: string;
  /** Runs of one lane (a topic) go one at a time, in arrival order. */
  lane: string;
  partition: number;
  offset: string;
  payload: T;
}

export interface FairQueueOptions<T> {
  maxRunsInFlight: number;
  maxRunsPerTenant: number;
  /** Requests held in memory before the reader is made to wait. */
  maxQueued: number;
  /**
   * Does one run: its outcomes, or null when it was abandoned (the service is stopping) and must be
   * redone from its held offset. A rejection is a bug and stops the queue's input loudly.
   */
  run(item: QueuedRun<T>, signal: AbortSignal): Promise<Outcome[] | null>;
}

export interface FairQueue<T> {
  enqueue(item: QueuedRun<T>): void;
  /** Resolves once fewer than maxQueued requests wait. */
  whenRoom(): Promise<void>;
  /** Outcomes of runs finished since the last drain; releases the offsets of those handed out by the last drain. */
  drain(): Outcome[];
  heldFrom(partition: number): string | null;
  /** A new assignment: forget everything, cancel runs in flight and drop what they produce. */
  reset(): void;
  load(): { queued: number; running: number; held: number; finished: number };
}

interface TenantLine<T> {
  queue: Array<QueuedRun<T>>;
  running: number;
  /** When the tenant last got a slot; a tenant new to the queue has never had one and goes first. */
  lastServed: number;
}

interface Finished {
  partition: number;
  offset: bigint;
  outcomes: Outcome[];
}

export function createFairQueue<T>(options: FairQueueOptions<T>): FairQueue<T> {
  let tenants = new Map<string, TenantLine<T>>();
  let served = 0;
  let running = 0;
  let queued = 0;
  let busyLanes = new Set<string>();
  let held = new Map<number, Set<bigint>>();
  let finished: Finished[] = [];
  let handedOut: Finished[] = [];
  let cancel = new AbortController();
  let roomWaiters: Array<() => void> = [];
  let failure: unknown = null;

  const hold = (partition: number, offset: bigint) => {
    const offsets = held.get(partition) ?? new Set<bigint>();
    held.set(partition, offsets);
    offsets.add(offset);
  };
  const release = (partition: number, offset: bigint) => held.get(partition)?.delete(offset);

  const wakeReaders = () => {
    if (queued >= options.maxQueued) return;
    const waiting = roomWaiters;
    roomWaiters = [];
    for (const wake of waiting) wake();
  };

  /**
   * The next run, round-robin: the tenant served least recently among those below their share with
   * a run whose lane is free.
   */
  const pick = (): QueuedRun<T> | null => {
    let chosen: { line: TenantLine<T>; position: number } | null = null;
    for (const line of tenants.values()) {
      if (line.running >= options.maxRunsPerTenant || (chosen && chosen.line.lastServed <= line.lastServed)) continue;
      const position = line.queue.findIndex((item) => !busyLanes.has(item.lane));
      if (position >= 0) chosen = { line, position };
    }
    if (chosen === null) return null;
    served += 1;
    chosen.line.lastServed = served;
    return chosen.line.queue.splice(chosen.position, 1)[0]!;
  };

  const start = (item: QueuedRun<T>) => {
    const line = tenants.get(item.tenant)!;
    running += 1;
    queued -= 1;
    line.running += 1;
    busyLanes.add(item.lane);
    const signal = cancel.signal;
    void options.run(item, signal).then(
      (outcomes) => {
        // An abandoned or cancelled run's outcomes are dropped: its offset stays held and the request is redone.
        if (outcomes !== null && !signal.aborted) finished.push({ partition: item.partition, offset: BigInt(item.offset), outcomes });
      },
      (error: unknown) => {
        failure ??= error;
      },
    ).finally(() => {
      if (signal.aborted) return;
      running -= 1;
      line.running -= 1;
      busyLanes.delete(item.lane);
      if (line.running === 0 && line.queue.length === 0) tenants.delete(item.tenant);
      pump();
    });
  };

  const pump = () => {
    while (running < options.maxRunsInFlight) {
      const item = pick();
      if (item === null) break;
      start(item);
    }
    wakeReaders();
  };

  const throwIfFailed = () => {
    if (failure !== null) throw failure;
  };

  return {
    enqueue(item) {
      throwIfFailed();
      hold(item.partition, BigInt(item.offset));
      let line = tenants.get(item.tenant);
      if (!line) {
        line = { queue: [], running: 0, lastServed: 0 };
        tenants.set(item.tenant, line);
      }
      line.queue.push(item);
      queued += 1;
      pump();
    },
    whenRoom() {
      if (queued < options.maxQueued) return Promise.resolve();
      return new Promise((resolve) => roomWaiters.push(resolve));
    },
    drain() {
      throwIfFailed();
      for (const run of handedOut) release(run.partition, run.offset);
      handedOut = finished;
      finished = [];
      return handedOut.flatMap((run) => run.outcomes);
    },
    heldFrom(partition) {
      let lowest: bigint | null = null;
      for (const offset of held.get(partition) ?? []) if (lowest === null || offset < lowest) lowest = offset;
      return lowest === null ? null : lowest.toString();
    },
    reset() {
      cancel.abort();
      cancel = new AbortController();
      tenants = new Map();
      running = 0;
      queued = 0;
      busyLanes = new Set();
      held = new Map();
      finished = [];
      handedOut = [];
      wakeReaders();
    },
    load: () => ({ queued, running, held: [...held.values()].reduce((sum, offsets) => sum + offsets.size, 0), finished: finished.length }),
  };
}
