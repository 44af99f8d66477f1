import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { requestedCommand } from './commands/index.ts';
import { startedWith, withGlibcTunables } from './node-flags.ts';

const CLI = fileURLToPath(new URL('../bin/skrya.js', import.meta.url));
const RANK_FLAGS = requestedCommand(['rank'])!.nodeFlags!;
const RANK_TUNABLES = requestedCommand(['rank'])!.glibcTunables!;
const WINDOW_END = '2026-11-30T00:00:00Z';
const RESULTS = [
  JSON.stringify({ url: 'https://deno.com/blog/v2.0', title: 'Announcing Deno 2', snippet: 'Deno 2 is here', published_date: '2024-10-09T00:00:00Z', source: 'brave' }),
  JSON.stringify({ url: 'https://www.deno.com/blog/v2.0/?utm_source=x', title: 'Announcing Deno 2', snippet: 'The next generation of JavaScript', published_date: null, source: 'exa' }),
  '',
].join('\n');

interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function start(nodeOptions: readonly string[], args: readonly string[], env: NodeJS.ProcessEnv = process.env): ChildProcess {
  // NODE_OPTIONS from the test runner would otherwise reach both processes.
  return spawn(process.execPath, [...nodeOptions, CLI, ...args], { env: { ...env, NODE_OPTIONS: '' }, stdio: 'pipe' });
}

async function finish(child: ChildProcess, input?: string): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (input !== undefined) child.stdin!.end(input);
  const [code, signal] = (await once(child, 'close')) as [number | null, NodeJS.Signals | null];
  return { code, signal, stdout, stderr };
}

/** The children of a running process, once it has one (Linux /proc). */
async function childrenOf(pid: number): Promise<number[]> {
  for (;;) {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
    if (children !== '') return children.split(' ').map(Number);
    await sleep(20);
  }
}

const commandLineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/**
 * A child's command line once it has started its own program: between fork and exec it still
 * shows its parent's, and during the exec it reads empty (CI read both). A relaunch without the
 * flags would keep the parent's line and end this test by its timeout.
 */
async function commandLineAfterExec(child: number, parent: number): Promise<string[]> {
  const parentLine = commandLineOf(parent).join('\0');
  for (;;) {
    const line = commandLineOf(child);
    if (line.some((argument) => argument !== '') && line.join('\0') !== parentLine) return line;
    await sleep(20);
  }
}

describe('requestedCommand', () => {
  it('is the first argument that is not an option, or the one after help', () => {
    expect(requestedCommand(['--jsonl', 'rank'])?.name).toBe('rank');
    expect(requestedCommand(['help', 'rank'])?.name).toBe('rank');
    expect(requestedCommand(['--help'])).toBeUndefined();
  });
});

describe('startedWith', () => {
  it('is true when node was started with the option, whatever its value, on its command line or in NODE_OPTIONS', () => {
    expect(startedWith(['--max-semi-space-size=8'], ['--max-semi-space-size=32'], '')).toBe(true);
    expect(startedWith(['--max-semi-space-size=8'], [], '--trace-warnings --max-semi-space-size=2')).toBe(true);
  });

  it('is false when any option is missing', () => {
    expect(startedWith(['--max-semi-space-size=8'], ['--max-old-space-size=8'], '--no-warnings')).toBe(false);
    expect(startedWith(['--max-semi-space-size=8', '--stack-size=900'], ['--max-semi-space-size=8'], '')).toBe(false);
  });
});

describe('withGlibcTunables', () => {
  it('adds each tunable to what is set, keeping a value the user set for the same name', () => {
    expect(withGlibcTunables(undefined, ['glibc.malloc.hugetlb=1'])).toBe('glibc.malloc.hugetlb=1');
    expect(withGlibcTunables('', ['glibc.malloc.hugetlb=1'])).toBe('glibc.malloc.hugetlb=1');
    expect(withGlibcTunables('glibc.malloc.arena_max=2', ['glibc.malloc.hugetlb=1'])).toBe('glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1');
    expect(withGlibcTunables('glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2', ['glibc.malloc.hugetlb=1'])).toBe('glibc.malloc.hugetlb=0:glibc.malloc.arena_max=2');
  });
});

describe.runIf(process.platform === 'linux')('skrya rank in a node started with its flags', () => {
  it('runs in a child node that has the flags and reads the CLI\'s stdin and writes its stdout', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--intent', 'status', '--query', 'deno 2', '--window-end', WINDOW_END]);
    const [child] = await childrenOf(cli.pid!);
    expect(await commandLineAfterExec(child!, cli.pid!)).toEqual(expect.arrayContaining([...RANK_FLAGS, CLI, 'rank', '--jsonl', '-']));
    expect(environmentOf(child!)).toContain(`GLIBC_TUNABLES=${withGlibcTunables(process.env.GLIBC_TUNABLES, RANK_TUNABLES)}`);
    const relaunched = await finish(cli, RESULTS);
    const direct = await finish(start(RANK_FLAGS, ['rank', '--jsonl', '-', '--intent', 'status', '--query', 'deno 2', '--window-end', WINDOW_END]), RESULTS);
    expect(relaunched).toEqual({ ...direct, code: 0 });
    expect(relaunched.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('leaves a GLIBC_TUNABLES value the user set for the same tunable as it is', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--window-end', WINDOW_END], { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' });
    const [child] = await childrenOf(cli.pid!);
    await commandLineAfterExec(child!, cli.pid!);
    expect(environmentOf(child!).filter((entry) => entry.startsWith('GLIBC_TUNABLES='))).toEqual(['GLIBC_TUNABLES=glibc.malloc.hugetlb=0']);
    expect(await finish(cli, RESULTS)).toMatchObject({ code: 0 });
  });

  it('ends with the child\'s exit code and stderr when the command fails', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'skrya-node-flags-'));
    const notJson = path.join(folder, 'bad.jsonl');
    await writeFile(notJson, `${RESULTS}{not json\n`);
    for (const args of [['rank', '--jsonl', path.join(folder, 'missing.jsonl')], ['rank', '--jsonl', notJson, '--window-end', WINDOW_END], ['rank', '--intent', 'nonsense', '--jsonl', notJson]]) {
      const relaunched = await finish(start([], args));
      const direct = await finish(start(RANK_FLAGS, args));
      expect(relaunched).toEqual(direct);
      expect(relaunched.code).toBe(2);
      expect(relaunched.stderr).toMatch(/^skrya: /u);
    }
  });

  it('hands a signal on to the child and ends by the same signal', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--window-end', WINDOW_END]);
    const [child] = await childrenOf(cli.pid!);
    // The child is waiting on stdin, which stays open: only the signal can end it.
    const finished = finish(cli);
    cli.kill('SIGTERM');
    expect(await finished).toMatchObject({ code: null, signal: 'SIGTERM', stdout: '' });
    expect(() => readFileSync(`/proc/${child}/cmdline`)).toThrow();
  });
});
