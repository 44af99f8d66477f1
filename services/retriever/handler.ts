/**
 * retriever: retrieval-requests → raw-results. Plans the skill calls a request needs, runs them
 * on the available providers (fallback chains, concurrency limit), and emits one raw-results message
 * per provider response, verbatim, then a run-end marker with counts and per-provider status.
 */
import { topicDir } from '../../runtime/data-paths.ts';
import { topicKey } from '../../runtime/ids.ts';
import { emit, type Handler, type Outcome } from '../../runtime/runner.ts';
import type { Capability } from '../../schemas/ingest.ts';
import type { RawResult, RequestContext, RetrievalRequest } from '../../schemas/messages.ts';
import { BINDING_PREFIX, runBinding, type Binding } from './bindings.ts';
import { counterQueries, enforcePlan, planFor, webChain, withinRounds } from './enforce-plan.ts';
import { executeCalls } from './execute-calls.ts';
import { PROVIDER_CHAINS, planCalls } from './plan-calls.ts';
import { runSkill } from './skills/run-skill.ts';
import type { SkillRegistry } from './skills/registry.ts';

export interface RetrieverOptions {
  registry: SkillRegistry;
  dataRoot: string;
  /** Calls in flight for one request. */
  concurrency?: number;
  /** Capabilities an operator bound to external commands for this run or session; tried first. */
  bindings?: readonly Binding[];
  clock?: () => Date;
}

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

export function createRetriever(options: RetrieverOptions): Handler<'retrieval-requests'> {
  const clock = options.clock ?? (() => new Date());
  return {
    input: 'retrieval-requests',
    async handle({ value: request }, context): Promise<Outcome[]> {
      const startedAt = clock().toISOString();
      const key = topicKey({ tenant: request.tenant, topicId: request.topic_id });
      const localRoot = topicDir(options.dataRoot, request.tenant, request.topic_id);
      const connectable = new Set(options.registry.list().filter((skill) => skill.missingCredentials.length === 0).map((skill) => skill.declaration.name));
      const bindings = new Map((options.bindings ?? []).map((binding) => [`${BINDING_PREFIX}${binding.capability}`, binding]));
      const plan = planFor(request, connectable);
      const chain = plan ? webChain(plan, connectable) : null;
      const chains: Partial<Record<Capability, readonly string[]>> = chain ? { web_search: chain } : {};
      for (const binding of bindings.values()) chains[binding.capability] = [`${BINDING_PREFIX}${binding.capability}`, ...(chains[binding.capability] ?? PROVIDER_CHAINS[binding.capability])];
      const planned = planCalls(request, { counterQueries: plan ? counterQueries(plan) : [], chains });
      const calls = plan ? withinRounds(planned, plan, request.sub_queries.length > 0 ? request.sub_queries : request.queries) : planned;
      const report = await executeCalls(calls, {
        concurrency: options.concurrency ?? 4,
        signal: context.signal,
        ...(plan ? { plan: enforcePlan(plan) } : {}),
        onProgress: context.heartbeat,
        callSkill: (skill, input, signal) => {
          const binding = bindings.get(skill);
          if (!binding) return runSkill(options.registry, skill, input, { tenant: request.tenant, runId: request.run_id, signal, localRoot });
          const query = typeof input.query === 'string' ? input.query : (request.queries[0] ?? request.topic_id);
          return runBinding(binding, { query, since: request.time_window.since, until: request.time_window.until, languages: request.languages, maxItems: request.max_items, topicId: request.topic_id }, signal, clock);
        },
      });

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
      const marker: RawResult = {
        ...scope,
        kind: 'RUN_END',
        producer: { kind: 'provider', name: 'retriever', persistent: true, capabilities: [...new Set<Capability>(request.capabilities)] },
        response: null,
        run_end: {
          response_count: responses.length,
          started_at: startedAt,
          finished_at: clock().toISOString(),
          provider_status: report.providerStatus,
          degradation_log_json: JSON.stringify(report.degradationLog),
          plan_json: plan ? JSON.stringify(plan) : null,
        },
      };
      return [...responses, marker].map((message) => emit('raw-results', key, message));
    },
  };
}
