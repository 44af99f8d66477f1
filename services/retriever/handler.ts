/**
 * retriever: retrieval-requests → raw-results. Plans the skill calls a request needs, runs them
 * on the available providers (fallback chains, concurrency limits), and emits one raw-results
 * message per provider response, verbatim, then a run-end marker with counts and per-provider status.
 *
 * Multi-tenant: requests are queued as they arrive and run tenant-fair (tenancy/fair-queue.ts),
 * each under its tenant's tenant.json: a daily request quota counted across every instance, a cap
 * on items per run, its own provider credentials, and its share of calls in flight.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { SkryaError, describeError, isSkryaError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import { emit, later, type Handler, type Later, type Outcome } from '../../runtime/handler.ts';
import type { Capability } from '../../schemas/ingest.ts';
import type { ProviderStatus, RawResult, RequestContext, RetrievalRequest } from '../../schemas/messages.ts';
import { BINDING_PREFIX, runBinding, type Binding } from './bindings.ts';
import { counterQueries, enforcePlan, planFor, webChain, withinRounds } from './enforce-plan.ts';
import { executeCalls, type SkillCaller } from './execute-calls.ts';
import { withPages } from './paged-calls.ts';
import { PROVIDER_CHAINS, planCalls } from './plan-calls.ts';
import { rawRunEnd, topicKeyOf } from '../../domain/run/run.ts';
import { runSkill, type SkillRunResult } from '../../domain/skills/run-skill.ts';
import type { SkillRegistry } from '../../domain/skills/registry.ts';
import { createCallGate, providerConcurrency, type CallGate } from './tenancy/call-gate.ts';
import { createFairQueue, type FairQueueOptions } from './tenancy/fair-queue.ts';
import { loadTenantConfig, type TenantConfig } from './tenancy/tenant-config.ts';
import { realTenantPath } from './tenancy/tenant-paths.ts';
import type { TenantRegistries } from './tenancy/tenant-registries.ts';
import { createMemoryUsageLedger, decideQuota, itemsCutStatus, quotaExceededStatus, tenantErrorStatus, utcDay, type UsageLedger } from './tenancy/usage-ledger.ts';

export interface RetrieverOptions {
  /** The skills on the retriever's own credentials. */
  registry: SkillRegistry;
  dataRoot: string;
  /** Skills on a tenant's own credentials (tenant.json); absent = every tenant uses `registry`. */
  registries?: TenantRegistries;
  /** Where daily quotas are counted; absent = in this process only (one instance, tests). */
  ledger?: UsageLedger;
  /** Calls in flight for one request. */
  concurrency?: number;
  /** Calls in flight per tenant and per provider, shared by the requests this instance runs. */
  callGate?: CallGate;
  scheduling?: Partial<Pick<FairQueueOptions<RetrievalRequest>, 'maxRunsInFlight' | 'maxRunsPerTenant' | 'maxQueued'>>;
  /** Capabilities an operator bound to external commands for this run or session; tried first. */
  bindings?: readonly Binding[];
  clock?: () => Date;
  logger?: Logger;
}

export const DEFAULT_SCHEDULING = { maxRunsInFlight: 8, maxRunsPerTenant: 4, maxQueued: 10_000 } as const;

export function requestContext(request: RetrievalRequest): RequestContext {
  return {
    requested_at: request.requested_at,
    window_since: request.time_window.since,
    window_until: request.time_window.until,
    queries: request.queries,
    sub_queries: request.sub_queries,
    intent: request.intent,
    languages: request.languages,
    max_items: request.max_items,
    boost_domains: request.boost_domains,
  };
}

/** Built-in providers persist in config; a bound tool is a runtime skill, named only in run artifacts. */
function producerOf(provider: string, capability: Capability, bindings: ReadonlyMap<string, Binding>): RawResult['producer'] {
  const binding = bindings.get(provider);
  if (binding) return { kind: 'runtime-skill', name: binding.producer, persistent: false, capabilities: [capability] };
  return { kind: 'provider', name: provider, persistent: true, capabilities: [capability] };
}

const HEARTBEAT_EVERY_MS = 3_000;

export function createRetriever(options: RetrieverOptions): Handler<'retrieval-requests', Later> {
  const clock = options.clock ?? (() => new Date());
  const ledger = options.ledger ?? createMemoryUsageLedger();
  const registries: TenantRegistries = options.registries ?? { forTenant: async () => options.registry };
  const gate = options.callGate ?? createCallGate({ providerLimit: (provider) => providerConcurrency(options.registry.get(provider)?.declaration.rate_limit) });
  const bindings = new Map((options.bindings ?? []).map((binding) => [`${BINDING_PREFIX}${binding.capability}`, binding]));
  let serviceSignal: AbortSignal = new AbortController().signal;

  /** A run's messages: its responses, then the end marker with every status. */
  function runMessages(request: RetrievalRequest, startedAt: string, responses: RawResult[], end: { providerStatus: ProviderStatus[]; degradationLog: unknown[]; planJson: string | null }): Outcome[] {
    const marker = rawRunEnd(request, requestContext(request), { responseCount: responses.length, startedAt, finishedAt: clock().toISOString(), ...end });
    return [...responses, marker].map((message) => emit('raw-results', topicKeyOf(request), message));
  }

  /** The folder local reads may use: the topic's, proven inside the tenant's tree after symlinks. */
  async function localRootOf(request: RetrievalRequest): Promise<{ root: string | null; status: ProviderStatus | null }> {
    try {
      return { root: await realTenantPath(options.dataRoot, request.tenant, 'topics', request.topic_id), status: null };
    } catch (error) {
      if (!isSkryaError(error) || error.retriable) throw error;
      const reads = request.capabilities.includes('local_file') || request.capabilities.includes('rss_feed');
      return { root: null, status: reads ? tenantErrorStatus(error.code, `local reads refused: ${error.message}`, 'local_file') : null };
    }
  }

  async function retrieve(original: RetrievalRequest, signal: AbortSignal): Promise<Outcome[]> {
    const startedAt = clock().toISOString();
    const closeWith = (status: ProviderStatus) => runMessages(original, startedAt, [], { providerStatus: [status], degradationLog: [], planJson: null });

    let config: TenantConfig;
    try {
      config = await loadTenantConfig(options.dataRoot, original.tenant);
    } catch (error) {
      if (!isSkryaError(error) || error.retriable) throw error;
      options.logger?.warn({ tenant: original.tenant, runId: original.run_id, code: error.code }, 'tenant settings refused; the run closes without provider calls');
      return closeWith(tenantErrorStatus(error.code, error.message));
    }

    const quota = await decideQuota(ledger, { tenant: original.tenant, day: utcDay(original.requested_at), runId: original.run_id }, config.quotas.requests_per_day);
    if (!quota.admitted) {
      options.logger?.info({ tenant: original.tenant, runId: original.run_id, requests: quota.requests, limit: quota.limit }, 'tenant quota exceeded; the run closes without provider calls');
      return closeWith(quotaExceededStatus(quota));
    }

    const tenantStatus: ProviderStatus[] = [];
    const itemLimit = config.quotas.items_per_run;
    const request = itemLimit !== null && itemLimit < original.max_items ? { ...original, max_items: itemLimit } : original;
    if (request !== original) tenantStatus.push(itemsCutStatus(original.max_items, request.max_items));

    const registry = await registries.forTenant(config.credentials);
    const local = await localRootOf(request);
    if (local.status) tenantStatus.push(local.status);

    const connectable = new Set(registry.list().filter((skill) => skill.missingCredentials.length === 0).map((skill) => skill.declaration.name));
    const plan = planFor(request, connectable);
    const chain = plan ? webChain(plan, connectable) : null;
    const chains: Partial<Record<Capability, readonly string[]>> = chain ? { web_search: chain } : {};
    for (const binding of bindings.values()) chains[binding.capability] = [`${BINDING_PREFIX}${binding.capability}`, ...(chains[binding.capability] ?? PROVIDER_CHAINS[binding.capability])];
    const planned = planCalls(request, { counterQueries: plan ? counterQueries(plan) : [], chains });
    const calls = plan ? withPages(withinRounds(planned, plan, request.sub_queries.length > 0 ? request.sub_queries : request.queries), plan) : planned;

    const callProvider = (skill: string, input: Record<string, unknown>, callSignal: AbortSignal): Promise<SkillRunResult> => {
      const binding = bindings.get(skill);
      if (!binding) return runSkill(registry, skill, input, { tenant: request.tenant, runId: request.run_id, signal: callSignal, localRoot: local.root });
      const query = typeof input.query === 'string' ? input.query : (request.queries[0] ?? request.topic_id);
      return runBinding(binding, { query, since: request.time_window.since, until: request.time_window.until, languages: request.languages, maxItems: request.max_items, topicId: request.topic_id }, callSignal, clock);
    };
    const callSkill: SkillCaller = async (skill, input, callSignal) => {
      let release: () => void;
      try {
        release = await gate.acquire({ tenant: request.tenant, tenantLimit: config.concurrency, provider: skill }, callSignal);
      } catch (error) {
        return { status: 'error', code: isSkryaError(error) ? error.code : 'ADAPTER_TIMEOUT', message: describeError(error), raw: [], durationMs: 0 };
      }
      try {
        return await callProvider(skill, input, callSignal);
      } finally {
        release();
      }
    };
    const report = await executeCalls(calls, { concurrency: options.concurrency ?? 4, signal, ...(plan ? { plan: enforcePlan(plan) } : {}), callSkill });

    const scope = { tenant: request.tenant, topic_id: request.topic_id, run_id: request.run_id, request: requestContext(request) };
    const responses: RawResult[] = [];
    for (const outcome of report.outcomes) {
      if (outcome.provider === null) continue;
      for (const raw of outcome.raw) {
        responses.push({
          ...scope,
          kind: 'RESPONSE',
          producer: producerOf(outcome.provider, outcome.call.capability, bindings),
          response: {
            sequence: responses.length,
            capability: outcome.call.capability,
            sub_query: outcome.call.subQuery,
            counter_evidence: outcome.call.counterEvidence,
            fetched_at: raw.fetchedAt,
            http_status: raw.httpStatus,
            content_type: raw.contentType,
            url: raw.url,
            payload: raw.body,
          },
          run_end: null,
        });
      }
    }
    return runMessages(request, startedAt, responses, {
      providerStatus: [...tenantStatus, ...report.providerStatus],
      degradationLog: report.degradationLog,
      planJson: plan ? JSON.stringify(plan) : null,
    });
  }

  /**
   * One run to its end: retriable failures (the usage log out of reach) are retried in place with
   * backoff, as the runner does; a permanent one closes the run with its code. Null = abandoned
   * because the service is stopping: the request stays held and is redone.
   */
  async function runToEnd(request: RetrievalRequest, queueSignal: AbortSignal): Promise<Outcome[] | null> {
    const signal = AbortSignal.any([queueSignal, serviceSignal]);
    for (let attempt = 0; ; attempt += 1) {
      try {
        const outcomes = await retrieve(request, signal);
        return signal.aborted ? null : outcomes;
      } catch (error) {
        if (signal.aborted) return null;
        if (!isSkryaError(error)) throw error;
        if (!error.retriable) {
          options.logger?.error({ tenant: request.tenant, runId: request.run_id, code: error.code }, 'run failed; it closes with the error');
          return runMessages(request, clock().toISOString(), [], { providerStatus: [tenantErrorStatus(error.code, error.message)], degradationLog: [], planJson: null });
        }
        const wait = Math.min(5_000, 200 * 2 ** Math.min(attempt, 5));
        options.logger?.warn({ tenant: request.tenant, runId: request.run_id, code: error.code, attempt, delayMs: wait }, 'run failed, retrying');
        await delay(wait, undefined, { signal }).catch(() => {});
      }
    }
  }

  const queue = createFairQueue<RetrievalRequest>({ ...DEFAULT_SCHEDULING, ...options.scheduling, run: (item, signal) => runToEnd(item.payload, signal) });

  return {
    input: 'retrieval-requests',
    async handle({ value: request, partition, offset }, context): Promise<Later[]> {
      serviceSignal = context.signal;
      // Backpressure: while the queue is full the reader waits, heartbeating so it stays in the group.
      for (;;) {
        const waited = new AbortController();
        const roomy = await Promise.race([queue.whenRoom().then(() => true), delay(HEARTBEAT_EVERY_MS, false, { signal: waited.signal }).catch(() => false)]);
        waited.abort();
        if (roomy) break;
        if (context.signal.aborted) throw new SkryaError('BROKER_UNAVAILABLE', 'stopping while the run queue is full');
        await context.heartbeat();
      }
      // The run finishes later: the runner holds this input until the run's messages are acknowledged.
      return [later(queue.enqueue({ tenant: request.tenant, lane: topicKeyOf(request), partition, offset, payload: request }))];
    },
    onAssignment: () => queue.reset(),
  };
}
