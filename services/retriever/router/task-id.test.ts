import { describe, expect, it } from 'vitest';
import { parseRouteInput } from './route-input.ts';
import { TASK_ID_PATTERN } from './route-plan.ts';
import { routeTaskId } from './task-id.ts';

const raw = { task_type: 'deep_research', primary_subject: 'Apicurio', goal_mode: 'analyze', freshness_required: 'low', available_sources: ['vector', 'web'], need_counter_evidence: false };

describe('routeTaskId', () => {
  it('is the first 8 hex digits of a UUID without a seed', () => {
    expect(routeTaskId(parseRouteInput(raw), undefined, () => 'ABCDEF01-2345-4678-9abc-def012345678')).toBe('SR-abcdef01');
  });

  it('is random without a seed', () => {
    const input = parseRouteInput(raw);
    const ids = new Set(Array.from({ length: 20 }, () => routeTaskId(input)));
    expect(ids.size).toBe(20);
    for (const id of ids) expect(id).toMatch(TASK_ID_PATTERN);
  });

  it.each([
    ['same seed, same input', 's', raw, 's', raw, true],
    ['key order and set order do not matter', 's', raw, 's', { ...raw, available_sources: ['web', 'vector'], need_counter_evidence: false, task_type: 'deep_research' }, true],
    ['defaults written out equal defaults left out', 's', raw, 's', { ...raw, budget_limit: 10, local_material: false }, true],
    ['another seed', 's', raw, 't', raw, false],
    ['another input', 's', raw, 's', { ...raw, primary_subject: 'Kafka' }, false],
    ['gap order matters (hints follow it)', 's', { ...raw, information_gaps: ['a', 'b'] }, 's', { ...raw, information_gaps: ['b', 'a'] }, false],
  ])('with a seed: %s', (_name, seedA, inputA, seedB, inputB, same) => {
    const a = routeTaskId(parseRouteInput(inputA), seedA);
    const b = routeTaskId(parseRouteInput(inputB), seedB);
    expect(a).toMatch(TASK_ID_PATTERN);
    expect(a === b).toBe(same);
  });
});
