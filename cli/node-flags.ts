import { spawn } from 'node:child_process';

/**
 * Running a command in a node started with V8 flags it needs: some (the young generation's size)
 * take effect only when node starts, so the CLI starts node again with them for that command alone
 * and stands aside: the child shares stdin, stdout and stderr, gets the signals the CLI gets, and
 * its exit code (or the signal that ended it) becomes the CLI's.
 */

/** The option part of a flag: `--max-semi-space-size` of `--max-semi-space-size=16`. */
function optionOf(flag: string): string {
  const equals = flag.indexOf('=');
  return equals === -1 ? flag : flag.slice(0, equals);
}

/**
 * Whether node already runs with each of `flags`' options, from its command line or NODE_OPTIONS,
 * with any value: a value the user chose stands, and the child started with them does not start another.
 */
export function startedWith(flags: readonly string[], execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  const given = [...execArgv, ...nodeOptions.split(/\s+/)].map(optionOf);
  return flags.every((flag) => given.includes(optionOf(flag)));
}

/** A GLIBC_TUNABLES entry's name: `glibc.malloc.hugetlb` of `glibc.malloc.hugetlb=1`. */
const tunableName = (entry: string) => entry.split('=')[0]!;

/**
 * GLIBC_TUNABLES (name=value entries joined by colons) with `tunables` added, except those whose
 * name it sets already: a value the user chose stands. glibc reads it only when a process starts,
 * and other C libraries ignore it.
 */
export function withGlibcTunables(current: string | undefined, tunables: readonly string[]): string {
  const entries = (current ?? '').split(':').filter((entry) => entry !== '');
  const named = new Set(entries.map(tunableName));
  return [...entries, ...tunables.filter((tunable) => !named.has(tunableName(tunable)))].join(':');
}

/** Signals a user or a supervisor sends to stop the CLI: handed on to the child, which decides. */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Runs this CLI invocation again (same script, arguments and node options) in a node started with
 * `flags` and with `glibcTunables` added to its GLIBC_TUNABLES, and ends this process the way the
 * child ended: with its exit code, or killed by the same signal.
 */
export async function runWithNodeFlags(flags: readonly string[], glibcTunables: readonly string[] = []): Promise<void> {
  // Listening before the child starts, so a signal that comes while it starts is handed on too: a
  // listener runs only after spawn has returned, once `child` is set.
  const forward = (signal: NodeJS.Signals) => {
    child.kill(signal);
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  const env = glibcTunables.length === 0 ? process.env : { ...process.env, GLIBC_TUNABLES: withGlibcTunables(process.env.GLIBC_TUNABLES, glibcTunables) };
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], { stdio: 'inherit', env });
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  if (ended.signal !== null) {
    process.kill(process.pid, ended.signal);
    return;
  }
  process.exitCode = ended.code ?? 1;
}
