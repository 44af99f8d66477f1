import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../runtime/errors.ts';
import { routePlanSchema } from '../../services/retriever/index.ts';
import { registerRouteCommand, type RouteCommandIo } from './route.ts';

const input = {
  task_type: 'breaking_news',
  primary_subject: 'Kafka 4.1.1',
  goal_mode: 'analyze',
  freshness_required: 'high',
  available_sources: ['web', 'counter'],
  need_counter_evidence: true,
};

interface Run {
  output: string;
  errorCode: string | undefined;
}

async function runRoute(args: string[], files: Record<string, string>, stdin: string | null): Promise<Run> {
  let output = '';
  const io: RouteCommandIo = {
    readFile: async (file) => {
      const text = files[file];
      if (text === undefined) throw new Error(`ENOENT: ${file}`);
      return text;
    },
    readStdin: async () => stdin ?? '',
    stdinIsTerminal: () => stdin === null,
    write: (text) => {
      output += text;
    },
  };
  const program = new Command('skrya').exitOverride();
  registerRouteCommand(program, io);
  try {
    await program.parseAsync(['node', 'skrya', 'route', ...args]);
    return { output, errorCode: undefined };
  } catch (error) {
    if (isSkryaError(error)) return { output, errorCode: error.code };
    throw error;
  }
}

describe('skrya route', () => {
  it.each([
    ['a file', ['--input', 'in.json'], { 'in.json': JSON.stringify(input) }, null],
    ['stdin by default', [], {}, JSON.stringify(input)],
    ['stdin as -', ['--input', '-'], {}, JSON.stringify(input)],
  ] as Array<[string, string[], Record<string, string>, string | null]>)('prints the plan for input from %s', async (_name, args, files, stdin) => {
    const run = await runRoute(args, files, stdin);
    expect(run.errorCode).toBeUndefined();
    const plan = routePlanSchema.parse(JSON.parse(run.output));
    expect(plan.search_order).toEqual(['web', 'counter']);
    expect(plan.budget_allocation).toEqual({ total_budget: 10, web: 7, counter: 3 });
  });

  it('prints one line, or indented with --pretty', async () => {
    const compact = await runRoute(['--seed', 's'], {}, JSON.stringify(input));
    const pretty = await runRoute(['--seed', 's', '--pretty'], {}, JSON.stringify(input));
    expect(compact.output.trimEnd().split('\n')).toHaveLength(1);
    expect(pretty.output.split('\n').length).toBeGreaterThan(10);
    expect(JSON.parse(pretty.output)).toEqual(JSON.parse(compact.output));
  });

  it('gives a stable task id with --seed', async () => {
    const first = JSON.parse((await runRoute(['--seed', 'replay-7'], {}, JSON.stringify(input))).output) as { task_id: string };
    const second = JSON.parse((await runRoute(['--seed', 'replay-7'], {}, JSON.stringify(input))).output) as { task_id: string };
    expect(first.task_id).toBe(second.task_id);
  });

  it.each([
    ['a missing file', ['--input', 'missing.json'], {}, ''],
    ['invalid JSON', [], {}, '{"task_type": '],
    ['an invalid field', [], {}, JSON.stringify({ ...input, budget_limit: 0 })],
    ['an unknown source', [], {}, JSON.stringify({ ...input, available_sources: ['web', 'twitter'] })],
    ['a terminal on stdin', [], {}, null],
  ] as Array<[string, string[], Record<string, string>, string | null]>)('rejects %s as INVALID_INPUT', async (_name, args, files, stdin) => {
    const run = await runRoute(args, files, stdin);
    expect(run.errorCode).toBe('INVALID_INPUT');
    expect(run.output).toBe('');
  });

  it('exits 2 from the real CLI on bad input, 0 on good input', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'skrya-route-'));
    const good = path.join(dir, 'good.json');
    const bad = path.join(dir, 'bad.json');
    await writeFile(good, JSON.stringify(input));
    await writeFile(bad, JSON.stringify({ ...input, task_type: 'gossip' }));
    const bin = path.resolve(import.meta.dirname, '../../bin/skrya.js');
    const ok = await promisify(execFile)(process.execPath, [bin, 'route', '--input', good]);
    expect(routePlanSchema.safeParse(JSON.parse(ok.stdout)).success).toBe(true);
    const failed = await promisify(execFile)(process.execPath, [bin, 'route', '--input', bad]).then(
      () => null,
      (error: { code?: number }) => error,
    );
    expect(failed?.code).toBe(2);
  }, 30_000);
});
