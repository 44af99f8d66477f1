/**
 * The one adapter base every skill shares (spec 002, adapter layer). A transport does the IO
 * (real HTTP, the SSRF-guarded fetcher, the local disk, or recorded responses); this base turns
 * what came back into a RawResponse or a stable error code, with per-attempt timeout, retry with
 * backoff + jitter honouring Retry-After, and a circuit breaker per skill.
 */
import { SkryaError, isSkryaError, type ErrorCode } from '../../../runtime/errors.ts';
import type { AdapterMode, AdapterRequest, Clock, RawResponse, SkillAdapter } from '../types.ts';
import type { CircuitBreaker } from './circuit-breaker.ts';
import type { CredentialRateLimiter } from './credential-rate-limiter.ts';
import { readRateLimitHeaders } from './rate-limit-headers.ts';
import { backoffDelayMs, sleep as realSleep, type RetryPolicy } from './retry-policy.ts';
import type { CallContext, Transport, TransportResponse } from './transport.ts';

export interface SkillAdapterOptions {
  mode: AdapterMode;
  transport: Transport;
  retry: RetryPolicy;
  breaker: CircuitBreaker;
  clock: Clock;
  /** Limit for one attempt (connect, headers and body), by kind of request. */
  attemptTimeoutMs: Record<AdapterRequest['kind'], number>;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Spaces API calls per credential; absent = no spacing (mock replays). */
  rateLimiter?: CredentialRateLimiter;
}

/** Makes per-call adapters: the executor only ever sees `request`. */
export interface SkillAdapterFactory {
  readonly mode: AdapterMode;
  bind(call: CallContext): SkillAdapter;
}

/**
 * Codes that say "the provider is unwell": they count towards opening the circuit. A 429 is not
 * one of them: a provider that asks us to slow down is healthy, and its wait is honoured per key.
 */
const BREAKER_FAILURES: ReadonlySet<ErrorCode> = new Set(['ADAPTER_TIMEOUT', 'PROVIDER_UNAVAILABLE']);

const BODY_EXCERPT_CHARS = 300;

export function createSkillAdapterFactory(options: SkillAdapterOptions): SkillAdapterFactory {
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;

  /** Backoff that a cancelled call leaves as ADAPTER_TIMEOUT, like a cancelled attempt. */
  const wait = async (ms: number, call: CallContext): Promise<void> => {
    try {
      await sleep(ms, call.signal);
    } catch (error) {
      throw new SkryaError('ADAPTER_TIMEOUT', `${call.skill}: cancelled by the caller while backing off`, { cause: error, details: { cancelled: true } });
    }
  };

  const limiter = options.rateLimiter;
  const rateKeyFor = (request: AdapterRequest, call: CallContext) => (request.kind === 'api' && limiter ? (call.rateKey ?? null) : null);

  /** What any answer's headers say about the key: a stated policy, or a window already used up. */
  const observe = (response: TransportResponse, request: AdapterRequest, call: CallContext) => {
    const key = rateKeyFor(request, call);
    if (!key || !limiter) return;
    const advice = readRateLimitHeaders(response.headers, options.clock.now());
    if (advice.plan) limiter.adoptRate(key.id, advice.plan);
    const shortest = advice.windows.find((window) => window.windowMs !== null) ?? advice.windows[0];
    if (shortest?.remaining === 0 && shortest.resetMs !== null && shortest.resetMs <= options.retry.maxRetryAfterMs) {
      limiter.holdUntil(key.id, options.clock.now().getTime() + shortest.resetMs);
    }
  };

  const attempt = async (request: AdapterRequest, call: CallContext): Promise<TransportResponse> => {
    const key = rateKeyFor(request, call);
    if (key && limiter) await limiter.acquire(key, call.signal);
    const timeoutMs = options.attemptTimeoutMs[request.kind];
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([call.signal, timeout]);
    try {
      const response = await options.transport.send(request, call, signal);
      observe(response, request, call);
      return response;
    } catch (error) {
      if (timeout.aborted || call.signal.aborted) {
        throw new SkryaError('ADAPTER_TIMEOUT', `${call.skill}: ${call.signal.aborted ? 'cancelled by the caller' : `no complete answer within ${timeoutMs} ms`}`, {
          cause: error,
          details: { cancelled: call.signal.aborted, timeoutMs },
        });
      }
      throw error;
    }
  };

  const requestWithRetries = async (request: AdapterRequest, call: CallContext): Promise<RawResponse> => {
    for (let retryIndex = 0; ; retryIndex += 1) {
      const retriesLeft = retryIndex < options.retry.maxRetries;
      let response: TransportResponse;
      try {
        response = await attempt(request, call);
      } catch (error) {
        if (isSkryaError(error) && error.code === 'PROVIDER_UNAVAILABLE' && retriesLeft) {
          await wait(backoffDelayMs(options.retry, retryIndex, random), call);
          continue;
        }
        throw error;
      }
      if (response.status >= 200 && response.status < 300) {
        return {
          skill: call.skill,
          body: response.body,
          contentType: response.contentType,
          httpStatus: response.status,
          url: response.url,
          fetchedAt: options.clock.now().toISOString(),
        };
      }
      const failure = classifyFailure(response, call);
      if (failure.code === 'RATE_LIMITED' || failure.code === 'PROVIDER_UNAVAILABLE') {
        const now = options.clock.now();
        const advice = readRateLimitHeaders(response.headers, now);
        if (failure.code === 'RATE_LIMITED' && advice.quotaExhausted) {
          throw new SkryaError('QUOTA_EXHAUSTED', `${call.skill}: provider quota exhausted (HTTP ${response.status}; a window of a day or more has nothing left)`, {
            details: { ...failure.details, windows: advice.windows },
          });
        }
        const retryAfterMs = advice.waitMs;
        const waitTooLong = retryAfterMs !== null && retryAfterMs > options.retry.maxRetryAfterMs;
        const waitMs = retryAfterMs ?? backoffDelayMs(options.retry, retryIndex, random);
        const key = rateKeyFor(request, call);
        // The provider's pause applies to the key: every skill and tenant on it waits too.
        if (failure.code === 'RATE_LIMITED' && key && limiter && !waitTooLong) limiter.holdUntil(key.id, now.getTime() + waitMs);
        if (retriesLeft && !waitTooLong) {
          await wait(waitMs, call);
          continue;
        }
        throw new SkryaError(failure.code, `${failure.message} (after ${retryIndex + 1} attempt(s))`, {
          details: { ...failure.details, attempts: retryIndex + 1, retryAfterMs, waitSource: advice.source },
        });
      }
      throw new SkryaError(failure.code, failure.message, { details: failure.details });
    }
  };

  return {
    mode: options.mode,
    bind(call) {
      return {
        mode: options.mode,
        async request(request) {
          options.breaker.admit(call.skill);
          try {
            const raw = await requestWithRetries(request, call);
            options.breaker.recordSuccess(call.skill);
            return raw;
          } catch (error) {
            // A call its caller cancelled (the stop rule, a run ending) says nothing about the
            // provider: queued behind a key's rate limit, several may be cancelled at once.
            if (isSkryaError(error) && error.code === 'ADAPTER_TIMEOUT' && error.details.cancelled === true) options.breaker.release(call.skill);
            else if (isSkryaError(error) && BREAKER_FAILURES.has(error.code)) options.breaker.recordFailure(call.skill);
            else options.breaker.recordSuccess(call.skill);
            throw error;
          }
        },
      };
    },
  };
}

interface Failure {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown>;
}

/** A non-2xx answer as a stable code. The body excerpt helps an operator; it never reaches the log event. */
export function classifyFailure(response: TransportResponse, call: Pick<CallContext, 'skill' | 'declaration'>): Failure {
  const { status } = response;
  const details = { status, url: response.url, bodyExcerpt: response.body.slice(0, BODY_EXCERPT_CHARS) };
  const quota = call.declaration.quota;
  const quotaInBody = quota.body_markers.some((marker) => response.body.includes(marker));
  if (status === 402 || quota.statuses.includes(status) || quotaInBody) {
    return { code: 'QUOTA_EXHAUSTED', message: `${call.skill}: provider quota exhausted (HTTP ${status})`, details };
  }
  // Some providers refuse a bad key with another status (Brave: 422 SUBSCRIPTION_TOKEN_INVALID).
  const authInBody = call.declaration.auth.body_markers.some((marker) => response.body.includes(marker));
  if (status === 401 || status === 403 || call.declaration.auth.statuses.includes(status) || authInBody) {
    return { code: 'AUTH_FAILED', message: `${call.skill}: provider refused the credentials (HTTP ${status})`, details };
  }
  if (status === 429) return { code: 'RATE_LIMITED', message: `${call.skill}: provider is rate limiting`, details };
  if (status >= 500) return { code: 'PROVIDER_UNAVAILABLE', message: `${call.skill}: provider failed with HTTP ${status}`, details };
  // The provider checked our parameters and refused them (Brave 422 VALIDATION, Tavily and Exa 400).
  if (status === 400 || status === 422) return { code: 'INVALID_INPUT', message: `${call.skill}: provider refused the request parameters (HTTP ${status})`, details };
  return { code: 'BAD_RESPONSE', message: `${call.skill}: unexpected HTTP ${status}`, details };
}
