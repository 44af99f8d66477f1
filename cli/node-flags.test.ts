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
import { flagsToStartWith, runWithNodeFlags, startedWith, withGlibcTunables } from './node-flags.ts';

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

const commandLineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');

/**
 * The CLI's command line once it has replaced itself with node started with rank's flags (same
 * process, so the same pid). Without that exec it keeps its own line and ends this test by its timeout.
 */
async function commandLineOnceReplaced(pid: number): Promise<string[]> {
  for (;;) {
    const line = commandLineOf(pid);
    if (RANK_FLAGS.every((flag) => line.includes(flag))) return line;
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

describe('flagsToStartWith', () => {
  const rank = requestedCommand(['rank']);
  it('gives rank\'s flags for an input that wants them, unless node already runs with them', () => {
    expect(flagsToStartWith(rank, ['rank', '--jsonl', '-'], [], '')).toEqual(RANK_FLAGS);
    expect(flagsToStartWith(rank, ['rank', '--jsonl', '-'], RANK_FLAGS, '')).toBeNull();
    expect(flagsToStartWith(rank, ['rank', '--jsonl', '-'], [], RANK_FLAGS.join(' '))).toBeNull();
  });

  it('gives none for an input too small to want them, a command without flags, or no command', () => {
    expect(flagsToStartWith(rank, ['rank', '--jsonl', fileURLToPath(import.meta.url)], [], '')).toBeNull();
    expect(flagsToStartWith(requestedCommand(['classify']), ['classify', 'kafka'], [], '')).toBeNull();
    expect(flagsToStartWith(undefined, ['--help'], [], '')).toBeNull();
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

describe('runWithNodeFlags where node cannot replace its process', () => {
  it('returns false, so the command runs in this process without the flags', () => {
    // As on Windows, where node has no execve.
    const { execve } = process;
    Object.defineProperty(process, 'execve', { value: undefined, configurable: true, writable: true });
    try {
      expect(runWithNodeFlags(RANK_FLAGS, RANK_TUNABLES)).toBe(false);
    } finally {
      Object.defineProperty(process, 'execve', { value: execve, configurable: true, writable: true });
    }
  });
});

describe.runIf(process.platform === 'linux')('skrya rank in a node started with its flags', () => {
  it('replaces itself with a node that has the flags, which reads the CLI\'s stdin and writes its stdout', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--intent', 'status', '--query', 'deno 2', '--window-end', WINDOW_END]);
    expect(await commandLineOnceReplaced(cli.pid!)).toEqual(expect.arrayContaining([...RANK_FLAGS, CLI, 'rank', '--jsonl', '-']));
    expect(environmentOf(cli.pid!)).toContain(`GLIBC_TUNABLES=${withGlibcTunables(process.env.GLIBC_TUNABLES, RANK_TUNABLES)}`);
    // Nothing is left waiting beside the command: no child process.
    expect(readFileSync(`/proc/${cli.pid}/task/${cli.pid}/children`, 'utf8').trim()).toBe('');
    const replaced = await finish(cli, RESULTS);
    const direct = await finish(start(RANK_FLAGS, ['rank', '--jsonl', '-', '--intent', 'status', '--query', 'deno 2', '--window-end', WINDOW_END]), RESULTS);
    expect(replaced).toEqual({ ...direct, code: 0 });
    expect(replaced.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('leaves a GLIBC_TUNABLES value the user set for the same tunable as it is', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--window-end', WINDOW_END], { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=0' });
    await commandLineOnceReplaced(cli.pid!);
    expect(environmentOf(cli.pid!).filter((entry) => entry.startsWith('GLIBC_TUNABLES='))).toEqual(['GLIBC_TUNABLES=glibc.malloc.hugetlb=0']);
    expect(await finish(cli, RESULTS)).toMatchObject({ code: 0 });
  });

  it('ends with the command\'s exit code and stderr when the command fails', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'skrya-node-flags-'));
    const notJson = path.join(folder, 'bad.jsonl');
    await writeFile(notJson, `${RESULTS}{not json\n`);
    for (const args of [['rank', '--jsonl', path.join(folder, 'missing.jsonl')], ['rank', '--jsonl', path.join(folder, 'n'.repeat(300))], ['rank', '--jsonl', notJson, '--window-end', WINDOW_END], ['rank', '--intent', 'nonsense', '--jsonl', notJson]]) {
      // These inputs are missing, unreadable (a name too long) or small: no flags are wanted, and the CLI fails as the flagged node does.
      const cli = await finish(start([], args));
      const direct = await finish(start(RANK_FLAGS, args));
      expect(cli).toEqual(direct);
      expect(cli.code).toBe(2);
      expect(cli.stderr).toMatch(/^skrya: /u);
    }
  });

  it('ranks a small file, for which no flags are wanted (flagsToStartWith, above), printing what a node started with the flags prints', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'skrya-node-flags-'));
    const results = path.join(folder, 'results.jsonl');
    await writeFile(results, RESULTS);
    const args = ['rank', '--jsonl', results, '--intent', 'status', '--query', 'deno 2', '--window-end', WINDOW_END];
    const here = await finish(start([], args));
    expect(here).toEqual({ ...(await finish(start(RANK_FLAGS, args))), code: 0 });
    expect(here.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('ends by a signal it is sent, as the command would', async () => {
    const cli = start([], ['rank', '--jsonl', '-', '--window-end', WINDOW_END]);
    await commandLineOnceReplaced(cli.pid!);
    // The command is waiting on stdin, which stays open: only the signal can end it.
    const finished = finish(cli);
    cli.kill('SIGTERM');
    expect(await finished).toMatchObject({ code: null, signal: 'SIGTERM', stdout: '' });
  });
});
