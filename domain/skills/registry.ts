/**
 * The skill registry (spec 002, registration layer). Before a skill may serve it passes three
 * checks: (1) its declaration is valid and its JSON Schemas compile (ajv, strict, closed objects),
 * (2) the executor's zod contract agrees with the declared schemas, (3) a smoke test of its first
 * example on the mock adapter succeeds. A skill that fails is reported with the reason and left
 * out; the others serve.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeError, isSkryaError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { SkillMetrics } from '../../runtime/metrics.ts';
import type { Capability } from '../../schemas/ingest.ts';
import { DEFAULT_CIRCUIT_BREAKER, createCircuitBreaker, type CircuitBreakerOptions } from './adapters/circuit-breaker.ts';
import { createCredentialRateLimiter, type CredentialRateLimiter } from './adapters/credential-rate-limiter.ts';
import { createHttpApiTransport, type FetchFunction } from './adapters/http-api-transport.ts';
import { createLiveTransport } from './adapters/live-transport.ts';
import { createLocalFilesTransport } from './adapters/local-files-transport.ts';
import { createMockTransport, loadRecordings, type SkillRecordings } from './adapters/mock-transport.ts';
import { DEFAULT_RETRY_POLICY, sleep as realSleep, type RetryPolicy } from './adapters/retry-policy.ts';
import { createSkillAdapterFactory, type SkillAdapterFactory } from './adapters/skill-adapter.ts';
import { compareContract } from './contract-check.ts';
import { createDeclarationChecker, type SkillDeclaration } from './declaration.ts';
import { createGuardedFetcher } from './net/guarded-fetch.ts';
import { DEFAULT_MAX_DOCUMENT_BYTES } from '../../runtime/config.ts';
import type { NetworkPolicy, Resolver } from './net/ssrf-guard.ts';
import { invokeSkill, type SkillRuntime } from './run-skill.ts';
import type { AdapterMode, Clock, SkillDefinition } from './types.ts';

export interface AdapterLimits {
  /** One attempt against a provider API. */
  apiTimeoutMs: number;
  /** A whole public-URL fetch: robots.txt, redirects and body. */
  pageDeadlineMs: number;
  /** Provider API answers (search providers). */
  maxResponseBytes: number;
  /** One cap for every document read: a feed or page fetched from a URL, a feed file, a note. */
  maxDocumentBytes: number;
}

export const DEFAULT_ADAPTER_LIMITS: AdapterLimits = {
  apiTimeoutMs: 10_000,
  pageDeadlineMs: 15_000,
  maxResponseBytes: 5 * 1024 * 1024,
  maxDocumentBytes: DEFAULT_MAX_DOCUMENT_BYTES,
};

export interface CreateSkillRegistryOptions {
  skills: SkillDefinition[];
  adapters: AdapterMode;
  env: Record<string, string | undefined>;
  logger: Logger;
  metrics: SkillMetrics;
  fetch?: FetchFunction;
  clock?: Clock;
  /** Who public-URL fetches may reach; the default refuses every non-public address. */
  network?: { policy?: NetworkPolicy; resolver?: Resolver };
  limits?: Partial<AdapterLimits>;
  retry?: Partial<RetryPolicy>;
  breaker?: Partial<CircuitBreakerOptions>;
  /** Injected in tests so backoff is observable without waiting. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
  userAgent?: string;
  /**
   * Spaces live API calls per credential. Pass one limiter to every registry of a process (the
   * operator's and each tenant's), so skills and tenants on one key share its rate; absent = a
   * limiter of this registry alone.
   */
  rateLimiter?: CredentialRateLimiter;
}

export type CheckOutcome = { passed: true } | { passed: false; reason: string } | { passed: null };

export interface RegisteredSkill {
  declaration: SkillDeclaration;
  definition: SkillDefinition;
  /** Env vars the declaration needs that are not set: the skill answers NOT_CONFIGURED in live mode. */
  missingCredentials: string[];
}

export interface SkillReportEntry {
  name: string;
  version: string | null;
  capabilities: Capability[];
  declarationFile: string;
  status: 'serving' | 'excluded';
  reason: string | null;
  checks: { declaration: CheckOutcome; contract: CheckOutcome; smoke: CheckOutcome };
  missingCredentials: string[];
}

export interface SkillRegistry {
  readonly mode: AdapterMode;
  get(name: string): RegisteredSkill | undefined;
  /** Serving skills with this capability, in registration order. */
  forCapability(capability: Capability): RegisteredSkill[];
  list(): RegisteredSkill[];
  report(): SkillReportEntry[];
  /** What runSkill needs; not for other callers. */
  readonly runtime: SkillRuntime;
}

const systemClock: Clock = { now: () => new Date() };

export async function createSkillRegistry(options: CreateSkillRegistryOptions): Promise<SkillRegistry> {
  const clock = options.clock ?? systemClock;
  const limits = { ...DEFAULT_ADAPTER_LIMITS, ...options.limits };
  const retry = { ...DEFAULT_RETRY_POLICY, ...options.retry };
  const breakerOptions = { ...DEFAULT_CIRCUIT_BREAKER, ...options.breaker };
  const attemptTimeoutMs = { api: limits.apiTimeoutMs, 'public-url': limits.pageDeadlineMs, 'local-file': limits.apiTimeoutMs, 'local-notes': limits.apiTimeoutMs };
  const recordings = new Map<string, SkillRecordings>();

  const mockAdapters = createSkillAdapterFactory({
    mode: 'mock',
    transport: createMockTransport(recordings),
    retry: { ...retry, maxRetries: 0 },
    breaker: createCircuitBreaker(breakerOptions, clock),
    clock,
    attemptTimeoutMs,
  });
  const liveAdapters: SkillAdapterFactory = options.adapters === 'mock' ? mockAdapters : createSkillAdapterFactory({
    mode: 'live',
    transport: createLiveTransport({
      api: createHttpApiTransport({ env: options.env, fetch: options.fetch ?? fetch, maxResponseBytes: limits.maxResponseBytes, userAgent: options.userAgent ?? 'skrya/0.1' }),
      publicWeb: createGuardedFetcher({
        ...(options.network?.policy ? { policy: options.network.policy } : {}),
        ...(options.network?.resolver ? { resolver: options.network.resolver } : {}),
        maxBytes: limits.maxDocumentBytes,
        deadlineMs: limits.pageDeadlineMs,
      }),
      local: createLocalFilesTransport({ maxFileBytes: limits.maxDocumentBytes }),
    }),
    retry,
    breaker: createCircuitBreaker(breakerOptions, clock),
    clock,
    attemptTimeoutMs,
    ...(options.sleep ? { sleep: options.sleep } : {}),
    ...(options.random ? { random: options.random } : {}),
    rateLimiter: options.rateLimiter ?? createCredentialRateLimiter({ clock, sleep: options.sleep ?? realSleep }),
  });

  const runtime: SkillRuntime = { adapters: liveAdapters, env: options.env, logger: options.logger, metrics: options.metrics, clock };
  const smokeRuntime: SkillRuntime = { ...runtime, adapters: mockAdapters, metrics: null };

  const declarations = createDeclarationChecker();
  const serving = new Map<string, RegisteredSkill>();
  const report: SkillReportEntry[] = [];

  for (const definition of options.skills) {
    const declarationFile = fileURLToPath(definition.declarationUrl);
    const entry: SkillReportEntry = {
      name: path.basename(path.dirname(declarationFile)),
      version: null,
      capabilities: [],
      declarationFile,
      status: 'excluded',
      reason: null,
      checks: { declaration: { passed: null }, contract: { passed: null }, smoke: { passed: null } },
      missingCredentials: [],
    };
    report.push(entry);
    const exclude = (check: keyof SkillReportEntry['checks'], reason: string) => {
      entry.checks[check] = { passed: false, reason };
      entry.reason = `${check} check failed: ${reason}`;
      options.logger.warn({ event: 'skill_excluded', skill: entry.name, check, reason }, 'skill excluded from serving');
    };

    let declaration: SkillDeclaration;
    try {
      declaration = await declarations.load(definition.declarationUrl);
    } catch (error) {
      exclude('declaration', describeError(error));
      continue;
    }
    entry.name = declaration.name;
    entry.version = declaration.version;
    entry.capabilities = declaration.capabilities;
    if (serving.has(declaration.name)) {
      exclude('declaration', `another skill is already registered as ${declaration.name}`);
      continue;
    }
    entry.checks.declaration = { passed: true };

    const mismatches = [
      ...compareContract(definition.input, declaration.input_schema, 'input').map((m) => `input ${m.path}: ${m.problem}`),
      ...compareContract(definition.output, declaration.output_schema, 'output').map((m) => `output ${m.path}: ${m.problem}`),
    ];
    if (mismatches.length > 0) {
      exclude('contract', mismatches.join('; '));
      continue;
    }
    entry.checks.contract = { passed: true };

    const registered: RegisteredSkill = {
      declaration,
      definition,
      missingCredentials: declaration.credentials.map((credential) => credential.env).filter((name) => !options.env[name]),
    };
    entry.missingCredentials = registered.missingCredentials;
    try {
      recordings.set(declaration.name, await loadRecordings(definition.fixturesDir, (input) => definition.input.parse(input)));
    } catch (error) {
      exclude('smoke', isSkryaError(error) ? error.message : describeError(error));
      continue;
    }
    const [example] = declaration.examples;
    const smoke = await invokeSkill(smokeRuntime, registered, example?.input, { tenant: 'registry', runId: 'smoke-test', localRoot: null });
    if (smoke.status !== 'ok') {
      exclude('smoke', `${smoke.code ?? 'error'}: ${smoke.message ?? 'no message'}`);
      continue;
    }
    entry.checks.smoke = { passed: true };
    entry.status = 'serving';
    serving.set(declaration.name, registered);
  }

  return {
    mode: options.adapters,
    get: (name) => serving.get(name),
    forCapability: (capability) => [...serving.values()].filter((skill) => skill.declaration.capabilities.includes(capability)),
    list: () => [...serving.values()],
    report: () => report.map((entry) => ({ ...entry, checks: { ...entry.checks } })),
    runtime,
  };
}
