/**
 * Rule 4: whether the plan searches for counter-evidence, and why.
 *
 * Reading of the spec: its second trigger says "task_type = evaluate 或 investigate", but those
 * are goal_mode values, so we read it as goal_mode. The three "必须开启" triggers are mandatory and
 * win over the two "可以跳过" skips. Rule 2's recommended combinations for breaking_news,
 * deep_research and tech_evaluation include counter ("必须反证" for news), so those task types
 * turn counter-search on as well — that recommendation is what the skips may switch off.
 */
import type { RouteInput } from './route-input.ts';
import { TASK_COMBINATIONS } from './source-combinations.ts';

export const TINY_BUDGET = 3;

export type CounterReason =
  | 'explicit_request'
  | 'goal_evaluate_or_investigate'
  | 'goal_compare'
  | 'task_combination'
  | 'skip_pure_internal_retrieval'
  | 'skip_tiny_budget'
  | 'no_trigger';

export interface CounterDecision {
  enabled: boolean;
  reason: CounterReason;
  /** Why counter-search is on (spec's `counter_trigger`), or null when it is off. */
  trigger: string | null;
}

type Input = Pick<RouteInput, 'task_type' | 'goal_mode' | 'need_counter_evidence' | 'budget_limit'>;

const on = (reason: CounterReason, trigger: string): CounterDecision => ({ enabled: true, reason, trigger });
const off = (reason: CounterReason): CounterDecision => ({ enabled: false, reason, trigger: null });

export function decideCounterSearch(input: Input): CounterDecision {
  if (input.need_counter_evidence) return on('explicit_request', 'rule 4: need_counter_evidence = true（显式要求）');
  if (input.goal_mode === 'evaluate' || input.goal_mode === 'investigate') {
    return on('goal_evaluate_or_investigate', `rule 4: goal_mode = ${input.goal_mode}（隐式需要）`);
  }
  if (input.goal_mode === 'compare') return on('goal_compare', 'rule 4: goal_mode = compare（对比场景天然需要反面证据）');
  // Only goal_mode = analyze without an explicit request reaches the skips.
  if (input.task_type === 'internal_knowledge') return off('skip_pure_internal_retrieval');
  if (input.budget_limit <= TINY_BUDGET) return off('skip_tiny_budget');
  if (TASK_COMBINATIONS[input.task_type].includes('counter')) {
    return on('task_combination', `rule 2: ${input.task_type} 推荐组合包含 counter`);
  }
  return off('no_trigger');
}
