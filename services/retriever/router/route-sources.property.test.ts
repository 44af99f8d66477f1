import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { GOAL_MODES, ROUTE_FRESHNESS, SEARCH_PROVIDERS, SOURCE_TYPES, TASK_TYPES, type RouteInputDraft, type SearchProvider } from './route-input.ts';
import { TASK_ID_PATTERN, routePlanSchema, type RoutePlan } from './route-plan.ts';
import { routeSources } from './route-sources.ts';

const WEB_PROVIDERS: readonly SearchProvider[] = SEARCH_PROVIDERS.filter((provider) => provider !== 'local_cache');

const routeInput: fc.Arbitrary<RouteInputDraft> = fc.record(
  {
    task_type: fc.constantFrom(...TASK_TYPES),
    primary_subject: fc.string({ minLength: 1, maxLength: 20 }).filter((text) => text.trim().length > 0),
    goal_mode: fc.constantFrom(...GOAL_MODES),
    freshness_required: fc.constantFrom(...ROUTE_FRESHNESS),
    available_sources: fc.subarray([...SOURCE_TYPES], { minLength: 1 }).filter((sources) => sources.some((source) => source !== 'counter')),
    need_counter_evidence: fc.boolean(),
    information_gaps: fc.array(fc.string({ minLength: 1, maxLength: 12 }).filter((text) => text.trim().length > 0), { maxLength: 3 }),
    budget_limit: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 1_000_000 })),
    preferred_domains: fc.subarray(['kafka.apache.org', 'github.com', 'example.cn']),
    local_material: fc.boolean(),
    providers: fc.subarray([...SEARCH_PROVIDERS]),
  },
  { requiredKeys: ['task_type', 'primary_subject', 'goal_mode', 'freshness_required', 'available_sources', 'need_counter_evidence'] },
);

/** The one documented refusal for valid-looking input: no web provider and nothing but web/counter. */
function cannotServe(input: RouteInputDraft): boolean {
  const providers = input.providers ?? ['tavily'];
  const webUsable = providers.some((provider) => WEB_PROVIDERS.includes(provider));
  return !webUsable && input.available_sources.every((source) => source === 'web' || source === 'counter');
}

function routeOrNull(input: RouteInputDraft): RoutePlan | null {
  try {
    return routeSources(input, { taskIdSeed: 'property' });
  } catch (error) {
    if (isSkryaError(error) && error.code === 'INVALID_INPUT' && cannotServe(input)) return null;
    throw error;
  }
}

const budgetOf = (input: RouteInputDraft) => input.budget_limit ?? 10;

describe('routeSources invariants', () => {
  it('refuses only inputs no source can serve, and otherwise returns a plan of the fixed structure', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        expect(plan === null).toBe(cannotServe(input));
        if (plan !== null) routePlanSchema.parse(plan);
      }),
      { numRuns: 500 },
    );
  });

  it('splits exactly the budget, in whole searches, at least one per selected source', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        const { total_budget: total, ...perSource } = plan.budget_allocation;
        expect(total).toBe(budgetOf(input));
        expect(Object.values(perSource).reduce((sum, searches) => sum + searches, 0)).toBe(total);
        expect(Object.keys(perSource)).toEqual(plan.search_order);
        for (const searches of Object.values(perSource)) expect(Number.isInteger(searches) && searches >= 1).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('selects only available sources, in priority order 1..n matching search_order', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        for (const source of plan.search_order) expect(input.available_sources).toContain(source);
        expect(new Set(plan.search_order).size).toBe(plan.search_order.length);
        expect(plan.selected_sources.map((entry) => entry.source)).toEqual(plan.search_order);
        expect(plan.selected_sources.map((entry) => entry.priority)).toEqual(plan.search_order.map((_, index) => index + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('gives web the first place and ≥70 % of the budget when freshness is high', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null || input.freshness_required !== 'high' || !plan.search_order.includes('web')) return;
        expect(plan.search_order[0]).toBe('web');
        expect((plan.budget_allocation.web ?? 0) * 100).toBeGreaterThanOrEqual(70 * budgetOf(input));
      }),
      { numRuns: 500 },
    );
  });

  it('builds a contiguous fallback chain from available providers only', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        const chain = plan.fallback_chain;
        expect(chain.map((step) => step.level)).toEqual(chain.map((_, index) => index + 1));
        expect(chain.map((step) => step.fallback_to)).toEqual(chain.map((_, index) => (index + 1 < chain.length ? index + 2 : null)));
        for (const step of chain) expect(input.providers ?? SEARCH_PROVIDERS).toContain(step.source);
        expect(chain.length > 0).toBe(plan.search_order.includes('web'));
        expect(chain.some((step) => step.source === 'local_cache')).toBe(chain.length > 0 && input.available_sources.includes('local_file') && (input.providers ?? ['local_cache']).includes('local_cache'));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps counter-search consistent: switch, trigger, source and hints agree', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        expect(plan.counter_trigger !== null).toBe(plan.counter_search_enabled);
        if (plan.search_order.includes('counter')) expect(plan.counter_search_enabled).toBe(true);
        const subject = plan.primary_subject;
        const searchesCriticism = plan.selected_sources.some((entry) => entry.search_hints.includes(`${subject} criticism`));
        expect(searchesCriticism).toBe(plan.counter_search_enabled);
        if (input.need_counter_evidence) expect(plan.counter_search_enabled).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('has a well-formed, seed-stable task id and a stop rule within the budget', () => {
    fc.assert(
      fc.property(routeInput, (input) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        expect(plan.task_id).toMatch(TASK_ID_PATTERN);
        expect(routeSources(input, { taskIdSeed: 'property' })).toEqual(plan);
        expect(routeSources(input).task_id).toMatch(TASK_ID_PATTERN);
        expect(plan.stop_rule.max_rounds).toBeLessThanOrEqual(budgetOf(input));
      }),
      { numRuns: 300 },
    );
  });

  it('does not depend on the order available_sources and providers are listed in', () => {
    fc.assert(
      fc.property(routeInput, fc.boolean(), (input, reverseProviders) => {
        const plan = routeOrNull(input);
        if (plan === null) return;
        const shuffled = {
          ...input,
          available_sources: [...input.available_sources].reverse(),
          ...(input.providers !== undefined && reverseProviders ? { providers: [...input.providers].reverse() } : {}),
        };
        expect(routeSources(shuffled, { taskIdSeed: 'property' })).toEqual(plan);
      }),
      { numRuns: 300 },
    );
  });
});
