/**
 * Provider calls in flight, shared by every request one retriever instance works on: at most the
 * tenant's `concurrency` for each tenant, and at most a per-provider limit for each provider.
 * A call takes its tenant's slot before its provider's, so a tenant waiting for a busy provider
 * holds at most its own limit of that provider's queue: another tenant's call waits behind at most
 * ceil(tenant limit / provider limit) rounds of it, never behind the whole flood.
 */
import { SkryaError } from '../../../runtime/errors.ts';

export const DEFAULT_PROVIDER_CONCURRENCY = 4;

export interface Semaphore {
  acquire(signal: AbortSignal): Promise<() => void>;
  setLimit(limit: number): void;
  readonly inFlight: number;
  readonly waiting: number;
}

/** A counting semaphore, first come first served; a waiter whose signal aborts leaves the queue. */
export function createSemaphore(initialLimit: number): Semaphore {
  let limit = Math.max(1, Math.floor(initialLimit));
  let inFlight = 0;
  const waiters: Array<{ grant: () => void }> = [];
  const release = () => {
    inFlight -= 1;
    wake();
  };
  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };
  const wake = () => {
    while (inFlight < limit && waiters.length > 0) {
      inFlight += 1;
      waiters.shift()!.grant();
    }
  };
  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return waiters.length;
    },
    setLimit(next) {
      limit = Math.max(1, Math.floor(next));
      wake();
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(cancelled());
      if (inFlight < limit && waiters.length === 0) {
        inFlight += 1;
        return Promise.resolve(once());
      }
      return new Promise((resolve, reject) => {
        const waiter = {
          grant: () => {
            signal.removeEventListener('abort', onAbort);
            resolve(once());
          },
        };
        const onAbort = () => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(cancelled());
        };
        signal.addEventListener('abort', onAbort, { once: true });
        waiters.push(waiter);
      });
    },
  };
}

function cancelled(): SkryaError {
  return new SkryaError('ADAPTER_TIMEOUT', 'cancelled while waiting for a call slot', { details: { cancelled: true } });
}

export interface CallGate {
  /** Waits for a slot of the tenant and one of the provider; the returned function gives both back. */
  acquire(call: { tenant: string; tenantLimit: number; provider: string }, signal: AbortSignal): Promise<() => void>;
  /** Calls in flight and waiting, for tests and metrics. */
  load(): { tenants: Record<string, { inFlight: number; waiting: number }>; providers: Record<string, { inFlight: number; waiting: number }> };
}

/**
 * The provider limit from a skill's declared rate limit: a provider allowing one request per
 * period gets one call in flight; otherwise the default.
 */
export function providerConcurrency(rateLimit: { requests: number } | undefined): number {
  return rateLimit === undefined ? DEFAULT_PROVIDER_CONCURRENCY : Math.max(1, Math.min(DEFAULT_PROVIDER_CONCURRENCY, rateLimit.requests));
}

export function createCallGate(options: { providerLimit: (provider: string) => number }): CallGate {
  const tenants = new Map<string, Semaphore>();
  const providers = new Map<string, Semaphore>();
  const slot = (map: Map<string, Semaphore>, key: string, limit: number) => {
    const existing = map.get(key);
    if (existing) {
      existing.setLimit(limit);
      return existing;
    }
    const created = createSemaphore(limit);
    map.set(key, created);
    return created;
  };
  const snapshot = (map: Map<string, Semaphore>) => Object.fromEntries([...map].map(([key, semaphore]) => [key, { inFlight: semaphore.inFlight, waiting: semaphore.waiting }]));
  return {
    async acquire(call, signal) {
      const releaseTenant = await slot(tenants, call.tenant, call.tenantLimit).acquire(signal);
      try {
        const releaseProvider = await slot(providers, call.provider, options.providerLimit(call.provider)).acquire(signal);
        return () => {
          releaseProvider();
          releaseTenant();
        };
      } catch (error) {
        releaseTenant();
        throw error;
      }
    },
    load: () => ({ tenants: snapshot(tenants), providers: snapshot(providers) }),
  };
}
