/**
 * Spec 004's source router: task features in, a search routing plan out. It never searches and
 * never concludes; it only decides where to look, in what order, whether to look for
 * counter-evidence, when to stop and how to degrade.
 *
 * Readings of the spec this function commits to (each is tested):
 * - Counter-search that rule 4 requires while `counter` is not among the available sources (or
 *   gets no search from a tiny budget) is carried by web — or, without web, by the first selected
 *   source — as extra counter hints; `counter` itself is never selected unless available.
 * - web is usable only when at least one web provider is available (`providers`); the fallback
 *   chain is built from those providers and its level 1 is named in web's rationale: it is the
 *   provider web actually starts with ("最高可用级别作为实际 selected_sources[0]").
 */
import { SkryaError } from '../../../runtime/errors.ts';
import { allocateBudget } from './budget-allocation.ts';
import { decideCounterSearch } from './counter-search.ts';
import { buildFallbackChain, hasWebProvider } from './fallback-chain.ts';
import { parseRouteInput, type RouteInput, type SourceType } from './route-input.ts';
import type { BudgetAllocation, RoutePlan, SelectedSource } from './route-plan.ts';
import { counterHints, searchHints } from './search-hints.ts';
import { selectSources } from './source-selection.ts';
import { stopRuleFor } from './stop-rule.ts';
import { routeTaskId } from './task-id.ts';

export interface RouteOptions {
  /** Makes task_id a hash of seed and input instead of random, for tests and replays. */
  taskIdSeed?: string;
}

/** Sources that can actually serve: web needs a web provider behind it. */
function usableSources(input: RouteInput): SourceType[] {
  const usable = hasWebProvider(input.providers) ? input.available_sources : input.available_sources.filter((source) => source !== 'web');
  if (!usable.some((source) => source !== 'counter')) {
    throw new SkryaError(
      'INVALID_INPUT',
      `invalid route input: providers [${input.providers.join(', ')}] include no web provider, so web cannot run and no other source besides counter is in available_sources; add tavily, bailian, exa, brave or document_fetch to providers, or local_file, vector or graph to available_sources`,
      { details: { problems: [{ field: 'providers', expected: 'at least one web provider' }, { field: 'available_sources', expected: 'a source besides web and counter' }] } },
    );
  }
  return usable;
}

export function routeSources(rawInput: unknown, options: RouteOptions = {}): RoutePlan {
  const input = parseRouteInput(rawInput);
  const usable = usableSources(input);
  const counter = decideCounterSearch(input);
  const selection = selectSources(input, usable, counter);
  const budgets = allocateBudget({
    ordered: selection.candidates,
    total: input.budget_limit,
    webPercent: selection.webPercent,
    webFloorPercent: selection.webFloorPercent,
  });
  const kept = budgets.map((budget) => budget.source);
  const fallbackChain = buildFallbackChain({ providers: input.providers, webSelected: kept.includes('web'), available: usable });

  // Counter-search that is on but has no counter source of its own rides on web, else the first source.
  const counterCarrier = counter.enabled && !kept.includes('counter') ? (kept.includes('web') ? 'web' : kept[0]) : undefined;
  const hintContext = { ...input, localFirst: selection.localFirst };

  const selectedSources: SelectedSource[] = kept.map((source, index) => {
    const candidate = selection.candidates.find((entry) => entry.source === source);
    const reasons = [...(candidate?.reasons ?? [])];
    const hints = searchHints(source, hintContext);
    if (source === 'web' && fallbackChain.length > 0) {
      reasons.push(`rule 6: served by ${fallbackChain.map((step) => step.source).join(' → ')} (starts at level 1, ${fallbackChain[0]?.source})`);
    }
    if (source === counterCarrier) {
      const why = usable.includes('counter') ? 'counter got no search within budget_limit' : 'counter is not in available_sources';
      reasons.push(`${counter.trigger ?? 'rule 4'}; also runs the counter-search because ${why}`);
      hints.push(...counterHints(input.primary_subject).filter((hint) => !hints.includes(hint)));
    }
    return { source, priority: index + 1, rationale: reasons.join('; '), search_hints: hints };
  });

  const budgetAllocation: BudgetAllocation = { total_budget: input.budget_limit };
  for (const budget of budgets) budgetAllocation[budget.source] = budget.searches;

  return {
    task_id: routeTaskId(input, options.taskIdSeed),
    task_type: input.task_type,
    primary_subject: input.primary_subject,
    selected_sources: selectedSources,
    search_order: kept,
    counter_search_enabled: counter.enabled,
    counter_trigger: counter.trigger,
    stop_rule: stopRuleFor(input, kept),
    budget_allocation: budgetAllocation,
    fallback_chain: fallbackChain,
    degradation_log: [],
  };
}
