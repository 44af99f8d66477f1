/**
 * Tenant-fair scheduling of retrieval runs inside one retriever instance. The runner reads a
 * partition in order; if runs were done in that order, one tenant's flood would hold every later
 * request of the partition behind it. Instead each request is queued on arrival (the runner keeps
 * reading), and runs start round-robin across tenants with queued work: a tenant gets at most
 * `maxRunsPerTenant` of the `maxRunsInFlight` slots, so another tenant always finds a slot free,
 * and one topic's runs still go one at a time, in order.
 *
 * Each request is the retriever's `later`: the runner holds its offset until the run's outcomes
 * are acknowledged, so a crash re-reads everything queued or running; runs are redone, not lost.
 */
import type { Outcome } from '../../../runtime/handler.ts';
import type { TenantId } from '../../../runtime/ids.ts';

export interface QueuedRun<T> {
  tenant: TenantId;
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
  /** The run's outcomes once it has run; null when it was abandoned or cancelled. Rejects on a bug. */
  enqueue(item: QueuedRun<T>): Promise<Outcome[] | null>;
  /** Resolves once fewer than maxQueued requests wait. */
  whenRoom(): Promise<void>;
  /** A new assignment: forget everything queued, cancel runs in flight (their completions are null). */
  reset(): void;
  load(): { queued: number; running: number };
}

interface Waiting<T> {
  item: QueuedRun<T>;
  done: PromiseWithResolvers<Outcome[] | null>;
}

interface TenantLine<T> {
  queue: Array<Waiting<T>>;
  running: number;
  /** When the tenant last got a slot; a tenant new to the queue has never had one and goes first. */
  lastServed: number;
}

export function createFairQueue<T>(options: FairQueueOptions<T>): FairQueue<T> {
  let tenants = new Map<string, TenantLine<T>>();
  let served = 0;
  let running = 0;
  let queued = 0;
  let busyLanes = new Set<string>();
  let cancel = new AbortController();
  let roomWaiters: Array<() => void> = [];

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
  const pick = (): Waiting<T> | null => {
    let chosen: { line: TenantLine<T>; position: number } | null = null;
    for (const line of tenants.values()) {
      if (line.running >= options.maxRunsPerTenant || (chosen && chosen.line.lastServed <= line.lastServed)) continue;
      const position = line.queue.findIndex((waiting) => !busyLanes.has(waiting.item.lane));
      if (position >= 0) chosen = { line, position };
    }
    if (chosen === null) return null;
    served += 1;
    chosen.line.lastServed = served;
    return chosen.line.queue.splice(chosen.position, 1)[0]!;
  };

  const start = ({ item, done }: Waiting<T>) => {
    const line = tenants.get(item.tenant)!;
    running += 1;
    queued -= 1;
    line.running += 1;
    busyLanes.add(item.lane);
    const signal = cancel.signal;
    void options.run(item, signal).then(
      // A cancelled run's outcomes are dropped: its input is re-read and the request redone.
      (outcomes) => done.resolve(signal.aborted ? null : outcomes),
      (error: unknown) => done.reject(error),
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

  return {
    enqueue(item) {
      let line = tenants.get(item.tenant);
      if (!line) {
        line = { queue: [], running: 0, lastServed: 0 };
        tenants.set(item.tenant, line);
      }
      const done = Promise.withResolvers<Outcome[] | null>();
      line.queue.push({ item, done });
      queued += 1;
      pump();
      return done.promise;
    },
    whenRoom() {
      if (queued < options.maxQueued) return Promise.resolve();
      return new Promise((resolve) => roomWaiters.push(resolve));
    },
    reset() {
      cancel.abort();
      cancel = new AbortController();
      for (const line of tenants.values()) for (const waiting of line.queue) waiting.done.resolve(null);
      tenants = new Map();
      running = 0;
      queued = 0;
      busyLanes = new Set();
      wakeReaders();
    },
    load: () => ({ queued, running }),
  };
}
