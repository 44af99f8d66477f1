import { describe, expect, it } from 'vitest';
import { emit, type Outcome } from '../../../runtime/handler.ts';
import { createFairQueue, type FairQueueOptions, type QueuedRun } from './fair-queue.ts';
import { parseTenantId } from '../../../runtime/ids.ts';

const turns = async (count = 3) => {
  for (let index = 0; index < count; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

/** Runs finish only when the test says so; `started` records the order runs began. */
function controlledRuns() {
  const started: string[] = [];
  const pending = new Map<string, (outcomes: Outcome[]) => void>();
  const failing = new Map<string, (error: Error) => void>();
  const run: FairQueueOptions<string>['run'] = (item) => new Promise((resolve, reject) => {
    started.push(item.payload);
    pending.set(item.payload, resolve);
    failing.set(item.payload, reject);
  });
  const finish = async (payload: string) => {
    pending.get(payload)!([drop(payload)]);
    await turns();
  };
  return { run, started, finish, fail: (payload: string) => failing.get(payload)!(new Error('bug')) };
}

const drop = (reason: string): Outcome => ({ kind: 'drop', reason });

let offsets = 0;
function request(tenant: string, payload: string, lane = `${tenant}/${payload}`, partition = 0): QueuedRun<string> {
  return { tenant: parseTenantId(tenant), lane, partition, offset: String(offsets++), payload };
}

const options = (run: FairQueueOptions<string>['run'], overrides: Partial<FairQueueOptions<string>> = {}) => ({ maxRunsInFlight: 4, maxRunsPerTenant: 2, maxQueued: 1_000, run, ...overrides });

describe('createFairQueue', () => {
  it('a flooding tenant gets its share of slots; another tenant\'s single request starts at once', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run));
    for (let index = 0; index < 500; index += 1) queue.enqueue(request('acme', `acme-${index}`));
    queue.enqueue(request('globex', 'globex-0'));
    await turns();
    expect(runs.started).toEqual(['acme-0', 'acme-1', 'globex-0']);
    expect(queue.load()).toMatchObject({ queued: 498, running: 3 });
  });

  it('alternates between tenants as slots free up', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run, { maxRunsInFlight: 1, maxRunsPerTenant: 1 }));
    for (const payload of ['a1', 'a2', 'a3']) queue.enqueue(request('acme', payload));
    for (const payload of ['g1', 'g2']) queue.enqueue(request('globex', payload));
    queue.enqueue(request('initech', 'i1'));
    for (const payload of ['a1', 'g1', 'i1', 'a2', 'g2']) await runs.finish(payload);
    expect(runs.started).toEqual(['a1', 'g1', 'i1', 'a2', 'g2', 'a3']);
  });

  it('runs one topic\'s requests one at a time, in order', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run));
    queue.enqueue(request('acme', 'first', 'acme/news'));
    queue.enqueue(request('acme', 'second', 'acme/news'));
    queue.enqueue(request('acme', 'other-topic', 'acme/blogs'));
    await turns();
    expect(runs.started).toEqual(['first', 'other-topic']);
    await runs.finish('first');
    expect(runs.started).toEqual(['first', 'other-topic', 'second']);
  });

  it('completes each request with its own run\'s outcomes, as its run finishes', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run));
    const settled: string[] = [];
    const first = queue.enqueue(request('acme', 'first', 'acme/a', 3));
    const second = queue.enqueue(request('globex', 'second', 'globex/b', 3));
    void first.then(() => settled.push('first'));
    void second.then(() => settled.push('second'));
    await runs.finish('second');
    expect(settled).toEqual(['second']);
    expect(await second).toEqual([drop('second')]);
    await runs.finish('first');
    expect(await first).toEqual([drop('first')]);
  });

  it('reset cancels runs in flight and queued requests: their completions are null, their outcomes dropped', async () => {
    const runs = controlledRuns();
    const signals: AbortSignal[] = [];
    const queue = createFairQueue(options((item, signal) => {
      signals.push(signal);
      return runs.run(item, signal);
    }));
    const cancelled = queue.enqueue(request('acme', 'cancelled', 'acme/a', 1));
    const queued = queue.enqueue(request('acme', 'queued', 'acme/a', 1));
    await turns();
    queue.reset();
    expect(signals[0]!.aborted).toBe(true);
    expect(await queued).toBeNull();
    await runs.finish('cancelled');
    expect(await cancelled).toBeNull();
    expect(queue.load()).toEqual({ queued: 0, running: 0 });
    void queue.enqueue(request('acme', 'after', 'acme/a', 1));
    await turns();
    expect(runs.started).toEqual(['cancelled', 'after']);
  });

  it('an abandoned run completes with null (its input stays held and is redone)', async () => {
    const queue = createFairQueue(options(async () => null));
    expect(await queue.enqueue(request('acme', 'abandoned', 'acme/a', 5))).toBeNull();
    await turns();
    expect(queue.load().running).toBe(0);
  });

  it('makes the reader wait while maxQueued requests wait', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run, { maxRunsInFlight: 1, maxQueued: 2 }));
    queue.enqueue(request('acme', 'running'));
    queue.enqueue(request('acme', 'q1'));
    queue.enqueue(request('acme', 'q2'));
    let room = false;
    void queue.whenRoom().then(() => (room = true));
    await turns();
    expect(room).toBe(false);
    await runs.finish('running');
    expect(room).toBe(true);
  });

  it('a run that rejects (a bug) rejects its completion, and the lane moves on', async () => {
    const runs = controlledRuns();
    const queue = createFairQueue(options(runs.run));
    const buggy = queue.enqueue(request('acme', 'buggy', 'acme/a', 2));
    const next = queue.enqueue(request('acme', 'next', 'acme/a', 2));
    runs.fail('buggy');
    await expect(buggy).rejects.toThrow('bug');
    await runs.finish('next');
    expect(await next).toEqual([drop('next')]);
  });

  it('emits what runs return', async () => {
    const queue = createFairQueue(options(async (item) => [emit('dead-letters', item.lane, {} as never)]));
    expect(await queue.enqueue(request('acme', 'x', 'acme/x'))).toEqual([expect.objectContaining({ kind: 'emit', key: 'acme/x' })]);
  });
});
