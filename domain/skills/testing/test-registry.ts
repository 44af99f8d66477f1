/** A registry wired for tests: manual clock, recorded (instant) backoff sleeps, short limits, captured logs. */
import type { Registry } from 'prom-client';
import { createMetricsRegistry, createSkillMetrics } from '../../../runtime/metrics.ts';
import { createCredentialRateLimiter, type CredentialRateLimiter } from '../adapters/credential-rate-limiter.ts';
import { builtinSkills } from '../builtin-skills.ts';
import { createSkillRegistry, type CreateSkillRegistryOptions, type SkillRegistry } from '../registry.ts';
import type { Clock } from '../types.ts';
import { captureLogs, type CapturedLogs } from './capture-logger.ts';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export function manualClock(start = '2025-03-20T12:00:00.000Z'): ManualClock {
  let now = Date.parse(start);
  return { now: () => new Date(now), advance: (ms) => { now += ms; } };
}

export interface TestRegistry {
  registry: SkillRegistry;
  logs: CapturedLogs;
  metrics: Registry;
  clock: ManualClock;
  /** Every backoff wait the adapter asked for, in ms; none is actually waited: each advances the clock. */
  sleeps: number[];
  /** Every wait the credential rate limiter asked for, in ms; likewise only advances the clock. */
  rateWaits: number[];
  rateLimiter: CredentialRateLimiter;
}

export async function createTestRegistry(options: Partial<CreateSkillRegistryOptions> = {}): Promise<TestRegistry> {
  const logs = captureLogs();
  const metrics = createMetricsRegistry('retriever-test');
  const clock = manualClock();
  const sleeps: number[] = [];
  const rateWaits: number[] = [];
  const rateLimiter = options.rateLimiter ?? createCredentialRateLimiter({
    clock,
    sleep: async (ms) => {
      rateWaits.push(ms);
      clock.advance(ms);
    },
  });
  const registry = await createSkillRegistry({
    skills: builtinSkills(),
    adapters: 'live',
    env: {},
    logger: logs.logger,
    metrics: createSkillMetrics(metrics),
    clock,
    sleep: async (ms) => {
      sleeps.push(ms);
      clock.advance(ms);
    },
    rateLimiter,
    random: () => 0.5,
    // Generous: a local server answers in milliseconds, but a loaded CI machine may take seconds. Tests of timeouts set their own.
    limits: { apiTimeoutMs: 15_000, pageDeadlineMs: 15_000, maxResponseBytes: 256 * 1024 },
    retry: { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
    breaker: { failureThreshold: 3, coolDownMs: 1_000 },
    ...options,
  });
  return { registry, logs, metrics, clock, sleeps, rateWaits, rateLimiter };
}
