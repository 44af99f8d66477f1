#!/usr/bin/env node
// Makes a fresh clone runnable: installs node_modules when missing or older than the lockfile,
// and (for the tests) kcat, the independent Kafka client one integration test reads with, and
// Debian's Chromium, the browser the operator-view tests drive (never a browser download).
// Plain JavaScript with builtins only: it runs before any dependency exists.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { nodeBinary, nodeSupport, SUPPORTED_LINES } from './node-runtime.mjs';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`ensure-deps: '${command} ${args.join(' ')}' failed (exit ${result.status ?? result.error?.message})`);
    process.exit(result.status ?? 1);
  }
}

const marker = 'node_modules/.package-lock.json';
const stale = !fs.existsSync(marker) || fs.statSync('package-lock.json').mtimeMs > fs.statSync(marker).mtimeMs;
if (stale) run('npm', ['ci', '--no-audit', '--no-fund']);

/** Installs a Debian package when its command is missing; as root with apt-get, else says what to run. */
function ensureDebianPackage(command, versionArgs, pkg, why) {
  if (!spawnSync(command, versionArgs).error) return;
  if (process.getuid?.() === 0 && !spawnSync('apt-get', ['--version']).error) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', pkg]);
  } else {
    console.error(`ensure-deps: ${why}: install it, e.g. \`sudo apt-get install ${pkg}\``);
    process.exit(1);
  }
}

if (process.argv.includes('--with-kcat')) ensureDebianPackage('kcat', ['-V'], 'kcat', 'the tests need kcat (an independent Kafka client)');
// SKRYA_CHROMIUM_PATH names another build; then nothing is installed.
if (process.argv.includes('--with-chromium') && !process.env.SKRYA_CHROMIUM_PATH) {
  ensureDebianPackage('chromium', ['--version'], 'chromium', 'the browser tests of the operator view need Chromium');
}

// The learned classifiers' weights are generated, never committed: build them into the git-ignored
// model cache when missing or stale (a few seconds; deterministic, keyed by recipe and sources).
// Training is TypeScript, so it runs on a Node that strips types (fetched through npm if need be).
const node = nodeSupport() === 'unsupported' ? nodeBinary(SUPPORTED_LINES[0].major) : process.execPath;
run(node, ['scripts/train-models.ts', 'all']);
