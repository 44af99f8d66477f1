/**
 * Pagination within the plan's budget. The router's plan allows a number of web searches; every
 * planned call spends one. Searches the budget allows beyond that become further result pages of
 * the skills that can read them (Brave's `offset`), handed to the calls in plan order, at most
 * MAX_PAGES_PER_CALL pages a call. A page is one more request on the key, so the searches a run
 * performs never exceed the budget; a skill stops early when the provider has no more results.
 */
import { sourceOf } from './enforce-plan.ts';
import type { PlannedCall } from './plan-calls.ts';
import type { RoutePlan } from './router/route-plan.ts';

/** Skills that take `pages`. */
export const PAGED_SKILLS: ReadonlySet<string> = new Set(['brave_web_search', 'brave_news_search']);
export const MAX_PAGES_PER_CALL = 3;

export function withPages(calls: readonly PlannedCall[], plan: Pick<RoutePlan, 'budget_allocation'>): PlannedCall[] {
  const webCalls = calls.filter((call) => sourceOf(call) === 'web').length;
  let leftover = (plan.budget_allocation.web ?? 0) - webCalls;
  return calls.map((call) => {
    if (leftover <= 0 || sourceOf(call) !== 'web' || !call.chain.some((skill) => PAGED_SKILLS.has(skill))) return call;
    const extra = Math.min(MAX_PAGES_PER_CALL - 1, leftover);
    leftover -= extra;
    return { ...call, inputFor: (skill: string) => (PAGED_SKILLS.has(skill) ? { ...call.inputFor(skill), pages: 1 + extra } : call.inputFor(skill)) };
  });
}
