/**
 * Rule 6 "每次降级事件记录到 degradation_log[]": the retriever records each fallback step it takes.
 * Pure: the plan given is left untouched and a new plan comes back.
 */
import { SkryaError } from '../../../runtime/errors.ts';
import type { SearchProvider } from './route-input.ts';
import { degradationEventSchema, type FallbackTrigger, type RoutePlan } from './route-plan.ts';

export interface DegradationRecord {
  from: SearchProvider;
  to: SearchProvider | null;
  trigger: FallbackTrigger;
  /** ISO 8601 time of the failure, passed in so replays stay deterministic. */
  at: string;
  detail?: string | null;
}

export function recordDegradation(plan: RoutePlan, record: DegradationRecord): RoutePlan {
  const chain = plan.fallback_chain.map((step) => step.source);
  const unknown = [record.from, record.to].filter((provider): provider is SearchProvider => provider !== null && !chain.includes(provider));
  if (unknown.length > 0) {
    throw new SkryaError('INVALID_INPUT', `degradation ${record.from} → ${record.to ?? 'none'} names ${unknown.join(', ')}, which is not in the fallback chain (${chain.join(', ') || 'empty'})`, {
      details: { unknown },
    });
  }
  const parsed = degradationEventSchema.safeParse({ ...record, detail: record.detail ?? null });
  if (!parsed.success) {
    throw new SkryaError('INVALID_INPUT', `degradation event is invalid: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`);
  }
  return { ...plan, degradation_log: [...plan.degradation_log, parsed.data] };
}
