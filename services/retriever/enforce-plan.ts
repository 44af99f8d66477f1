/**
 * The source router's plan (spec 004), made binding on a run: the request is mapped to router
 * input, and the resulting plan decides the web provider chain, the counter-evidence queries, the
 * number of searches each source may spend, how many rounds (sub-queries) run, and when searching
 * stops. Feeds, named pages and named note folders are direct fetches of what the operator listed,
 * not searches: the plan never limits them.
 */
import type { Capability } from '../../schemas/ingest.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { hostOf } from '../../domain/ranking/score-item.ts';
import { SHIPPED_AUTHORITY } from '../../domain/ranking/shipped-authority.ts';
import type { GoalMode, RouteFreshness, SearchProvider, SourceType, TaskType } from './router/route-input.ts';
import type { RoutePlan } from './router/route-plan.ts';
import { routePlanSchema } from './router/route-plan.ts';
import { routeSources } from './router/route-sources.ts';
import { STOP_CONDITIONS } from './router/stop-rule.ts';
import type { PlannedCall } from './plan-calls.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';

const SEARCH_CAPABILITIES: readonly Capability[] = ['web_search', 'news_search', 'site_search', 'social_search'];

/** How each intent reads as a router task (spec 001 intents → spec 004 inputs). */
const TASK_BY_INTENT: Record<NonNullable<RetrievalRequest['intent']>, { task_type: TaskType; goal_mode: GoalMode; freshness_required: RouteFreshness }> = {
  news: { task_type: 'breaking_news', goal_mode: 'analyze', freshness_required: 'high' },
  status: { task_type: 'tech_evaluation', goal_mode: 'evaluate', freshness_required: 'medium' },
  comparison: { task_type: 'tech_evaluation', goal_mode: 'compare', freshness_required: 'medium' },
  factual: { task_type: 'entity_analysis', goal_mode: 'analyze', freshness_required: 'low' },
  tutorial: { task_type: 'deep_research', goal_mode: 'analyze', freshness_required: 'low' },
  exploratory: { task_type: 'deep_research', goal_mode: 'investigate', freshness_required: 'medium' },
  resource: { task_type: 'internal_knowledge', goal_mode: 'analyze', freshness_required: 'low' },
};

/** Router provider names ↔ our search skills (those without a skill here are left out). */
const SKILL_BY_PROVIDER: Partial<Record<SearchProvider, string>> = {
  tavily: 'tavily_search',
  exa: 'exa_search',
  brave: 'brave_web_search',
};

/** Results that satisfy a stop rule: high-confidence means a tier-1 or tier-2 host. */
const HIGH_CONFIDENCE_TIER = 2;

/** The plan source a call spends from; null for direct fetches, which are never budgeted. */
export function sourceOf(call: PlannedCall): SourceType | null {
  if (call.counterEvidence) return 'counter';
  if (SEARCH_CAPABILITIES.includes(call.capability)) return 'web';
  return null;
}

/**
 * The plan for a request: the one it carries, or the router's for it (spec 004's default budget of
 * 10 searches); null when nothing is searched. `connectableSkills` are the skills that can reach
 * their provider now (serving, with credentials): only they enter the fallback chain.
 */
export function planFor(request: RetrievalRequest, connectableSkills: ReadonlySet<string>): RoutePlan | null {
  if (request.plan_json !== null) return routePlanSchema.parse(JSON.parse(request.plan_json));
  const hasWeb = request.capabilities.some((capability) => SEARCH_CAPABILITIES.includes(capability));
  const hasLocal = request.capabilities.includes('local_file');
  if (!hasWeb && !hasLocal) return null;
  const task = TASK_BY_INTENT[request.intent ?? 'exploratory'];
  const connectable = (Object.entries(SKILL_BY_PROVIDER) as Array<[SearchProvider, string]>)
    .filter(([, skill]) => connectableSkills.has(skill))
    .map(([provider]) => provider);
  // With none connectable, web stays in the plan all the same: a tool bound at run time may serve
  // it, and otherwise each provider reports, in plain words, that it cannot be connected.
  const providers = connectable.length > 0 ? connectable : (Object.keys(SKILL_BY_PROVIDER) as SearchProvider[]);
  return routeSources({
    ...task,
    primary_subject: request.queries[0] ?? request.topic_id,
    available_sources: [...(hasWeb ? ['web', 'counter'] : []), ...(hasLocal ? ['local_file'] : [])],
    need_counter_evidence: task.goal_mode !== 'analyze',
    preferred_domains: request.boost_domains,
    providers,
  }, { taskIdSeed: request.run_id });
}

/** The web search chain the plan walks, as skill names that can connect; null keeps the default chain. */
export function webChain(plan: RoutePlan, connectableSkills: ReadonlySet<string>): string[] | null {
  const chain = plan.fallback_chain.map((step) => SKILL_BY_PROVIDER[step.source]).filter((skill): skill is string => skill !== undefined && connectableSkills.has(skill));
  return chain.length > 0 ? chain : null;
}

/** Counter-evidence queries, when the plan asks for counter-search. */
export function counterQueries(plan: RoutePlan): string[] {
  if (!plan.counter_search_enabled) return [];
  const counter = plan.selected_sources.find((source) => source.source === 'counter');
  if (counter) return counter.search_hints;
  return plan.selected_sources.flatMap((source) => source.search_hints.filter((hint) => /criticism|问题|争议|risks?|problems?/i.test(hint)));
}

function stopThreshold(plan: RoutePlan): { kind: 'hosts' | 'results' | 'local'; count: number } {
  switch (plan.stop_rule.condition) {
    case STOP_CONDITIONS.breaking_news:
      return { kind: 'hosts', count: 3 };
    case STOP_CONDITIONS.deep_research:
      return { kind: 'results', count: 10 };
    case STOP_CONDITIONS.internal_knowledge:
      return { kind: 'local', count: 5 };
    default:
      return { kind: 'results', count: 3 };
  }
}

export interface PlanEnforcement {
  /** Spends one search of the call's source; false when its budget is used up. */
  spend(call: PlannedCall): boolean;
  /** Gives a search back: the provider failed (quota, timeout, error) and searched nothing. */
  refund(call: PlannedCall): void;
  /** True once the stop rule is met: outstanding and later searches are cancelled. */
  stopped(): boolean;
  /** Feeds a call's results to the stop rule; true when this call met it. */
  observe(call: PlannedCall, results: readonly ProviderResult[]): boolean;
  readonly stopSignal: AbortSignal;
  readonly condition: string;
}

export function enforcePlan(plan: RoutePlan): PlanEnforcement {
  const remaining = new Map<SourceType, number>();
  for (const [source, count] of Object.entries(plan.budget_allocation)) if (source !== 'total_budget' && typeof count === 'number') remaining.set(source as SourceType, count);
  const threshold = stopThreshold(plan);
  const hosts = new Set<string>();
  let confident = 0;
  let localHits = 0;
  const stop = new AbortController();
  const met = () => (threshold.kind === 'hosts' ? hosts.size : threshold.kind === 'local' ? localHits : confident) >= threshold.count;
  return {
    stopSignal: stop.signal,
    condition: plan.stop_rule.condition,
    spend(call) {
      const source = sourceOf(call);
      if (source === null) return true;
      const left = remaining.get(source) ?? 0;
      if (left <= 0) return false;
      remaining.set(source, left - 1);
      return true;
    },
    refund(call) {
      const source = sourceOf(call);
      if (source !== null) remaining.set(source, (remaining.get(source) ?? 0) + 1);
    },
    stopped: () => stop.signal.aborted,
    observe(call, results) {
      const source = sourceOf(call);
      if (source === null || stop.signal.aborted) return false;
      if (source === 'local_file') localHits += results.length;
      for (const result of results) {
        const host = hostOf(result.url || null);
        if (host === null || SHIPPED_AUTHORITY.classifyHost(host).tier > HIGH_CONFIDENCE_TIER) continue;
        hosts.add(host);
        confident += 1;
      }
      if (!met()) return false;
      stop.abort();
      return true;
    },
  };
}

/** Rounds are sub-queries: searches for sub-queries past max_rounds are not issued. */
export function withinRounds(calls: readonly PlannedCall[], plan: RoutePlan, subQueries: readonly string[]): PlannedCall[] {
  const allowed = new Set(subQueries.slice(0, plan.stop_rule.max_rounds));
  return calls.filter((call) => sourceOf(call) !== 'web' || call.subQuery === null || allowed.has(call.subQuery));
}
