/**
 * Provider rate limits are per credential, not per skill: brave_web_search, brave_news_search and
 * site_search on one BRAVE_API_KEY share Brave's 1 request per second, and so does every tenant
 * whose tenant.json resolves to the same key. One limiter per retriever process is shared by all
 * skill registries (the operator's and each tenant's); it keys calls by a fingerprint of the
 * credential (never the secret) and hands out send times so that no window of the declared length
 * holds more than the declared number of calls (a sliding window, first come first served).
 *
 * The provider's own word wins: a 429's Retry-After or X-RateLimit-Reset holds the whole key (every
 * skill and tenant on it) until then, a Remaining of 0 on a success does the same before the 429
 * happens, and a stated policy (`X-RateLimit-Policy: 20;w=1`) replaces the declared rate.
 *
 * Across retriever instances: each instance takes `1 / instances` of the rate (a static share,
 * SKRYA_RETRIEVER_INSTANCES); nothing is coordinated between instances at run time.
 */
import { createHash } from 'node:crypto';
import { SkryaError } from '../../../runtime/errors.ts';
import type { SkillDeclaration } from '../declaration.ts';
import type { Clock } from '../types.ts';

export interface RateLimitKey {
  /** `<provider host>/<sha256 of the credential, 16 hex>`: safe to log. */
  id: string;
  requests: number;
  perMs: number;
}

export interface RateLimiterOptions {
  clock: Clock;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Added to every window, against network jitter between our send and the provider's count. */
  marginMs?: number;
  /** Retriever instances sharing each key: each one spaces calls to 1/instances of the rate. */
  instances?: number;
}

export interface KeyState {
  /** Send times handed out, newest last (at most the rate's request count are kept). */
  granted: number[];
  /** Nothing goes out before this (epoch ms): a 429's reset, or a window the provider says is used up. */
  holdUntil: number;
  /** The rate the provider stated for this key, replacing the declared one. */
  stated: { requests: number; perMs: number } | null;
}

export interface CredentialRateLimiter {
  /** Takes the next send time the key's rate allows and waits for it; resolves with the ms waited. */
  acquire(key: RateLimitKey, signal: AbortSignal): Promise<number>;
  /** The provider asked for a pause: no call on this key goes out before `untilMs` (epoch ms). */
  holdUntil(id: string, untilMs: number): void;
  /** The provider stated this key's rate (its policy header): space calls to it from now on. */
  adoptRate(id: string, rate: { requests: number; perMs: number }): void;
  /** For tests and metrics. */
  state(id: string): Readonly<KeyState> | undefined;
}

export const DEFAULT_RATE_MARGIN_MS = 50;

export function createCredentialRateLimiter(options: RateLimiterOptions): CredentialRateLimiter {
  const margin = options.marginMs ?? DEFAULT_RATE_MARGIN_MS;
  const instances = Math.max(1, Math.floor(options.instances ?? 1));
  const keys = new Map<string, KeyState>();
  const stateOf = (id: string): KeyState => {
    let state = keys.get(id);
    if (!state) {
      state = { granted: [], holdUntil: 0, stated: null };
      keys.set(id, state);
    }
    return state;
  };
  const now = () => options.clock.now().getTime();

  const wait = async (ms: number, signal: AbortSignal, id: string) => {
    try {
      await options.sleep(ms, signal);
    } catch (error) {
      throw new SkryaError('ADAPTER_TIMEOUT', `cancelled while waiting for the rate limit of ${id}`, { cause: error, details: { cancelled: true } });
    }
  };

  return {
    async acquire(key, signal) {
      const state = stateOf(key.id);
      const rate = state.stated ?? { requests: key.requests, perMs: key.perMs };
      const requests = Math.max(1, Math.floor(rate.requests));
      const windowMs = rate.perMs * instances + margin;
      const started = now();
      let slot = Math.max(started, state.holdUntil, state.granted.at(-1) ?? 0);
      if (state.granted.length >= requests) slot = Math.max(slot, state.granted[state.granted.length - requests]! + windowMs);
      state.granted.push(slot);
      if (state.granted.length > requests) state.granted.splice(0, state.granted.length - requests);
      if (slot > started) await wait(slot - started, signal, key.id);
      // A 429 on the key while this call waited holds it too.
      for (let current = now(); state.holdUntil > current; current = now()) await wait(state.holdUntil - current, signal, key.id);
      return now() - started;
    },
    holdUntil(id, untilMs) {
      const state = stateOf(id);
      state.holdUntil = Math.max(state.holdUntil, untilMs);
    },
    adoptRate(id, rate) {
      if (rate.requests < 1 || rate.perMs <= 0) return;
      stateOf(id).stated = { requests: rate.requests, perMs: rate.perMs };
    },
    state: (id) => keys.get(id),
  };
}

/**
 * The key of a skill's credential: calls of different skills with the same provider host and the
 * same secret share it. Null when the skill sends no credential (feeds, pages, local files) or a
 * credential is unset (the call is refused before it would be sent).
 */
export function rateKeyOf(declaration: Pick<SkillDeclaration, 'endpoint' | 'credentials' | 'rate_limit'>, env: Readonly<Record<string, string | undefined>>): RateLimitKey | null {
  if (declaration.endpoint === null || declaration.credentials.length === 0) return null;
  const hash = createHash('sha256');
  for (const credential of declaration.credentials) {
    const value = env[credential.env];
    if (!value) return null;
    hash.update(`${credential.header.toLowerCase()}\u0000${value}\u0000`);
  }
  const host = new URL(declaration.endpoint.base_url).hostname;
  return { id: `${host}/${hash.digest('hex').slice(0, 16)}`, requests: declaration.rate_limit.requests, perMs: declaration.rate_limit.per_seconds * 1000 };
}
