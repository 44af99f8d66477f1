import { describe, expect, it } from 'vitest';
import { SkryaError } from '../../../runtime/errors.ts';
import { createCallGate, createSemaphore, providerConcurrency } from './call-gate.ts';

const never = new AbortController().signal;
const turns = async (count = 3) => {
  for (let index = 0; index < count; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

describe('createSemaphore', () => {
  it('admits up to the limit and then first come first served', async () => {
    const semaphore = createSemaphore(2);
    const order: string[] = [];
    const first = await semaphore.acquire(never);
    const second = await semaphore.acquire(never);
    const third = semaphore.acquire(never).then((release) => (order.push('third'), release));
    const fourth = semaphore.acquire(never).then((release) => (order.push('fourth'), release));
    await turns();
    expect(order).toEqual([]);
    expect(semaphore.waiting).toBe(2);
    first();
    first(); // a second release of the same slot changes nothing
    await turns();
    expect(order).toEqual(['third']);
    second();
    await turns();
    expect(order).toEqual(['third', 'fourth']);
    (await third)();
    (await fourth)();
    expect(semaphore.inFlight).toBe(0);
  });

  it.each([
    ['aborted before asking', true],
    ['aborted while waiting', false],
  ])('rejects a waiter %s with ADAPTER_TIMEOUT and leaves the queue', async (_name, early) => {
    const semaphore = createSemaphore(1);
    const held = await semaphore.acquire(never);
    const abort = new AbortController();
    if (early) abort.abort();
    const waiting = semaphore.acquire(abort.signal);
    abort.abort();
    await expect(waiting).rejects.toSatisfy((error) => error instanceof SkryaError && error.code === 'ADAPTER_TIMEOUT');
    expect(semaphore.waiting).toBe(0);
    held();
    expect(semaphore.inFlight).toBe(0);
  });

  it('a raised limit wakes waiters at once', async () => {
    const semaphore = createSemaphore(1);
    await semaphore.acquire(never);
    let woke = false;
    void semaphore.acquire(never).then(() => (woke = true));
    semaphore.setLimit(2);
    await turns();
    expect(woke).toBe(true);
  });
});

describe('providerConcurrency', () => {
  it.each([
    [undefined, 4],
    [{ requests: 1 }, 1],
    [{ requests: 3 }, 3],
    [{ requests: 100 }, 4],
  ])('rate limit %j gives %i calls in flight', (rateLimit, expected) => {
    expect(providerConcurrency(rateLimit)).toBe(expected);
  });
});

describe('createCallGate', () => {
  it('limits calls per tenant and per provider, across requests', async () => {
    const gate = createCallGate({ providerLimit: () => 2 });
    const releases = await Promise.all([
      gate.acquire({ tenant: 'acme', tenantLimit: 3, provider: 'brave' }, never),
      gate.acquire({ tenant: 'acme', tenantLimit: 3, provider: 'brave' }, never),
    ]);
    const acmeThird = gate.acquire({ tenant: 'acme', tenantLimit: 3, provider: 'brave' }, never);
    const globexFirst = gate.acquire({ tenant: 'globex', tenantLimit: 3, provider: 'exa' }, never);
    await turns();
    expect(gate.load().providers.brave).toEqual({ inFlight: 2, waiting: 1 });
    expect(gate.load().tenants.acme).toEqual({ inFlight: 3, waiting: 0 });
    (await globexFirst)();
    releases[0]!();
    (await acmeThird)();
    releases[1]!();
    expect(gate.load().tenants.acme).toEqual({ inFlight: 0, waiting: 0 });
    expect(gate.load().providers.brave).toEqual({ inFlight: 0, waiting: 0 });
  });

  it('a flooding tenant holds at most its own limit of a provider queue', async () => {
    const gate = createCallGate({ providerLimit: () => 1 });
    const flood = Array.from({ length: 20 }, () => gate.acquire({ tenant: 'acme', tenantLimit: 2, provider: 'brave' }, never));
    await turns();
    const other = gate.acquire({ tenant: 'globex', tenantLimit: 2, provider: 'brave' }, never);
    await turns();
    // brave: one acme call in flight, one acme call and globex waiting; 18 acme calls wait for acme's own slots.
    expect(gate.load().providers.brave).toEqual({ inFlight: 1, waiting: 2 });
    expect(gate.load().tenants.acme).toEqual({ inFlight: 2, waiting: 18 });
    let granted = 0;
    const served: string[] = [];
    void other.then((release) => (served.push('globex'), release()));
    for (const call of flood) void call.then((release) => (served.push('acme'), granted += 1, release()));
    await turns(50);
    expect(granted).toBe(20);
    expect(served.indexOf('globex')).toBeLessThanOrEqual(2);
  });

  it('gives the tenant slot back when the wait for the provider is cancelled', async () => {
    const gate = createCallGate({ providerLimit: () => 1 });
    const held = await gate.acquire({ tenant: 'globex', tenantLimit: 1, provider: 'brave' }, never);
    const abort = new AbortController();
    const waiting = gate.acquire({ tenant: 'acme', tenantLimit: 1, provider: 'brave' }, abort.signal);
    await turns();
    abort.abort();
    await expect(waiting).rejects.toBeInstanceOf(SkryaError);
    expect(gate.load().tenants.acme).toEqual({ inFlight: 0, waiting: 0 });
    held();
  });
});
