/**
 * Fetches pinned Debian packages the way the local stack fetches Maven jars: downloaded once with
 * `apt-get download <package>=<version>`, unpacked with `dpkg-deb -x` into
 * `<SKRYA_CACHE_DIR>/corpora/debian/<package>-<version>/` (default ~/.cache/skrya), outside the repo
 * and never committed. A package is only marked present once fully unpacked, so an interrupted
 * fetch is redone. Fails with CORPUS_UNAVAILABLE and what to do when apt cannot deliver.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SkryaError } from '../../../runtime/errors.ts';

export function debianCacheDir(): string {
  return join(process.env.SKRYA_CACHE_DIR ?? join(homedir(), '.cache', 'skrya'), 'corpora', 'debian');
}

const COMPLETE_MARKER = '.complete';

function runTool(command: string, args: readonly string[], cwd: string, hint: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    const output = `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new SkryaError('CORPUS_UNAVAILABLE', `'${command} ${args.join(' ')}' failed (${output || `exit ${result.status}`}): ${hint}`, { details: { command, args } });
  }
}

/** Where apt keeps the archive's package lists; a fresh machine (or container image) may have none. */
const APT_LISTS = '/var/lib/apt/lists';

function aptHasPackageLists(): boolean {
  try {
    return readdirSync(APT_LISTS).some((file) => /_Packages(\.|$)/.test(file));
  } catch {
    return false;
  }
}

function downloadPackage(pkg: string, version: string, work: string): void {
  const hint = `the injection model's real-text corpus needs Debian package ${pkg} ${version}; check that apt reaches a Debian bookworm mirror (run 'apt-get update'), or, if that version left the archive, pin the release's current base version (no +debNuM) in domain/screening/real-text/debian-sources.ts`;
  if (!aptHasPackageLists() && process.getuid?.() === 0) runTool('apt-get', ['update', '-qq'], work, hint);
  runTool('apt-get', ['download', `${pkg}=${version}`], work, hint);
}

/** The unpacked root of `pkg` at `version`, fetched and unpacked first when not cached. */
export function ensureDebianPackage(pkg: string, version: string, cacheDir = debianCacheDir()): string {
  const root = join(cacheDir, `${pkg}-${version}`);
  if (existsSync(join(root, COMPLETE_MARKER))) return root;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, `.fetch-${pkg}-`));
  try {
    downloadPackage(pkg, version, work);
    const deb = readdirSync(work).find((file) => file.endsWith('.deb'));
    if (deb === undefined) throw new SkryaError('CORPUS_UNAVAILABLE', `apt-get download ${pkg}=${version} wrote no .deb file`);
    const unpacked = join(work, 'root');
    runTool('dpkg-deb', ['-x', deb, unpacked], work, 'dpkg-deb (Debian package dpkg) unpacks the corpus packages');
    writeFileSync(join(unpacked, COMPLETE_MARKER), `${pkg} ${version}\n`);
    // Another process may have finished the same package meanwhile: keep its copy, which it may be reading.
    if (!existsSync(join(root, COMPLETE_MARKER))) {
      rmSync(root, { recursive: true, force: true });
      renameSync(unpacked, root);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return root;
}
