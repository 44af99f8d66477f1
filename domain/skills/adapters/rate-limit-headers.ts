/**
 * What a provider's response headers say about its rate limits, read the way each provider sends them:
 * - `Retry-After` (RFC 9110): delay-seconds or an HTTP date (Tavily, Exa and most proxies).
 * - Brave: `X-RateLimit-Limit: 1, 15000`, `X-RateLimit-Policy: 1;w=1, 15000;w=2592000`,
 *   `X-RateLimit-Remaining: 0, 1000`, `X-RateLimit-Reset: 1, 1419704` — one comma-separated entry
 *   per window (per second, per month), the reset in seconds from now. Brave sends no Retry-After.
 * - `RateLimit-Reset` / `X-RateLimit-Reset` as a single number: seconds from now, or a Unix time
 *   in seconds when it is that large (the GitHub style some gateways use).
 * Pure: the caller gives the time.
 */
import { parseRetryAfterMs } from './retry-policy.ts';

export interface RateLimitWindow {
  /** Requests the plan allows in the window. */
  limit: number | null;
  /** Window length in ms (from the policy's `w=`), when the provider says. */
  windowMs: number | null;
  /** Requests left in the current window. */
  remaining: number | null;
  /** When the window's quota is whole again, in ms from now. */
  resetMs: number | null;
}

export interface RateLimitAdvice {
  /** How long to wait before the next call on this credential; null = the headers do not say. */
  waitMs: number | null;
  /** Where the wait came from, for the error details and the log. */
  source: 'retry-after' | 'x-ratelimit-reset' | 'ratelimit-reset' | null;
  /** The windows the headers describe, shortest first. */
  windows: RateLimitWindow[];
  /**
   * The shortest window's rate as the provider states it for this key (policy or limit header):
   * what the limiter spaces calls to once the provider has said it.
   */
  plan: { requests: number; perMs: number } | null;
  /** A window of a day or longer has nothing left (Brave's monthly quota): waiting will not help today. */
  quotaExhausted: boolean;
}

const DAY_MS = 86_400_000;

/** Unix times (seconds) are far larger than any reset delay a provider would give. */
const UNIX_SECONDS_THRESHOLD = 1_000_000_000;

function numberList(value: string | undefined): Array<number | null> {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => {
    const text = part.trim();
    return /^\d+(\.\d+)?$/.test(text) ? Number(text) : null;
  });
}

function resetToMs(seconds: number | null, now: Date): number | null {
  if (seconds === null) return null;
  if (seconds >= UNIX_SECONDS_THRESHOLD) return Math.max(0, seconds * 1000 - now.getTime());
  return Math.round(seconds * 1000);
}

/** `1;w=1, 15000;w=2592000` → [{limit 1, window 1000 ms}, {limit 15000, window 30 days}]. */
function policyList(value: string | undefined): Array<{ limit: number; windowMs: number } | null> {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((part) => {
    const match = /^\s*(\d+)\s*;\s*w\s*=\s*(\d+)/.exec(part);
    return match ? { limit: Number(match[1]), windowMs: Number(match[2]) * 1000 } : null;
  });
}

/** Reads the rate-limit headers of any answer (lower-case names). */
export function readRateLimitHeaders(headers: Readonly<Record<string, string>>, now: Date): RateLimitAdvice {
  const limits = numberList(headers['x-ratelimit-limit'] ?? headers['ratelimit-limit']);
  const policies = policyList(headers['x-ratelimit-policy'] ?? headers['ratelimit-policy']);
  const remaining = numberList(headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining']);
  const resetHeader = headers['x-ratelimit-reset'] !== undefined ? 'x-ratelimit-reset' : headers['ratelimit-reset'] !== undefined ? 'ratelimit-reset' : null;
  const resets = numberList(resetHeader ? headers[resetHeader] : undefined);
  const count = Math.max(limits.length, policies.length, remaining.length, resets.length);
  const windows: RateLimitWindow[] = Array.from({ length: count }, (_, index) => ({
    limit: policies[index]?.limit ?? limits[index] ?? null,
    windowMs: policies[index]?.windowMs ?? null,
    remaining: remaining[index] ?? null,
    resetMs: resetToMs(resets[index] ?? null, now),
  }));

  const firstWithPolicy = windows.filter((window) => window.limit !== null && window.windowMs !== null).sort((a, b) => a.windowMs! - b.windowMs!)[0];
  const plan = firstWithPolicy ? { requests: firstWithPolicy.limit!, perMs: firstWithPolicy.windowMs! } : null;

  const quotaExhausted = windows.some((window) => window.remaining === 0 && Math.max(window.windowMs ?? 0, window.resetMs ?? 0) >= DAY_MS);
  const retryAfterMs = parseRetryAfterMs(headers['retry-after'] ?? null, now);
  if (retryAfterMs !== null) return { waitMs: retryAfterMs, source: 'retry-after', windows, plan, quotaExhausted };

  // The window that ran out decides; without Remaining, the shortest reset given.
  const exhausted = windows.filter((window) => window.remaining === 0 && window.resetMs !== null);
  const candidates = exhausted.length > 0 ? exhausted : windows.filter((window) => window.resetMs !== null && window.remaining === null);
  if (candidates.length === 0 || resetHeader === null) return { waitMs: null, source: null, windows, plan, quotaExhausted };
  // Every exhausted window must have reset before a call can pass: the longest of them.
  const waitMs = exhausted.length > 0 ? Math.max(...exhausted.map((window) => window.resetMs!)) : Math.min(...candidates.map((window) => window.resetMs!));
  return { waitMs, source: resetHeader, windows, plan, quotaExhausted };
}
