import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../runtime/errors.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';
import { executeCalls, fallbackTrigger, mapWithLimit, type ExecutionReport, type SkillCaller } from './execute-calls.ts';
import type { PlannedCall } from './plan-calls.ts';
import type { SkillRunResult } from '../../domain/skills/run-skill.ts';

/** What the fake answers for one skill call. */
type Answer = { results: number } | { code: ErrorCode | undefined } | 'ok-empty';

const ticks = async (count: number) => {
  for (let index = 0; index < count; index += 1) await new Promise<void>((resolve) => setImmediate(resolve));
};

function resultsFor(skill: string, query: unknown, count: number): ProviderResult[] {
  return Array.from({ length: count }, (_unused, index) => ({
    url: `https://example.com/${skill}/${String(query)}/${index}`, title: `t${index}`, snippet: '', published_date: null, source: '', content: null, language: null,
  }));
}

function runResult(skill: string, input: Record<string, unknown>, answer: Answer): SkillRunResult {
  const raw = [{ skill, body: `${skill}:${String(input.query)}`, contentType: 'application/json', httpStatus: 200, url: null, fetchedAt: '2026-04-25T02:30:00.000Z' }];
  if (answer === 'ok-empty') return { status: 'ok', output: { results: [] }, raw, durationMs: 1 };
  if ('results' in answer) return { status: 'ok', output: { results: resultsFor(skill, input.query, answer.results) }, raw, durationMs: 1 };
  return { status: 'error', ...(answer.code ? { code: answer.code } : {}), message: `${skill} failed: ${answer.code ?? 'unknown'}`, raw: [], durationMs: 1 };
}

/**
 * A fake skill caller: `answers(skill, input)` decides the result; `delayTicks(callNumber)` how many
 * event-loop turns the call takes, so tests choose the completion order without timers.
 */
function fakeCaller(answers: (skill: string, input: Record<string, unknown>) => Answer, delayTicks: (callNumber: number) => number = () => 0) {
  const calls: Array<{ skill: string; input: Record<string, unknown> }> = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const callSkill: SkillCaller = async (skill, input) => {
    const callNumber = calls.length;
    calls.push({ skill, input });
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await ticks(delayTicks(callNumber));
    inFlight -= 1;
    return runResult(skill, input, answers(skill, input));
  };
  return { callSkill, calls, maxInFlight: () => maxInFlight };
}

function searchCall(query: string, chain: readonly string[], capability: PlannedCall['capability'] = 'web_search'): PlannedCall {
  return { capability, chain, subQuery: query, counterEvidence: false, inputFor: (skill) => ({ query, skill }) };
}

const signal = new AbortController().signal;
const CHAIN = ['tavily_search', 'brave_web_search', 'exa_search'];

async function execute(calls: PlannedCall[], callSkill: SkillCaller, concurrency = 4): Promise<ExecutionReport> {
  return executeCalls(calls, { callSkill, concurrency, signal });
}

describe('fallbackTrigger', () => {
  it.each([
    ['QUOTA_EXHAUSTED', 'quota_exhausted'],
    ['RATE_LIMITED', 'quota_exhausted'],
    ['ADAPTER_TIMEOUT', 'timeout'],
    ['EMPTY_RESULTS', 'empty_results'],
    ['NOT_CONFIGURED', 'not_connected'],
    ['AUTH_FAILED', 'api_error'],
    ['BAD_RESPONSE', 'api_error'],
    ['PROVIDER_UNAVAILABLE', 'api_error'],
    [undefined, 'api_error'],
  ] as const)('%s → %s', (code, trigger) => {
    expect(fallbackTrigger(code)).toBe(trigger);
  });
});

describe('executeCalls fallback', () => {
  it.each([
    ['QUOTA_EXHAUSTED', { code: 'QUOTA_EXHAUSTED' }, 'quota_exhausted', 'QUOTA_EXHAUSTED'],
    ['ADAPTER_TIMEOUT', { code: 'ADAPTER_TIMEOUT' }, 'timeout', 'ADAPTER_TIMEOUT'],
    ['EMPTY_RESULTS', { code: 'EMPTY_RESULTS' }, 'empty_results', 'EMPTY_RESULTS'],
    ['ok but empty', 'ok-empty', 'empty_results', 'EMPTY_RESULTS'],
    ['NOT_CONFIGURED', { code: 'NOT_CONFIGURED' }, 'not_connected', 'NOT_CONFIGURED'],
    ['AUTH_FAILED', { code: 'AUTH_FAILED' }, 'api_error', 'AUTH_FAILED'],
    ['an error without a code', { code: undefined }, 'api_error', null],
  ] as const)('falls back on %s and logs the step', async (_name, firstAnswer, trigger, code) => {
    const fake = fakeCaller((skill) => (skill === 'tavily_search' ? firstAnswer : { results: 2 }));
    const report = await execute([searchCall('q1', CHAIN)], fake.callSkill);
    expect(fake.calls.map((call) => call.skill)).toEqual(['tavily_search', 'brave_web_search']);
    expect(report.outcomes[0]).toMatchObject({ provider: 'brave_web_search', raw: [{ skill: 'brave_web_search' }] });
    expect(report.degradationLog).toEqual([{ capability: 'web_search', sub_query: 'q1', from: 'tavily_search', to: 'brave_web_search', trigger, code, detail: expect.any(String) }]);
  });

  it('walks the whole chain and records every step when nothing answers', async () => {
    const answers: Record<string, Answer> = { tavily_search: { code: 'QUOTA_EXHAUSTED' }, brave_web_search: { code: 'NOT_CONFIGURED' }, exa_search: 'ok-empty' };
    const report = await execute([searchCall('q1', CHAIN)], fakeCaller((skill) => answers[skill]!).callSkill);
    expect(report.outcomes[0]).toMatchObject({ provider: null, raw: [] });
    expect(report.degradationLog.map((step) => [step.from, step.to, step.trigger])).toEqual([
      ['tavily_search', 'brave_web_search', 'quota_exhausted'],
      ['brave_web_search', 'exa_search', 'not_connected'],
      ['exa_search', null, 'empty_results'],
    ]);
    expect(report.providerStatus.map((status) => [status.provider, status.status, status.code, status.calls, status.results])).toEqual([
      ['brave_web_search', 'not_connected', 'NOT_CONFIGURED', 1, 0],
      ['exa_search', 'ok', null, 1, 0],
      ['tavily_search', 'error', 'QUOTA_EXHAUSTED', 1, 0],
    ]);
    expect(report.providerStatus[0]!.message).toContain('cannot be connected automatically');
  });

  it('stops at the first provider with results and logs nothing', async () => {
    const fake = fakeCaller(() => ({ results: 3 }));
    const report = await execute([searchCall('q1', CHAIN)], fake.callSkill);
    expect(fake.calls).toHaveLength(1);
    expect(report.degradationLog).toEqual([]);
    expect(report.providerStatus).toEqual([{ provider: 'tavily_search', capability: 'web_search', status: 'ok', code: null, message: null, calls: 1, results: 3 }]);
  });

  it('reports a capability with no provider as not connected, "cannot be connected automatically"', async () => {
    const fake = fakeCaller(() => ({ results: 1 }));
    const report = await execute([searchCall('q1', [], 'social_search'), searchCall('q2', [], 'social_search'), searchCall('q1', CHAIN)], fake.callSkill);
    expect(fake.calls.map((call) => call.skill)).toEqual(['tavily_search']);
    expect(report.outcomes.map((outcome) => outcome.provider)).toEqual([null, null, 'tavily_search']);
    const social = report.providerStatus.filter((status) => status.capability === 'social_search');
    expect(social).toEqual([{ provider: 'social_search', capability: 'social_search', status: 'not_connected', code: 'NOT_CONFIGURED', message: expect.stringContaining('cannot be connected automatically'), calls: 0, results: 0 }]);
  });

  it('does not walk on once the run is aborted', async () => {
    const controller = new AbortController();
    const fake = fakeCaller((skill) => {
      controller.abort();
      return skill === 'tavily_search' ? { code: 'ADAPTER_TIMEOUT' } : { results: 1 };
    });
    const report = await executeCalls([searchCall('q1', CHAIN)], { callSkill: fake.callSkill, concurrency: 1, signal: controller.signal });
    expect(fake.calls.map((call) => call.skill)).toEqual(['tavily_search']);
    expect(report.degradationLog.map((step) => step.trigger)).toEqual(['timeout']);
    expect(report.outcomes[0]!.provider).toBeNull();
  });
});

describe('executeCalls determinism', () => {
  // The same provider fails differently on different calls; brave answers some and not others.
  const answers = (skill: string, input: Record<string, unknown>): Answer => {
    const query = String(input.query);
    if (skill === 'tavily_search') return query === 'q1' ? { code: 'QUOTA_EXHAUSTED' } : query === 'q2' ? { code: 'ADAPTER_TIMEOUT' } : { code: 'AUTH_FAILED' };
    if (skill === 'brave_web_search') return query === 'q3' ? 'ok-empty' : { results: Number(query.slice(1)) };
    return { results: 1 };
  };
  const calls = ['q1', 'q2', 'q3', 'q4'].map((query) => searchCall(query, CHAIN));

  function comparable(report: ExecutionReport) {
    return { providers: report.outcomes.map((outcome) => [outcome.call.subQuery, outcome.provider, outcome.raw]), status: report.providerStatus, log: report.degradationLog };
  }

  it('gives the same report whether calls finish in order or in reverse', async () => {
    const inOrder = await execute(calls, fakeCaller(answers, (callNumber) => callNumber).callSkill, 8);
    const reversed = await execute(calls, fakeCaller(answers, (callNumber) => 40 - callNumber * 4).callSkill, 8);
    const sequential = await execute(calls, fakeCaller(answers).callSkill, 1);
    expect(comparable(reversed)).toEqual(comparable(inOrder));
    expect(comparable(sequential)).toEqual(comparable(inOrder));
    expect(inOrder.degradationLog.map((step) => [step.sub_query, step.from])).toEqual([
      ['q1', 'tavily_search'], ['q2', 'tavily_search'], ['q3', 'tavily_search'], ['q3', 'brave_web_search'], ['q4', 'tavily_search'],
    ]);
    // The status of a provider names the error of its earliest call in plan order.
    expect(inOrder.providerStatus.find((status) => status.provider === 'tavily_search')).toMatchObject({ status: 'error', code: 'QUOTA_EXHAUSTED', calls: 4 });
  });
});

describe('concurrency', () => {
  it('keeps at most `concurrency` calls in flight', async () => {
    const fake = fakeCaller(() => ({ results: 1 }), (callNumber) => 1 + (callNumber % 3));
    const report = await execute(Array.from({ length: 9 }, (_unused, index) => searchCall(`q${index}`, CHAIN)), fake.callSkill, 3);
    expect(fake.maxInFlight()).toBe(3);
    expect(report.outcomes.map((outcome) => outcome.call.subQuery)).toEqual(Array.from({ length: 9 }, (_unused, index) => `q${index}`));
  });

  it('mapWithLimit keeps results in task order whatever the completion order', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const results = await mapWithLimit([5, 1, 4, 2, 3], 2, async (delay) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await ticks(delay);
      inFlight -= 1;
      return delay * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30]);
    expect(maxInFlight).toBe(2);
  });

  it.each([0, -1, Number.NaN])('mapWithLimit still runs every task with a limit of %s', async (limit) => {
    expect(await mapWithLimit([1, 2, 3], limit, async (value) => value + 1)).toEqual([2, 3, 4]);
  });

  it('mapWithLimit handles no tasks', async () => {
    expect(await mapWithLimit([], 4, async (value: number) => value)).toEqual([]);
  });
});
