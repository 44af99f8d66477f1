import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { manualClock } from '../testing/test-registry.ts';
import { createCredentialRateLimiter, rateKeyOf, type RateLimitKey } from './credential-rate-limiter.ts';
import { readRateLimitHeaders } from './rate-limit-headers.ts';

const NOW = new Date('2025-03-20T12:00:00.000Z');

describe('readRateLimitHeaders', () => {
  it.each<[string, Record<string, string>, { waitMs: number | null; source: string | null; quotaExhausted: boolean }]>([
    ['nothing said', {}, { waitMs: null, source: null, quotaExhausted: false }],
    ['Retry-After seconds', { 'retry-after': '7' }, { waitMs: 7_000, source: 'retry-after', quotaExhausted: false }],
    ['Retry-After wins over the reset', { 'retry-after': '2', 'x-ratelimit-reset': '5' }, { waitMs: 2_000, source: 'retry-after', quotaExhausted: false }],
    [
      'Brave: the per-second window ran out',
      { 'x-ratelimit-limit': '1, 15000', 'x-ratelimit-policy': '1;w=1, 15000;w=2592000', 'x-ratelimit-remaining': '0, 14210', 'x-ratelimit-reset': '1, 1419704' },
      { waitMs: 1_000, source: 'x-ratelimit-reset', quotaExhausted: false },
    ],
    [
      'Brave: the month ran out',
      { 'x-ratelimit-limit': '1, 15000', 'x-ratelimit-policy': '1;w=1, 15000;w=2592000', 'x-ratelimit-remaining': '1, 0', 'x-ratelimit-reset': '1, 1419704' },
      { waitMs: 1_419_704_000, source: 'x-ratelimit-reset', quotaExhausted: true },
    ],
    ['a single reset without Remaining', { 'x-ratelimit-reset': '3' }, { waitMs: 3_000, source: 'x-ratelimit-reset', quotaExhausted: false }],
    ['a reset as a Unix time', { 'x-ratelimit-reset': String(NOW.getTime() / 1000 + 4) }, { waitMs: 4_000, source: 'x-ratelimit-reset', quotaExhausted: false }],
    ['IETF RateLimit-Reset', { 'ratelimit-remaining': '0', 'ratelimit-reset': '2' }, { waitMs: 2_000, source: 'ratelimit-reset', quotaExhausted: false }],
    ['windows left: no wait', { 'x-ratelimit-remaining': '1, 900', 'x-ratelimit-reset': '1, 1000' }, { waitMs: null, source: null, quotaExhausted: false }],
    ['unreadable numbers are ignored', { 'x-ratelimit-reset': 'soon' }, { waitMs: null, source: null, quotaExhausted: false }],
  ])('%s', (_name, headers, expected) => {
    expect(readRateLimitHeaders(headers, NOW)).toMatchObject(expected);
  });

  it("reads Brave's policy as the key's rate, shortest window first", () => {
    const advice = readRateLimitHeaders({ 'x-ratelimit-policy': '15000;w=2592000, 20;w=1' }, NOW);
    expect(advice.plan).toEqual({ requests: 20, perMs: 1_000 });
  });
});

const BRAVE_KEY: RateLimitKey = { id: 'api.search.brave.com/abc', requests: 1, perMs: 1_000 };
const open = new AbortController().signal;

/** Waits are recorded and advance the clock, unless `advance` is false (callers waiting at the same moment). */
function limiterOnManualClock(marginMs = 0, instances = 1, advance = true) {
  const clock = manualClock();
  const waits: number[] = [];
  const limiter = createCredentialRateLimiter({
    clock,
    marginMs,
    instances,
    sleep: async (ms) => {
      waits.push(ms);
      if (advance) clock.advance(ms);
    },
  });
  return { clock, waits, limiter };
}

describe('credential rate limiter', () => {
  it('spaces calls on one key to the declared rate, in the order they asked', async () => {
    const { limiter, waits } = limiterOnManualClock(0, 1, false);
    // Three callers at the same moment (say web, news and site search on one Brave key).
    const waited = await Promise.all([limiter.acquire(BRAVE_KEY, open), limiter.acquire(BRAVE_KEY, open), limiter.acquire(BRAVE_KEY, open)]);
    expect(waited[0]).toBe(0);
    expect(waits).toEqual([1_000, 2_000]);
    expect(limiter.state(BRAVE_KEY.id)?.granted).toEqual([Date.parse('2025-03-20T12:00:02.000Z')]);
  });

  it('keeps other keys apart', async () => {
    const { limiter, waits } = limiterOnManualClock();
    await limiter.acquire(BRAVE_KEY, open);
    await limiter.acquire({ ...BRAVE_KEY, id: 'api.search.brave.com/other-tenant' }, open);
    expect(waits).toEqual([]);
  });

  it('lets N calls through per window for an N-per-window rate, then waits for the oldest to leave', async () => {
    const { limiter, waits, clock } = limiterOnManualClock();
    const exa: RateLimitKey = { id: 'api.exa.ai/k', requests: 3, perMs: 1_000 };
    for (let i = 0; i < 3; i += 1) await limiter.acquire(exa, open);
    expect(waits).toEqual([]);
    clock.advance(400);
    await limiter.acquire(exa, open);
    expect(waits).toEqual([600]);
  });

  it('adds the margin to every window and divides the rate among instances', async () => {
    const { limiter, waits } = limiterOnManualClock(50, 2);
    await limiter.acquire(BRAVE_KEY, open);
    await limiter.acquire(BRAVE_KEY, open);
    expect(waits).toEqual([2_050]);
  });

  it("holds every caller on the key until the provider's reset, also one already waiting", async () => {
    const { limiter, waits, clock } = limiterOnManualClock();
    await limiter.acquire(BRAVE_KEY, open);
    limiter.holdUntil(BRAVE_KEY.id, clock.now().getTime() + 5_000);
    await limiter.acquire(BRAVE_KEY, open);
    expect(waits).toEqual([5_000]);
  });

  it('adopts the rate the provider states for the key', async () => {
    const { limiter, waits } = limiterOnManualClock();
    limiter.adoptRate(BRAVE_KEY.id, { requests: 20, perMs: 1_000 });
    for (let i = 0; i < 20; i += 1) await limiter.acquire(BRAVE_KEY, open);
    expect(waits).toEqual([]);
    await limiter.acquire(BRAVE_KEY, open);
    expect(waits).toEqual([1_000]);
  });

  it('a caller cancelled while waiting gets ADAPTER_TIMEOUT', async () => {
    const clock = manualClock();
    const limiter = createCredentialRateLimiter({ clock, marginMs: 0, sleep: (_ms, signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))) });
    await limiter.acquire(BRAVE_KEY, open);
    const controller = new AbortController();
    const pending = limiter.acquire(BRAVE_KEY, controller.signal);
    controller.abort(new Error('stop'));
    const error = await pending.catch((caught: unknown) => caught);
    expect(isSkryaError(error) && error.code).toBe('ADAPTER_TIMEOUT');
  });
});

describe('rateKeyOf', () => {
  const brave = {
    endpoint: { base_url: 'https://api.search.brave.com', base_url_env: 'SKRYA_BRAVE_BASE_URL' },
    credentials: [{ env: 'BRAVE_API_KEY', header: 'X-Subscription-Token', prefix: '' }],
    rate_limit: { requests: 1, per_seconds: 1 },
  };

  it('is the same for every skill on one key, differs per key, and never contains the secret', () => {
    const secret = 'BSA-live-0123456789abcdef';
    const key = rateKeyOf(brave, { BRAVE_API_KEY: secret });
    expect(key).toMatchObject({ requests: 1, perMs: 1_000 });
    expect(key?.id).toMatch(/^api\.search\.brave\.com\/[0-9a-f]{16}$/);
    expect(key?.id).not.toContain(secret);
    expect(rateKeyOf({ ...brave, rate_limit: { requests: 1, per_seconds: 1 } }, { BRAVE_API_KEY: secret })?.id).toBe(key?.id);
    expect(rateKeyOf(brave, { BRAVE_API_KEY: 'another' })?.id).not.toBe(key?.id);
  });

  it('is null without a credential to key on', () => {
    expect(rateKeyOf(brave, {})).toBeNull();
    expect(rateKeyOf({ ...brave, endpoint: null }, { BRAVE_API_KEY: 'k' })).toBeNull();
    expect(rateKeyOf({ ...brave, credentials: [] }, {})).toBeNull();
  });
});
