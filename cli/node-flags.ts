import type { CommandEntry } from './commands/index.ts';

/**
 * Running a command in a node started with V8 flags it needs: some (the young generation's size)
 * take effect only when node starts, so the CLI replaces itself (execve) with a node started with
 * them, for that command alone. It is the same process: stdin, stdout and stderr, signals and the
 * exit code are the command's own, and nothing waits beside it.
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

/**
 * The flags to start node again with for `command` and its arguments, or null: the command wants
 * none for this work, or node already runs with them.
 */
export function flagsToStartWith(command: Pick<CommandEntry, 'nodeFlags' | 'nodeFlagsWanted'> | undefined, args: readonly string[], execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): readonly string[] | null {
  const flags = command?.nodeFlags;
  // Checked first: the node started again with the flags runs this too, and need not read the input's size a second time.
  if (flags === undefined || startedWith(flags, execArgv, nodeOptions) || command?.nodeFlagsWanted?.(args) === false) return null;
  return flags;
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

/**
 * Replaces this process with a node started with `flags` and with `glibcTunables` added to its
 * GLIBC_TUNABLES, running this CLI invocation again (same script, arguments and node options); it
 * does not return. Before, a child node ran the command while this one waited to pass on signals
 * and the exit code: on the bench's 20k-result rank, 12 alternating pairs, 2.17 s against 2.05 s
 * with execve. False where node cannot replace its process (every supported Node line can on
 * POSIX systems; Windows cannot): the command then runs in this process, without the flags, which
 * only cost it memory.
 */
export function runWithNodeFlags(flags: readonly string[], glibcTunables: readonly string[] = []): boolean {
  if (process.execve === undefined) return false;
  const env = glibcTunables.length === 0 ? process.env : { ...process.env, GLIBC_TUNABLES: withGlibcTunables(process.env.GLIBC_TUNABLES, glibcTunables) };
  return process.execve(process.execPath, [process.execPath, ...process.execArgv, ...flags, ...process.argv.slice(1)], env);
}
