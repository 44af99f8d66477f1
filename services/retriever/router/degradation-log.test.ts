import { describe, expect, it } from 'vitest';
import { codeOf } from '../../../test/support/error-code.ts';
import { recordDegradation, type DegradationRecord } from './degradation-log.ts';
import { nextFallback } from './fallback-chain.ts';
import { routeSources } from './route-sources.ts';

const plan = routeSources(
  { task_type: 'breaking_news', primary_subject: 'CVE-2026-0001', goal_mode: 'investigate', freshness_required: 'high', available_sources: ['web', 'local_file'], need_counter_evidence: true },
  { taskIdSeed: 'degradation' },
);

describe('recordDegradation', () => {
  it('appends events in order and leaves the given plan untouched', () => {
    const first = recordDegradation(plan, { from: 'tavily', to: 'bailian', trigger: 'quota_exhausted', at: '2026-11-30T12:00:00Z' });
    const second = recordDegradation(first, { from: 'bailian', to: 'brave', trigger: 'timeout_30s', at: '2026-11-30T12:00:31Z', detail: 'no answer in 30 s' });
    expect(plan.degradation_log).toEqual([]);
    expect(first.degradation_log).toHaveLength(1);
    expect(second.degradation_log).toEqual([
      { from: 'tavily', to: 'bailian', trigger: 'quota_exhausted', at: '2026-11-30T12:00:00Z', detail: null },
      { from: 'bailian', to: 'brave', trigger: 'timeout_30s', at: '2026-11-30T12:00:31Z', detail: 'no answer in 30 s' },
    ]);
    expect(second.fallback_chain).toEqual(plan.fallback_chain);
  });

  it('records the walk nextFallback takes down to the end of the chain', () => {
    let walked = plan;
    let current: ReturnType<typeof nextFallback> = plan.fallback_chain[0]?.source ?? null;
    const triggers = ['empty_results', 'api_error', 'gfw_blocked', 'timeout_30s', 'empty_results'] as const;
    for (const trigger of triggers) {
      if (current === null) break;
      const next = nextFallback(walked, current, trigger);
      walked = recordDegradation(walked, { from: current, to: next, trigger, at: '2026-11-30T12:00:00Z' });
      current = next;
    }
    expect(walked.degradation_log.map((event) => `${event.from}>${event.to}`)).toEqual([
      'tavily>bailian',
      'bailian>brave',
      'brave>document_fetch',
      'document_fetch>local_cache',
      'local_cache>null',
    ]);
  });

  it.each([
    ['a provider outside the chain', { from: 'exa', to: 'brave', trigger: 'api_error', at: '2026-11-30T12:00:00Z' }],
    ['a target outside the chain', { from: 'tavily', to: 'exa', trigger: 'api_error', at: '2026-11-30T12:00:00Z' }],
    ['a time that is not ISO 8601', { from: 'tavily', to: 'bailian', trigger: 'quota_exhausted', at: 'yesterday' }],
    ['an unknown trigger', { from: 'tavily', to: 'bailian', trigger: 'rate_limited', at: '2026-11-30T12:00:00Z' }],
  ] as Array<[string, DegradationRecord]>)('rejects %s', (_name, record) => {
    expect(codeOf(() => recordDegradation(plan, record))).toBe('INVALID_INPUT');
  });
});
