/**
 * Rule 5: when the search stops. Conditions are spec 004's, verbatim. Spec fixes max_rounds only
 * for the default ("≤ 3 轮"); we use 3 everywhere except deep research, which must cover every
 * source type twice and may take 5. A round spends at least one search, so max_rounds never
 * exceeds the budget. The entity and internal-knowledge rules talk about graph and local hits;
 * when the plan has no such source they cannot fire and the default rule applies.
 */
import type { RouteInput, SourceType } from './route-input.ts';
import { isLocalSource } from './source-combinations.ts';

export const STOP_CONDITIONS = {
  breaking_news: '找到3个独立权威信源确认同一事实后停止',
  deep_research: '每类来源至少覆盖2次，或找到10条高质量结果',
  entity_analysis: '主实体的关系网络 ≥ 5 个节点后停止 graph 搜索',
  internal_knowledge: '本地命中 ≥ 5 条相关文档后停止',
  default: '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果',
} as const;

type Scenario = keyof typeof STOP_CONDITIONS;

const MAX_ROUNDS: Record<Scenario, number> = {
  breaking_news: 3,
  deep_research: 5,
  entity_analysis: 3,
  internal_knowledge: 3,
  default: 3,
};

export interface StopRule {
  condition: string;
  max_rounds: number;
}

function scenario(taskType: RouteInput['task_type'], selected: readonly SourceType[]): Scenario {
  switch (taskType) {
    case 'breaking_news':
    case 'deep_research':
      return taskType;
    case 'entity_analysis':
      return selected.includes('graph') ? taskType : 'default';
    case 'internal_knowledge':
      return selected.some(isLocalSource) ? taskType : 'default';
    case 'tech_evaluation':
      return 'default';
  }
}

export function stopRuleFor(input: Pick<RouteInput, 'task_type' | 'budget_limit'>, selected: readonly SourceType[]): StopRule {
  const chosen = scenario(input.task_type, selected);
  return { condition: STOP_CONDITIONS[chosen], max_rounds: Math.min(MAX_ROUNDS[chosen], input.budget_limit) };
}
