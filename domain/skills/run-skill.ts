/**
 * Calls one skill (spec 002, execution + observability layers): input checked against the
 * contract, the executor run through a bound adapter, output checked, then exactly one structured
 * log event and the Prometheus metrics. Provider failures come back as codes; nothing here throws.
 */
import { performance } from 'node:perf_hooks';
import { SkryaError, describeError, isSkryaError, type ErrorCode } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { SkillMetrics } from '../../runtime/metrics.ts';
import { rateKeyOf } from './adapters/credential-rate-limiter.ts';
import type { SkillAdapterFactory } from './adapters/skill-adapter.ts';
import { inputHash } from './canonical-json.ts';
import type { SkillOutput } from './output-schema.ts';
import type { RegisteredSkill, SkillRegistry } from './registry.ts';
import type { Clock, RawResponse, SkillAdapter } from './types.ts';

export interface RunContext {
  tenant: string;
  runId: string;
  signal?: AbortSignal;
  /** Folder local_file and feeds-from-a-path may read; null or absent = local reads refused. */
  localRoot?: string | null;
}

export interface SkillRunResult {
  status: 'ok' | 'error';
  code?: ErrorCode;
  message?: string;
  output?: SkillOutput;
  /** Every response the provider gave, kept verbatim, also when parsing it failed. */
  raw: RawResponse[];
  durationMs: number;
}

/** What a call needs from the registry; `metrics: null` = not counted (registration smoke tests). */
export interface SkillRuntime {
  adapters: SkillAdapterFactory;
  env: Record<string, string | undefined>;
  logger: Logger;
  metrics: SkillMetrics | null;
  clock: Clock;
}

export async function runSkill(registry: SkillRegistry, name: string, input: unknown, ctx: RunContext): Promise<SkillRunResult> {
  const skill = registry.get(name);
  if (!skill) {
    const excluded = registry.report().find((entry) => entry.name === name);
    const started = performance.now();
    const result = failure(
      excluded ? 'NOT_CONFIGURED' : 'INVALID_INPUT',
      excluded ? `${name} is not serving: ${excluded.reason ?? 'excluded'}` : `no skill named ${name}; run \`skrya skills list\``,
      [],
      started,
    );
    record(registry.runtime, { name, version: excluded?.version ?? null }, input, ctx, result, null);
    return result;
  }
  return invokeSkill(registry.runtime, skill, input, ctx);
}

export async function invokeSkill(runtime: SkillRuntime, skill: RegisteredSkill, input: unknown, ctx: RunContext): Promise<SkillRunResult> {
  const started = performance.now();
  const { declaration, definition } = skill;
  const identity = { name: declaration.name, version: declaration.version };
  const raw: RawResponse[] = [];
  let unexpected: unknown = null;

  const result = await (async (): Promise<SkillRunResult> => {
    const parsed = definition.input.safeParse(input);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(input)'}: ${issue.message}`).join('; ');
      return failure('INVALID_INPUT', `${declaration.name}: input does not match the contract (${issues})`, raw, started);
    }
    const [missing] = skill.missingCredentials;
    if (runtime.adapters.mode === 'live' && missing) {
      return failure('NOT_CONFIGURED', `cannot be connected automatically: ${missing} is not set`, raw, started);
    }
    const signal = ctx.signal ?? new AbortController().signal;
    const bound = runtime.adapters.bind({
      skill: declaration.name,
      declaration,
      inputKey: inputHash(parsed.data),
      tenant: ctx.tenant,
      runId: ctx.runId,
      localRoot: ctx.localRoot ?? null,
      signal,
      rateKey: rateKeyOf(declaration, runtime.env),
    });
    const recording: SkillAdapter = {
      mode: bound.mode,
      async request(request) {
        const response = await bound.request(request);
        raw.push(response);
        return response;
      },
    };
    try {
      const execution = await definition.execute(parsed.data, {
        adapter: recording,
        signal,
        logger: runtime.logger.child({ skill: declaration.name, tenant: ctx.tenant, run_id: ctx.runId }),
        tenant: ctx.tenant,
        runId: ctx.runId,
        clock: runtime.clock,
      });
      const output = definition.output.safeParse(execution.output);
      if (!output.success) {
        return failure('BAD_RESPONSE', `${declaration.name}: output does not match the contract (${output.error.issues[0]?.message ?? 'invalid'})`, raw, started);
      }
      const notes = execution.notes?.length ? `; ${execution.notes.join('; ')}` : '';
      if (output.data.results.length === 0) {
        return { ...failure('EMPTY_RESULTS', `${declaration.name}: the provider answered with no results${notes}`, raw, started), output: output.data };
      }
      return { status: 'ok', output: output.data, raw, durationMs: elapsed(started), ...(notes ? { message: `${declaration.name}: ${notes.slice(2)}` } : {}) };
    } catch (error) {
      if (isSkryaError(error)) return failure(error.code, error.message, raw, started);
      // A parser tripping over a provider answer nobody anticipated: report it as a bad response
      // (a thrown error would stop the caller's partition on a message that can never succeed).
      unexpected = error;
      return failure('BAD_RESPONSE', `${declaration.name}: unexpected failure (${describeError(error)})`, raw, started);
    }
  })();

  record(runtime, identity, input, ctx, result, unexpected);
  return result;
}

function failure(code: ErrorCode, message: string, raw: RawResponse[], started: number): SkillRunResult {
  return { status: 'error', code, message, raw, durationMs: elapsed(started) };
}

function elapsed(started: number): number {
  return Math.round((performance.now() - started) * 1000) / 1000;
}

/** The one log event and the metrics of a call. The input is logged only as its hash. */
function record(
  runtime: SkillRuntime,
  skill: { name: string; version: string | null },
  input: unknown,
  ctx: RunContext,
  result: SkillRunResult,
  unexpected: unknown,
): void {
  const event = {
    event: 'skill_call',
    skill: skill.name,
    version: skill.version,
    input_hash: inputHash(input),
    duration_ms: result.durationMs,
    status: result.status,
    error_code: result.code ?? null,
    tenant: ctx.tenant,
    run_id: ctx.runId,
    adapter: runtime.adapters.mode,
    raw_count: result.raw.length,
    result_count: result.output?.results.length ?? 0,
    ...(result.message ? { error_message: result.message } : {}),
    ...(unexpected ? { err: unexpected instanceof Error ? unexpected : new SkryaError('BAD_RESPONSE', String(unexpected)) } : {}),
  };
  if (runtime.metrics === null) {
    runtime.logger.debug(event, 'skill smoke call');
    return;
  }
  if (unexpected) runtime.logger.error(event, 'skill call');
  else if (result.status === 'error') runtime.logger.warn(event, 'skill call');
  else runtime.logger.info(event, 'skill call');
  runtime.metrics.calls.inc({ skill: skill.name, status: result.status });
  if (result.code) runtime.metrics.errors.inc({ skill: skill.name, code: result.code });
  runtime.metrics.duration.observe({ skill: skill.name }, result.durationMs / 1000);
}
