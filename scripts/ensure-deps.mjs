#!/usr/bin/env node
// Makes a fresh clone runnable: installs node_modules when missing or older than the lockfile,
// and (for the tests) kcat, the independent Kafka client one integration test reads with.
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

if (process.argv.includes('--with-kcat') && spawnSync('kcat', ['-V']).error) {
  if (process.getuid?.() === 0 && !spawnSync('apt-get', ['--version']).error) {
    run('apt-get', ['update', '-qq']);
    run('apt-get', ['install', '-y', '-qq', 'kcat']);
  } else {
    console.error('ensure-deps: the tests need kcat (an independent Kafka client): install it, e.g. `sudo apt-get install kcat`');
    process.exit(1);
  }
}

// The learned classifiers' weights are generated, never committed: build them into the git-ignored
// model cache when missing or stale (a few seconds; deterministic, keyed by recipe and sources).
// Training is TypeScript, so it runs on a Node that strips types (fetched through npm if need be).
const node = nodeSupport() === 'unsupported' ? nodeBinary(SUPPORTED_LINES[0].major) : process.execPath;
run(node, ['scripts/train-models.ts', 'all']);
