import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { manualClock } from '../testing/test-registry.ts';
import { createCircuitBreaker } from './circuit-breaker.ts';
import { backoffDelayMs, parseRetryAfterMs, sleep, DEFAULT_RETRY_POLICY } from './retry-policy.ts';

const NOW = new Date('2025-03-20T12:00:00.000Z');

describe('parseRetryAfterMs', () => {
  it.each<[string | null, number | null]>([
    [null, null],
    ['0', 0],
    ['7', 7_000],
    [' 120 ', 120_000],
    ['Thu, 20 Mar 2025 12:00:05 GMT', 5_000],
    ['Thu, 20 Mar 2025 11:59:00 GMT', 0],
    ['soon', null],
    ['-5', null],
    ['1.5', null],
  ])('%j → %j', (header, expected) => {
    expect(parseRetryAfterMs(header, NOW)).toBe(expected);
  });
});

describe('backoffDelayMs', () => {
  it('doubles per retry, stays within [step/2, step] and never passes the maximum', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1_000 };
    for (let retry = 0; retry < 8; retry += 1) {
      const step = Math.min(1_000, 100 * 2 ** retry);
      expect(backoffDelayMs(policy, retry, () => 0)).toBe(step / 2);
      expect(backoffDelayMs(policy, retry, () => 1)).toBe(step);
    }
  });
});

describe('sleep', () => {
  it('rejects as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const pending = sleep(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });
});

const codeOf = (fn: () => void): string | null => {
  try {
    fn();
    return null;
  } catch (error) {
    return isSkryaError(error) ? error.code : 'unexpected';
  }
};

describe('circuit breaker', () => {
  it('closed → open after N failures → half-open single probe → closed on success', () => {
    const clock = manualClock();
    const breaker = createCircuitBreaker({ failureThreshold: 3, coolDownMs: 10_000 }, clock);
    for (let i = 0; i < 3; i += 1) {
      expect(codeOf(() => breaker.admit('exa'))).toBeNull();
      breaker.recordFailure('exa');
    }
    expect(breaker.state('exa')).toBe('open');
    expect(codeOf(() => breaker.admit('exa'))).toBe('CIRCUIT_OPEN');
    expect(codeOf(() => breaker.admit('tavily'))).toBeNull();
    clock.advance(9_999);
    expect(codeOf(() => breaker.admit('exa'))).toBe('CIRCUIT_OPEN');
    clock.advance(1);
    expect(breaker.state('exa')).toBe('half-open');
    expect(codeOf(() => breaker.admit('exa'))).toBeNull();
    expect(codeOf(() => breaker.admit('exa'))).toBe('CIRCUIT_OPEN');
    breaker.recordSuccess('exa');
    expect(breaker.state('exa')).toBe('closed');
    expect(codeOf(() => breaker.admit('exa'))).toBeNull();
  });

  it('a failed probe re-opens for a full cool-down', () => {
    const clock = manualClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 1_000 }, clock);
    breaker.recordFailure('brave');
    clock.advance(1_000);
    breaker.admit('brave');
    breaker.recordFailure('brave');
    expect(breaker.state('brave')).toBe('open');
    clock.advance(999);
    expect(codeOf(() => breaker.admit('brave'))).toBe('CIRCUIT_OPEN');
  });

  it('a released call counts neither way and frees a half-open probe', () => {
    const clock = manualClock();
    const breaker = createCircuitBreaker({ failureThreshold: 1, coolDownMs: 1_000 }, clock);
    breaker.admit('brave');
    breaker.release('brave');
    expect(breaker.state('brave')).toBe('closed');
    breaker.recordFailure('brave');
    clock.advance(1_000);
    breaker.admit('brave');
    expect(codeOf(() => breaker.admit('brave'))).toBe('CIRCUIT_OPEN');
    breaker.release('brave');
    expect(breaker.state('brave')).toBe('half-open');
    expect(codeOf(() => breaker.admit('brave'))).toBeNull();
  });

  it('a success resets the count of consecutive failures', () => {
    const breaker = createCircuitBreaker({ failureThreshold: 2, coolDownMs: 1_000 }, manualClock());
    breaker.recordFailure('brave');
    breaker.recordSuccess('brave');
    breaker.recordFailure('brave');
    expect(breaker.state('brave')).toBe('closed');
  });
});
