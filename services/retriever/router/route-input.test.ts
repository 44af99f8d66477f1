import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { DEFAULT_BUDGET_LIMIT, DEFAULT_PROVIDERS, GOAL_MODES, ROUTE_FRESHNESS, SEARCH_PROVIDERS, SOURCE_TYPES, TASK_TYPES, parseRouteInput } from './route-input.ts';

const minimal = {
  task_type: 'tech_evaluation',
  primary_subject: 'Kafka 4',
  goal_mode: 'evaluate',
  freshness_required: 'medium',
  available_sources: ['web', 'vector'],
  need_counter_evidence: false,
};

function problemsOf(raw: unknown): Array<{ field: string; expected: string }> {
  try {
    parseRouteInput(raw);
  } catch (error) {
    if (isSkryaError(error) && error.code === 'INVALID_INPUT') return error.details.problems as Array<{ field: string; expected: string }>;
    throw error;
  }
  throw new Error('expected INVALID_INPUT');
}

describe('parseRouteInput', () => {
  it('fills the documented defaults', () => {
    const input = parseRouteInput(minimal);
    expect(input.budget_limit).toBe(DEFAULT_BUDGET_LIMIT);
    expect(input.information_gaps).toEqual([]);
    expect(input.preferred_domains).toEqual([]);
    expect(input.local_material).toBe(false);
    expect(input.providers).toEqual([...DEFAULT_PROVIDERS]);
  });

  it.each([
    ['available_sources are a set: order and repeats are dropped', { available_sources: ['vector', 'web', 'vector'] }, 'available_sources', ['web', 'vector']],
    ['providers are a set in ladder order', { providers: ['local_cache', 'brave', 'tavily', 'brave'] }, 'providers', ['tavily', 'brave', 'local_cache']],
    ['domains keep only the host', { preferred_domains: ['https://Kafka.Apache.org/docs', '*.confluent.io'] }, 'preferred_domains', ['kafka.apache.org', 'confluent.io']],
    ['subject and gaps are trimmed', { primary_subject: '  Kafka 4 ', information_gaps: [' KIP-896 '] }, 'information_gaps', ['KIP-896']],
  ] as const)('normalizes: %s', (_name, patch, field, expected) => {
    expect(parseRouteInput({ ...minimal, ...patch })[field]).toEqual(expected);
  });

  it.each([
    ['unknown task_type', { ...minimal, task_type: 'news' }, 'task_type', TASK_TYPES],
    ['missing task_type', { ...minimal, task_type: undefined }, 'task_type', TASK_TYPES],
    ['unknown goal_mode', { ...minimal, goal_mode: 'summarize' }, 'goal_mode', GOAL_MODES],
    ['unknown freshness', { ...minimal, freshness_required: 'pd' }, 'freshness_required', ROUTE_FRESHNESS],
    ['unknown source name', { ...minimal, available_sources: ['web', 'twitter'] }, 'available_sources', SOURCE_TYPES],
    ['only counter available', { ...minimal, available_sources: ['counter'] }, 'available_sources', SOURCE_TYPES],
    ['no sources', { ...minimal, available_sources: [] }, 'available_sources', SOURCE_TYPES],
    ['unknown provider', { ...minimal, providers: ['google'] }, 'providers', SEARCH_PROVIDERS],
    ['budget 0', { ...minimal, budget_limit: 0 }, 'budget_limit', ['positive integer']],
    ['negative budget', { ...minimal, budget_limit: -3 }, 'budget_limit', ['positive integer']],
    ['fractional budget', { ...minimal, budget_limit: 2.5 }, 'budget_limit', ['positive integer']],
    ['budget as text', { ...minimal, budget_limit: '10' }, 'budget_limit', ['positive integer']],
    ['empty subject', { ...minimal, primary_subject: '   ' }, 'primary_subject', ['non-empty string']],
    ['missing need_counter_evidence', { ...minimal, need_counter_evidence: undefined }, 'need_counter_evidence', ['true or false']],
    ['need_counter_evidence as text', { ...minimal, need_counter_evidence: 'yes' }, 'need_counter_evidence', ['true or false']],
    ['blank gap', { ...minimal, information_gaps: [''] }, 'information_gaps', ['non-empty strings']],
    ['not a domain', { ...minimal, preferred_domains: ['not a domain'] }, 'preferred_domains', ['domain names']],
    ['misspelt field', { ...minimal, budget: 5 }, 'budget', ['budget_limit']],
    ['not an object', ['web'], 'input', ['JSON object']],
  ])('rejects %s as INVALID_INPUT naming the field and what it accepts', (_name, raw, field, allowed) => {
    const problem = problemsOf(raw).find((entry) => entry.field === field);
    expect(problem).toBeDefined();
    for (const value of allowed) expect(problem?.expected).toContain(value);
  });

  it('reports every bad field at once', () => {
    expect(problemsOf({}).map((problem) => problem.field)).toEqual([
      'task_type',
      'primary_subject',
      'goal_mode',
      'freshness_required',
      'available_sources',
      'need_counter_evidence',
    ]);
  });
});
