import { describe, expect, it } from 'vitest';
import { decideCounterSearch, type CounterReason } from './counter-search.ts';
import type { GoalMode, TaskType } from './route-input.ts';

type Row = [string, TaskType, GoalMode, boolean, number, boolean, CounterReason];

// Rule 4: the three mandatory triggers, the two skips, and rule 2's counter recommendation.
const rows: Row[] = [
  ['explicit request', 'entity_analysis', 'analyze', true, 10, true, 'explicit_request'],
  ['explicit request beats the tiny-budget skip', 'entity_analysis', 'analyze', true, 1, true, 'explicit_request'],
  ['explicit request beats the internal skip', 'internal_knowledge', 'analyze', true, 10, true, 'explicit_request'],
  ['goal evaluate (spec writes task_type = evaluate)', 'entity_analysis', 'evaluate', false, 10, true, 'goal_evaluate_or_investigate'],
  ['goal investigate', 'internal_knowledge', 'investigate', false, 10, true, 'goal_evaluate_or_investigate'],
  ['mandatory goal beats the tiny-budget skip', 'breaking_news', 'investigate', false, 2, true, 'goal_evaluate_or_investigate'],
  ['goal compare', 'entity_analysis', 'compare', false, 10, true, 'goal_compare'],
  ['goal compare on a budget of 3', 'tech_evaluation', 'compare', false, 3, true, 'goal_compare'],
  ['internal knowledge, pure retrieval', 'internal_knowledge', 'analyze', false, 10, false, 'skip_pure_internal_retrieval'],
  ['no request and budget 3', 'breaking_news', 'analyze', false, 3, false, 'skip_tiny_budget'],
  ['no request and budget 1', 'deep_research', 'analyze', false, 1, false, 'skip_tiny_budget'],
  ['breaking news recommends counter (rule 2)', 'breaking_news', 'analyze', false, 4, true, 'task_combination'],
  ['deep research recommends counter (rule 2)', 'deep_research', 'analyze', false, 10, true, 'task_combination'],
  ['tech evaluation recommends counter (rule 2)', 'tech_evaluation', 'analyze', false, 10, true, 'task_combination'],
  ['entity analysis without a trigger', 'entity_analysis', 'analyze', false, 10, false, 'no_trigger'],
];

describe('decideCounterSearch (rule 4)', () => {
  it.each(rows)('%s', (_name, task_type, goal_mode, need_counter_evidence, budget_limit, enabled, reason) => {
    const decision = decideCounterSearch({ task_type, goal_mode, need_counter_evidence, budget_limit });
    expect(decision.enabled).toBe(enabled);
    expect(decision.reason).toBe(reason);
    expect(decision.trigger === null).toBe(!enabled);
  });
});
