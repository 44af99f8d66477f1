/**
 * What the eval scripts share: the `--set` and `--mode` options (and reading any other), and loading a set (a split of a
 * generated corpus, the outside corpus in ../shared/corpora, or any labelled JSONL file).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The value after `name` on the command line; undefined when the option or its value is missing. */
export function argument(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

/** The sets to report (default: the script's untouched sets) and the modes (default: both). */
export function evalOptions(defaultSets: readonly string[] = ['test', 'shared']): { sets: string[]; modes: ReadonlyArray<'combined' | 'rules'> } {
  const set = argument('--set');
  const mode = argument('--mode') ?? 'both';
  return { sets: set === undefined ? [...defaultSets] : [set], modes: mode === 'both' ? ['combined', 'rules'] : [mode === 'rules' ? 'rules' : 'combined'] };
}

/**
 * One set's rows: a split of the generated corpus, `real-validation` / `real-test` (a split of the
 * real-text corpus, where the script has one), `shared` (../shared/corpora/<sharedFile>) or a
 * file; exit 1 when a file cannot be read.
 */
export function loadEvalSet<Row>(set: string, options: { script: string; generated: () => Array<Row & { split: string }>; real?: () => Array<Row & { split: string }>; sharedFile: string; parse: (text: string) => Row[] }): Row[] {
  if (set === 'test' || set === 'validation') return options.generated().filter((row) => row.split === set);
  if ((set === 'real-test' || set === 'real-validation') && options.real !== undefined) return options.real().filter((row) => `real-${row.split}` === set);
  const path = set === 'shared' ? resolve(repoRoot, '..', 'shared', 'corpora', options.sharedFile) : resolve(set);
  try {
    return options.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    process.stderr.write(`${options.script}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
