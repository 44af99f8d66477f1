/** How long to wait before the next attempt of a provider call that was throttled or failed with 5xx. */
export interface RetryPolicy {
  /** Attempts after the first one. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited out: the call fails as RATE_LIMITED instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 250,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
};

/**
 * Exponential backoff with "equal jitter": half the step is fixed, half random, so retries of
 * many callers spread out but never collapse to zero.
 */
export function backoffDelayMs(policy: RetryPolicy, retryIndex: number, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.round(step / 2 + random() * (step / 2));
}

/**
 * Retry-After as milliseconds: either delay-seconds or an HTTP date (RFC 9110 §10.2.3).
 * Returns null when absent or unreadable; a date in the past means "now" (0).
 */
export function parseRetryAfterMs(header: string | null, now: Date): number | null {
  if (header === null) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date names a weekday and month; bare numbers like "1.5" must not parse as dates.
  const date = /[a-z]{3}/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return null;
  return Math.max(0, date - now.getTime());
}

/** Waits, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
