/**
 * Rule 6: the provider ladder behind the web source, and how the retriever walks it.
 *
 * Spec 004's P1..P5 (tavily_search → bailian_web_search → web_search (Brave) → web_fetch_direct →
 * local_cache) become our providers in the same order, exa beside bailian. Providers missing at
 * run time are left out and the levels renumbered 1..n, so the chain's level 1 is the provider the
 * web source actually starts with. local_cache reads local files, so it only appears when
 * local_file is available. Without web among the selected sources there is nothing to fall back
 * from and the chain is empty.
 */
import { SkryaError } from '../../../runtime/errors.ts';
import type { SearchProvider, SourceType } from './route-input.ts';
import type { FallbackStep, FallbackTrigger, RoutePlan } from './route-plan.ts';

interface Rung {
  provider: SearchProvider;
  /** The source type whose availability the provider depends on. */
  servesAs: SourceType;
  /** Null = any failure moves on (spec: P4 → P5 "全部失败"). */
  triggers: readonly FallbackTrigger[] | null;
}

export const PROVIDER_LADDER: readonly Rung[] = [
  { provider: 'tavily', servesAs: 'web', triggers: ['quota_exhausted', 'timeout_30s', 'empty_results'] },
  { provider: 'bailian', servesAs: 'web', triggers: ['api_error', 'timeout_30s'] },
  { provider: 'exa', servesAs: 'web', triggers: ['api_error', 'timeout_30s'] },
  { provider: 'brave', servesAs: 'web', triggers: ['empty_results', 'gfw_blocked'] },
  { provider: 'document_fetch', servesAs: 'web', triggers: null },
  { provider: 'local_cache', servesAs: 'local_file', triggers: null },
];

/** True when at least one available provider can run a web search. */
export function hasWebProvider(providers: readonly SearchProvider[]): boolean {
  return PROVIDER_LADDER.some((rung) => rung.servesAs === 'web' && providers.includes(rung.provider));
}

export function buildFallbackChain(options: {
  providers: readonly SearchProvider[];
  webSelected: boolean;
  available: readonly SourceType[];
}): FallbackStep[] {
  if (!options.webSelected) return [];
  const rungs = PROVIDER_LADDER.filter((rung) => options.providers.includes(rung.provider) && options.available.includes(rung.servesAs));
  return rungs.map((rung, index) => ({
    level: index + 1,
    source: rung.provider,
    trigger_fallback: rung.triggers === null ? null : rung.triggers.join(' | '),
    fallback_to: index + 1 < rungs.length ? index + 2 : null,
  }));
}

/**
 * The provider to switch to after `currentSource` failed with `trigger`, or null when this
 * failure does not move down the chain (the trigger is not one of that rung's) or the chain ends.
 */
export function nextFallback(plan: Pick<RoutePlan, 'fallback_chain'>, currentSource: SearchProvider, trigger: FallbackTrigger): SearchProvider | null {
  const step = plan.fallback_chain.find((entry) => entry.source === currentSource);
  if (step === undefined) {
    throw new SkryaError('INVALID_INPUT', `provider ${currentSource} is not in this plan's fallback chain (${plan.fallback_chain.map((entry) => entry.source).join(', ') || 'empty'})`, {
      details: { currentSource },
    });
  }
  const moves = step.trigger_fallback === null || step.trigger_fallback.split(' | ').includes(trigger);
  if (!moves || step.fallback_to === null) return null;
  return plan.fallback_chain.find((entry) => entry.level === step.fallback_to)?.source ?? null;
}
