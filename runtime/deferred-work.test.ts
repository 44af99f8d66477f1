import { describe, expect, it } from 'vitest';
import { SkryaError } from './errors.ts';
import { createLogger } from './logger.ts';
import { createDeferredWork, type Completed } from './deferred-work.ts';

/** Lets every settled promise run its callbacks. */
const settle = async () => {
  for (let turn = 0; turn < 5; turn += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

function setup(deliver: (batch: ReadonlyArray<Completed<string, string[]>>) => Promise<void> = async () => {}) {
  const delivered: string[][] = [];
  const crashes: Error[] = [];
  let afterDeliveries = 0;
  const work = createDeferredWork<string, string[]>({
    deliver: async (batch) => {
      await deliver(batch);
      delivered.push(batch.flatMap((done) => done.result));
    },
    afterDelivery: async () => {
      afterDeliveries += 1;
    },
    crash: (error) => crashes.push(error),
    logger: createLogger({ level: 'silent' }),
    retryDelayMs: 1,
  });
  return { work, delivered, crashes, afterDeliveries: () => afterDeliveries };
}

describe('createDeferredWork', () => {
  it('holds an input until its completion is delivered, then releases it and lets the runner commit', async () => {
    const { work, delivered, afterDeliveries } = setup();
    const run = Promise.withResolvers<string[] | null>();
    work.track(0, '7', 'request', run.promise);
    expect(work.heldFrom(0)).toBe('7');
    expect(work.heldFrom(1)).toBeNull();
    run.resolve(['marker']);
    await settle();
    expect(delivered).toEqual([['marker']]);
    expect(work.heldFrom(0)).toBeNull();
    expect(afterDeliveries()).toBe(1);
  });

  it('holds from the lowest input still unfinished, whatever order runs finish in', async () => {
    const { work } = setup();
    const [first, second] = [Promise.withResolvers<string[] | null>(), Promise.withResolvers<string[] | null>()];
    work.track(0, '3', 'first', first.promise);
    work.track(0, '4', 'second', second.promise);
    second.resolve(['b']);
    await settle();
    expect(work.heldFrom(0)).toBe('3');
    first.resolve(['a']);
    await settle();
    expect(work.heldFrom(0)).toBeNull();
  });

  it('keeps an abandoned input held and delivers nothing for it', async () => {
    const { work, delivered } = setup();
    work.track(2, '9', 'abandoned', Promise.resolve(null));
    await settle();
    expect(delivered).toEqual([]);
    expect(work.heldFrom(2)).toBe('9');
  });

  it('tries a delivery that failed for a passing reason again, and holds until it succeeds', async () => {
    let failures = 2;
    const succeeded = Promise.withResolvers<void>();
    const { work, delivered } = setup(async () => {
      if (failures-- > 0) throw new SkryaError('BROKER_UNAVAILABLE', 'broker away');
      succeeded.resolve();
    });
    work.track(0, '1', 'request', Promise.resolve(['x']));
    // The third try's success, not a clock: retries wait on timers a loaded machine may run late.
    await succeeded.promise;
    await settle();
    expect(failures).toBe(-1);
    expect(delivered).toEqual([['x']]);
    expect(work.heldFrom(0)).toBeNull();
  });

  it('crashes on a completion that rejects or a result that can never be written, and keeps the input held', async () => {
    const rejecting = setup();
    rejecting.work.track(0, '1', 'request', Promise.reject(new Error('bug in a run')));
    await settle();
    expect(rejecting.crashes.map((error) => error.message)).toEqual(['bug in a run']);
    expect(rejecting.work.heldFrom(0)).toBe('1');

    const unwritable = setup(async () => {
      throw new SkryaError('SCHEMA_INVALID', 'cannot encode');
    });
    unwritable.work.track(0, '2', 'request', Promise.resolve(['x']));
    await settle();
    expect(unwritable.crashes.map((error) => error.message)).toEqual(['cannot encode']);
    expect(unwritable.work.heldFrom(0)).toBe('2');
  });

  it('a new assignment forgets every hold and drops completions of the old one', async () => {
    const { work, delivered } = setup();
    const run = Promise.withResolvers<string[] | null>();
    work.track(0, '5', 'old', run.promise);
    work.reset();
    expect(work.heldFrom(0)).toBeNull();
    run.resolve(['stale']);
    await settle();
    expect(delivered).toEqual([]);
  });
});
