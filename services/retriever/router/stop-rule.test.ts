import { describe, expect, it } from 'vitest';
import type { SourceType, TaskType } from './route-input.ts';
import { stopRuleFor } from './stop-rule.ts';

type Row = [string, TaskType, SourceType[], number, string, number];

// Rule 5: one condition per scenario, verbatim from spec 004.
const rows: Row[] = [
  ['高时效新闻', 'breaking_news', ['web', 'counter'], 10, '找到3个独立权威信源确认同一事实后停止', 3],
  ['深度研究', 'deep_research', ['vector', 'web', 'graph', 'counter'], 10, '每类来源至少覆盖2次，或找到10条高质量结果', 5],
  ['实体分析 with graph', 'entity_analysis', ['graph', 'web'], 10, '主实体的关系网络 ≥ 5 个节点后停止 graph 搜索', 3],
  ['实体分析 without graph falls back to the default', 'entity_analysis', ['web', 'vector'], 10, '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果', 3],
  ['内部知识 with a local source', 'internal_knowledge', ['vector', 'local_file'], 10, '本地命中 ≥ 5 条相关文档后停止', 3],
  ['内部知识 on web only falls back to the default', 'internal_knowledge', ['web'], 10, '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果', 3],
  ['默认 (tech evaluation)', 'tech_evaluation', ['web', 'vector', 'counter'], 10, '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果', 3],
  ['rounds never exceed the budget', 'deep_research', ['vector', 'web'], 2, '每类来源至少覆盖2次，或找到10条高质量结果', 2],
];

describe('stopRuleFor (rule 5)', () => {
  it.each(rows)('%s', (_name, task_type, selected, budget_limit, condition, maxRounds) => {
    expect(stopRuleFor({ task_type, budget_limit }, selected)).toEqual({ condition, max_rounds: maxRounds });
  });
});
