import fs from 'node:fs';

/**
 * A `skrya rank` input smaller than this runs in the node the CLI started in, without rank's
 * flags: a second node start (about 0.1 s) costs more than the flags save it. By turns against
 * always starting again (farm-bench, 11 pairs, medians): 50 lines 0.74× the wall (0.24 against
 * 0.32 s), 500 lines 0.84×, 1,000 (0.56 MB) 0.88×; without the flags 2,000 lines (1.1 MB) took
 * 1.00× and 11,000 (6 MB) 1.05× with 17 MB more peak, so from 1 MB on the flags pay.
 */
export const FLAGGED_INPUT_BYTES = 1024 * 1024;

/** The last value given to `--jsonl` (commander keeps the last), as `--jsonl x` or `--jsonl=x`; null without one. */
function jsonlArgument(args: readonly string[]): string | null {
  let value: string | null = null;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--jsonl' && index + 1 < args.length) value = args[++index]!;
    else if (arg.startsWith('--jsonl=')) value = arg.slice('--jsonl='.length);
  }
  return value;
}

/** The file's status, or undefined when it cannot be had (missing, a name too long, no permission). */
function statusOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    // The command opens the file itself and says what is wrong with it (INVALID_INPUT).
    return undefined;
  }
}

/**
 * Whether `skrya rank`'s arguments name an input worth rank's node flags: stdin and other streams
 * (a pipe, a device: their size is known only once read), or a file of FLAGGED_INPUT_BYTES or more.
 * Read before the command loads; a file that cannot be read needs none (the command reports it).
 */
export function rankWantsNodeFlags(args: readonly string[]): boolean {
  const file = jsonlArgument(args);
  if (file === null) return false;
  if (file === '-') return true;
  const stat = statusOf(file);
  if (stat === undefined) return false;
  return !stat.isFile() || stat.size >= FLAGGED_INPUT_BYTES;
}
