import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/support/error-code.ts';
import type { RouteInputDraft, SourceType } from './route-input.ts';
import { routePlanSchema, type RoutePlan } from './route-plan.ts';
import { routeSources } from './route-sources.ts';

const ALL: SourceType[] = ['web', 'local_file', 'vector', 'graph', 'counter'];

function plan(patch: Partial<RouteInputDraft>): RoutePlan {
  const input: RouteInputDraft = {
    task_type: 'tech_evaluation',
    primary_subject: 'Kafka 4',
    goal_mode: 'analyze',
    freshness_required: 'medium',
    available_sources: ALL,
    need_counter_evidence: false,
    ...patch,
  };
  return routePlanSchema.parse(routeSources(input, { taskIdSeed: 'test' }));
}

function perSource(result: RoutePlan): Record<string, number> {
  const { total_budget: _total, ...sources } = result.budget_allocation;
  return sources;
}

function hintsOf(result: RoutePlan, source: SourceType): string[] {
  return result.selected_sources.find((entry) => entry.source === source)?.search_hints ?? [];
}

describe('routeSources: spec 004 output example', () => {
  // The example plan: budget 10 split web 5 / counter 2 / graph 2 / local_file 1, five-level chain.
  const example = plan({
    task_type: 'deep_research',
    goal_mode: 'investigate',
    freshness_required: 'medium',
    available_sources: ['web', 'counter', 'graph', 'local_file'],
    need_counter_evidence: true,
  });

  it('allocates web 5 / counter 2 / graph 2 / local_file 1 out of the default 10', () => {
    expect(example.budget_allocation).toEqual({ total_budget: 10, web: 5, graph: 2, local_file: 1, counter: 2 });
  });

  it('has the example fallback chain shape and an empty degradation log', () => {
    expect(example.fallback_chain.map(({ level, trigger_fallback, fallback_to }) => [level, trigger_fallback, fallback_to])).toEqual([
      [1, 'quota_exhausted | timeout_30s | empty_results', 2],
      [2, 'api_error | timeout_30s', 3],
      [3, 'empty_results | gfw_blocked', 4],
      [4, null, 5],
      [5, null, null],
    ]);
    expect(example.degradation_log).toEqual([]);
  });

  it('fills every field of the fixed structure', () => {
    expect(example.task_id).toMatch(/^SR-[0-9a-f]{8}$/);
    expect(example.task_type).toBe('deep_research');
    expect(example.primary_subject).toBe('Kafka 4');
    expect(example.search_order).toEqual(['web', 'graph', 'local_file', 'counter']);
    expect(example.selected_sources.map((entry) => entry.priority)).toEqual([1, 2, 3, 4]);
    expect(example.counter_search_enabled).toBe(true);
    expect(example.counter_trigger).not.toBeNull();
    expect(example.stop_rule).toEqual({ condition: '每类来源至少覆盖2次，或找到10条高质量结果', max_rounds: 5 });
  });

  it('is the same plan, id included, for the same input and seed', () => {
    expect(plan({ task_type: 'deep_research', goal_mode: 'investigate', available_sources: ['local_file', 'graph', 'counter', 'web'], need_counter_evidence: true })).toEqual(example);
  });
});

describe('routeSources: rule 1 (freshness → priority)', () => {
  it.each([
    ['high: web first with ≥70 %', 'high', 'entity_analysis', ['web', 'graph', 'vector'], { web: 7, graph: 2, vector: 1 }],
    ['medium: web mixed with vector', 'medium', 'entity_analysis', ['graph', 'web', 'vector'], { graph: 3, web: 5, vector: 2 }],
    ['low: local first, web supplements', 'low', 'entity_analysis', ['vector', 'graph', 'web'], { vector: 4, graph: 4, web: 2 }],
    ['high on internal knowledge still puts web first', 'high', 'internal_knowledge', ['web', 'vector', 'local_file'], { web: 7, vector: 2, local_file: 1 }],
  ] as const)('%s', (_name, freshness_required, task_type, order, budgets) => {
    const result = plan({ freshness_required, task_type });
    expect(result.search_order).toEqual(order);
    expect(perSource(result)).toEqual(budgets);
  });
});

describe('routeSources: rule 2 (task type → combination)', () => {
  it.each([
    ['breaking_news', ['web', 'counter']],
    ['deep_research', ['web', 'graph', 'counter']],
    ['entity_analysis', ['web', 'graph']],
    ['internal_knowledge', ['web']],
    ['tech_evaluation', ['web', 'counter']],
  ] as const)('%s with high freshness and no local sources', (task_type, order) => {
    expect(plan({ task_type, freshness_required: 'high', available_sources: ['web', 'graph', 'counter'] }).search_order).toEqual(order);
  });

  it.each([
    ['breaking_news', ['web', 'vector', 'counter']],
    ['deep_research', ['vector', 'web', 'graph', 'counter']],
    ['entity_analysis', ['graph', 'web', 'vector']],
    ['internal_knowledge', ['vector', 'local_file', 'web']],
    ['tech_evaluation', ['web', 'vector', 'counter']],
  ] as const)('%s with every source and medium freshness', (task_type, order) => {
    expect(plan({ task_type }).search_order).toEqual(order);
  });
});

describe('routeSources: rule 3 (local material first)', () => {
  const gaps = ['KIP-896 impact'];
  const withMaterial = plan({ task_type: 'tech_evaluation', local_material: true, information_gaps: gaps });
  const without = plan({ task_type: 'tech_evaluation', information_gaps: gaps });

  it('searches every local source before web', () => {
    expect(withMaterial.search_order).toEqual(['vector', 'local_file', 'web', 'counter']);
    expect(without.search_order).toEqual(['web', 'vector', 'counter']);
  });

  it('sends only the gaps to web and spends less of the budget there', () => {
    expect(hintsOf(withMaterial, 'web')).toEqual(['Kafka 4 KIP-896 impact']);
    expect(withMaterial.budget_allocation.web).toBeLessThan(without.budget_allocation.web ?? 0);
  });

  it('does nothing without a local source to read the material from', () => {
    const result = plan({ task_type: 'tech_evaluation', local_material: true, available_sources: ['web', 'counter'] });
    expect(result.search_order).toEqual(['web', 'counter']);
  });
});

describe('routeSources: rule 4 (counter-search)', () => {
  it.each([
    ['explicit request', { need_counter_evidence: true }, true],
    ['goal evaluate', { goal_mode: 'evaluate' }, true],
    ['goal investigate', { goal_mode: 'investigate' }, true],
    ['goal compare', { goal_mode: 'compare' }, true],
    ['internal knowledge, pure retrieval', { task_type: 'internal_knowledge' }, false],
    ['tiny budget without a request', { task_type: 'breaking_news', budget_limit: 3 }, false],
    ['entity analysis without a trigger', { task_type: 'entity_analysis' }, false],
  ] as Array<[string, Partial<RouteInputDraft>, boolean]>)('%s', (_name, patch, enabled) => {
    const result = plan({ task_type: 'entity_analysis', ...patch });
    expect(result.counter_search_enabled).toBe(enabled);
    expect(result.counter_trigger === null).toBe(!enabled);
    expect(result.search_order.includes('counter')).toBe(enabled);
  });

  it('without counter available, web carries the counter hints and counter is not invented', () => {
    const result = plan({ task_type: 'breaking_news', freshness_required: 'high', available_sources: ['web'], need_counter_evidence: true });
    expect(result.counter_search_enabled).toBe(true);
    expect(result.search_order).toEqual(['web']);
    expect(hintsOf(result, 'web')).toEqual(expect.arrayContaining(['Kafka 4 criticism', 'Kafka 4 问题 争议']));
  });

  it('when counter gets no search within the budget, web carries it', () => {
    const result = plan({ task_type: 'breaking_news', freshness_required: 'high', budget_limit: 2, need_counter_evidence: true });
    expect(result.search_order).toEqual(['web']);
    expect(result.counter_search_enabled).toBe(true);
    expect(hintsOf(result, 'web')).toContain('Kafka 4 criticism');
  });

  it('without web or counter, the first source carries it', () => {
    const result = plan({ task_type: 'internal_knowledge', goal_mode: 'evaluate', available_sources: ['vector', 'local_file'] });
    expect(result.search_order).toEqual(['vector', 'local_file']);
    expect(hintsOf(result, 'vector')).toContain('Kafka 4 criticism');
    expect(hintsOf(result, 'local_file')).not.toContain('Kafka 4 criticism');
  });

  it('when off, no source searches for counter-evidence', () => {
    const result = plan({ task_type: 'entity_analysis' });
    expect(result.selected_sources.flatMap((entry) => entry.search_hints)).not.toContain('Kafka 4 criticism');
  });
});

describe('routeSources: rule 5 (stop rule)', () => {
  it.each([
    ['breaking_news', ALL, '找到3个独立权威信源确认同一事实后停止'],
    ['deep_research', ALL, '每类来源至少覆盖2次，或找到10条高质量结果'],
    ['entity_analysis', ALL, '主实体的关系网络 ≥ 5 个节点后停止 graph 搜索'],
    ['entity_analysis', ['web', 'vector'], '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果'],
    ['internal_knowledge', ALL, '本地命中 ≥ 5 条相关文档后停止'],
    ['tech_evaluation', ALL, '总搜索轮数 ≤ 3 轮，或找到3条以上高置信度结果'],
  ] as const)('%s with %j', (task_type, available_sources, condition) => {
    expect(plan({ task_type, available_sources: [...available_sources] }).stop_rule.condition).toBe(condition);
  });
});

describe('routeSources: rule 6 (fallback chain)', () => {
  it('starts web at the highest available level and names it in the first source', () => {
    const result = plan({ task_type: 'breaking_news', freshness_required: 'high', providers: ['brave', 'exa', 'local_cache'] });
    expect(result.fallback_chain.map((step) => [step.level, step.source, step.fallback_to])).toEqual([
      [1, 'exa', 2],
      [2, 'brave', 3],
      [3, 'local_cache', null],
    ]);
    expect(result.selected_sources[0]?.source).toBe('web');
    expect(result.selected_sources[0]?.rationale).toContain('exa');
  });

  it('drops web when no web provider exists, and the chain with it', () => {
    const result = plan({ task_type: 'deep_research', providers: ['local_cache'] });
    expect(result.search_order).not.toContain('web');
    expect(result.fallback_chain).toEqual([]);
  });

  it('refuses a plan with nothing but counter left', () => {
    expect(codeOf(() => routeSources({ task_type: 'breaking_news', primary_subject: 'x', goal_mode: 'analyze', freshness_required: 'high', available_sources: ['web', 'counter'], need_counter_evidence: true, providers: ['local_cache'] }))).toBe('INVALID_INPUT');
  });
});

describe('routeSources: input errors', () => {
  it.each([
    ['unknown task_type', { task_type: 'news' }],
    ['unknown source', { available_sources: ['web', 'rss'] }],
    ['budget 0', { budget_limit: 0 }],
    ['missing subject', { primary_subject: undefined }],
  ])('%s → INVALID_INPUT', (_name, patch) => {
    const raw = { task_type: 'tech_evaluation', primary_subject: 'x', goal_mode: 'analyze', freshness_required: 'low', available_sources: ['web'], need_counter_evidence: false, ...patch };
    expect(codeOf(() => routeSources(raw))).toBe('INVALID_INPUT');
  });
});
