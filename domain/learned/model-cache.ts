/**
 * Trained weights are a generated artifact: never in git, built deterministically into
 * `<repo>/.skrya/models/` (git-ignored; SKRYA_MODEL_DIR overrides) on first use or by
 * `npm run train:*` / the install step. The file name carries a hash of everything that defines
 * the model (recipe, corpus generator, features, trainer sources), so a change to any of them
 * makes the old file stale and the next use rebuilds it. Writes go to a temporary name and are
 * renamed into place, so parallel processes and threads never read a half-written model.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function modelDir(): string {
  return process.env.SKRYA_MODEL_DIR ?? join(REPO_ROOT, '.skrya', 'models');
}

/** sha256 over the recipe and the contents of the source files (paths relative to the repo root). */
export function modelKey(recipe: unknown, sourceFiles: readonly string[]): string {
  const hash = createHash('sha256').update(JSON.stringify(recipe));
  for (const file of sourceFiles) hash.update(`\0${file}\0`).update(readFileSync(join(REPO_ROOT, file)));
  return hash.digest('hex').slice(0, 16);
}

export interface CachedModel {
  path: string;
  bytes: Buffer;
  built: boolean;
}

/** The cached bytes for `name` and `key`, building and storing them first when absent. */
export function loadOrBuild(name: string, key: string, build: () => Buffer): CachedModel {
  const path = join(modelDir(), `${name}-${key}.bin`);
  if (existsSync(path)) return { path, bytes: readFileSync(path), built: false };
  const bytes = build();
  mkdirSync(dirname(path), { recursive: true });
  // Worker threads of one process may build the same file at once: each writes a name of its own.
  const temporary = `${path}.${process.pid}.${threadId}.tmp`;
  writeFileSync(temporary, bytes);
  renameSync(temporary, path);
  // Older builds of the same model are stale by construction: keep the cache to one file a model.
  for (const file of readdirSync(dirname(path))) if (file.startsWith(`${name}-`) && file.endsWith('.bin') && join(dirname(path), file) !== path) rmSync(join(dirname(path), file), { force: true });
  return { path, bytes, built: true };
}
