/**
 * Runs a request's planned calls: in parallel up to a limit, each walking its provider chain on
 * failure (spec 004 rule 6: every step appended to the degradation log). One provider's failure
 * never blocks the run; a provider without credentials is reported as "cannot be connected
 * automatically" and skipped.
 */
import type { ErrorCode } from '../../runtime/errors.ts';
import type { ProviderStatus } from '../../schemas/messages.ts';
import type { PlanEnforcement } from './enforce-plan.ts';
import { sourceOf } from './enforce-plan.ts';
import type { PlannedCall } from './plan-calls.ts';
import type { SkillRunResult } from '../../domain/skills/run-skill.ts';
import type { RawResponse } from '../../domain/skills/types.ts';

export type FallbackTrigger = 'quota_exhausted' | 'timeout' | 'empty_results' | 'api_error' | 'not_connected' | 'budget_exhausted' | 'stop_rule';

export interface DegradationEvent {
  capability: string;
  sub_query: string | null;
  from: string;
  to: string | null;
  trigger: FallbackTrigger;
  code: string | null;
  detail: string;
}

/** Spec 004's fallback triggers for our stable error codes. */
export function fallbackTrigger(code: ErrorCode | undefined): FallbackTrigger {
  switch (code) {
    case 'QUOTA_EXHAUSTED':
    case 'RATE_LIMITED':
      return 'quota_exhausted';
    case 'ADAPTER_TIMEOUT':
      return 'timeout';
    case 'EMPTY_RESULTS':
      return 'empty_results';
    case 'NOT_CONFIGURED':
      return 'not_connected';
    default:
      return 'api_error';
  }
}

export interface CallOutcome {
  call: PlannedCall;
  /** The provider whose answer was kept, with its verbatim responses; null when the chain ran out. */
  provider: string | null;
  raw: RawResponse[];
  degradation: DegradationEvent[];
}

export interface ExecutionReport {
  outcomes: CallOutcome[];
  providerStatus: ProviderStatus[];
  degradationLog: DegradationEvent[];
}

export type SkillCaller = (skill: string, input: Record<string, unknown>, signal: AbortSignal) => Promise<SkillRunResult>;

const NOT_CONNECTED_MESSAGE = 'cannot be connected automatically';

/** Without a plan nothing is budgeted or stopped. */
const UNLIMITED: PlanEnforcement = {
  spend: () => true,
  refund: () => {},
  stopped: () => false,
  observe: () => false,
  stopSignal: new AbortController().signal,
  condition: '',
};

async function walkChain(call: PlannedCall, callSkill: SkillCaller, signal: AbortSignal, plan: PlanEnforcement, record: (provider: string, result: SkillRunResult | null) => void): Promise<CallOutcome> {
  const degradation: DegradationEvent[] = [];
  const step = (from: string, to: string | null, trigger: FallbackTrigger, code: string | null, detail: string) =>
    degradation.push({ capability: call.capability, sub_query: call.subQuery, from, to, trigger, code, detail });
  if (call.chain.length === 0) {
    record(call.capability, null);
    return { call, provider: null, raw: [], degradation };
  }
  const searches = sourceOf(call) !== null;
  // Searches stop with the plan's stop rule; direct fetches only with the run.
  const callSignal = searches ? AbortSignal.any([signal, plan.stopSignal]) : signal;
  for (const [index, skill] of call.chain.entries()) {
    const next = call.chain[index + 1] ?? null;
    if (searches && plan.stopped()) {
      step(skill, null, 'stop_rule', null, `not issued: stop rule met (${plan.condition})`);
      break;
    }
    if (!plan.spend(call)) {
      step(skill, null, 'budget_exhausted', null, `not issued: the ${sourceOf(call)} search budget of this run is spent`);
      break;
    }
    const result = await callSkill(skill, call.inputFor(skill), callSignal);
    // The budget counts searches performed: a failed call searched nothing.
    if (result.status === 'error') plan.refund(call);
    record(skill, result);
    const results = result.output?.results ?? [];
    if (result.status === 'ok' && results.length > 0) {
      if (plan.observe(call, results)) step(skill, null, 'stop_rule', null, `stop rule met: ${plan.condition}; outstanding searches cancelled`);
      return { call, provider: skill, raw: result.raw, degradation };
    }
    step(
      skill,
      next,
      result.status === 'ok' ? 'empty_results' : fallbackTrigger(result.code),
      result.status === 'ok' ? 'EMPTY_RESULTS' : (result.code ?? null),
      result.message ?? (result.status === 'ok' ? 'no results' : 'failed'),
    );
    if (callSignal.aborted) break;
  }
  return { call, provider: null, raw: [], degradation };
}

/** Runs `tasks` with at most `limit` in flight, keeping results in task order. */
export async function mapWithLimit<T, R>(tasks: readonly T[], limit: number, run: (task: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(tasks.length);
  let next = 0;
  // A limit below 1 (or NaN from a bad setting) would start no worker and leave holes in the results.
  const width = Math.max(1, Math.min(tasks.length, Number.isNaN(limit) ? 1 : Math.floor(limit)));
  const workers = Array.from({ length: width }, async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await run(tasks[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

interface ProviderTally {
  provider: string;
  capability: string;
  calls: number;
  results: number;
  succeeded: boolean;
  /** The error of the provider's earliest call in plan order (completion order varies from run to run). */
  firstError: { code: string; message: string; order: number } | null;
  /** What a successful call wants known (e.g. its output was cut at the size cap). */
  note: string | null;
}

function toStatus(tally: ProviderTally): ProviderStatus {
  const base = { provider: tally.provider, capability: tally.capability, calls: tally.calls, results: tally.results };
  if (tally.succeeded) return { ...base, status: 'ok', code: null, message: tally.note };
  const error = tally.firstError ?? { code: 'NOT_CONFIGURED', message: `no provider for ${tally.capability} is available` };
  if (error.code === 'NOT_CONFIGURED') {
    const message = error.message.startsWith(NOT_CONNECTED_MESSAGE) ? error.message : `${NOT_CONNECTED_MESSAGE}: ${error.message}`;
    return { ...base, status: 'not_connected', code: error.code, message };
  }
  return { ...base, status: 'error', code: error.code, message: error.message };
}

export async function executeCalls(calls: readonly PlannedCall[], options: { callSkill: SkillCaller; concurrency: number; signal: AbortSignal; plan?: PlanEnforcement; onProgress?: () => Promise<void> }): Promise<ExecutionReport> {
  const tallies = new Map<string, ProviderTally>();
  const planOrder = new Map(calls.map((call, index) => [call, index]));
  const record = (capability: string, order: number) => (provider: string, result: SkillRunResult | null) => {
    const key = `${provider}\u0000${capability}`;
    const tally = tallies.get(key) ?? { provider, capability, calls: 0, results: 0, succeeded: false, firstError: null, note: null };
    tallies.set(key, tally);
    if (result === null) return;
    tally.calls += 1;
    tally.results += result.output?.results.length ?? 0;
    if (result.status === 'ok') {
      tally.succeeded = true;
      tally.note ??= result.message ?? null;
    }
    else if (tally.firstError === null || order < tally.firstError.order) tally.firstError = { code: result.code ?? 'BAD_RESPONSE', message: result.message ?? 'failed', order };
  };
  const outcomes = await mapWithLimit(calls, options.concurrency, async (call) => {
    const outcome = await walkChain(call, options.callSkill, options.signal, options.plan ?? UNLIMITED, record(call.capability, planOrder.get(call)!));
    await options.onProgress?.();
    return outcome;
  });
  // Calls finish in any order; the report is ordered so the same run always reads the same.
  const providerStatus = [...tallies.values()].map(toStatus).sort((a, b) => a.capability.localeCompare(b.capability) || a.provider.localeCompare(b.provider));
  return { outcomes, providerStatus, degradationLog: outcomes.flatMap((outcome) => outcome.degradation) };
}
