#!/usr/bin/env node
// Which Node.js lines Skrya supports, and a supported Node for machines that lack one.
// Skrya runs its TypeScript on Node's own type stripping (unflagged from 22.18 and in 24), so it
// needs no loader and no build; older lines cannot load it at all. Plain JavaScript with builtins
// only: it runs before any dependency exists, under whatever Node the machine has.
//
//   node scripts/node-runtime.mjs exec <script> [args...]   run a script under a supported Node,
//                                                           fetching Node 24 from npm if needed
//   node scripts/node-runtime.mjs path <major>              print the path of a Node <major> binary
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The tested lines, newest first: the whole suite runs on the first, the unit suite on the rest. */
export const SUPPORTED_LINES = [
  { major: 24, minimum: '24.0.0' },
  { major: 22, minimum: '22.18.0' },
];
const PREFERRED = SUPPORTED_LINES[0].major;

function parseVersion(version) {
  return version.replace(/^v/, '').split('.').map(Number);
}

function atLeast(version, minimum) {
  const [a, b] = [parseVersion(version), parseVersion(minimum)];
  for (let index = 0; index < 3; index += 1) if (a[index] !== b[index]) return a[index] > b[index];
  return true;
}

/** 'supported' | 'newer' (a later major, untested) | 'unsupported'. */
export function nodeSupport(version = process.versions.node) {
  const [major] = parseVersion(version);
  const line = SUPPORTED_LINES.find((candidate) => candidate.major === major);
  if (line) return atLeast(version, line.minimum) ? 'supported' : 'unsupported';
  return major > PREFERRED ? 'newer' : 'unsupported';
}

function supportedText() {
  return SUPPORTED_LINES.map((line) => (line.minimum === `${line.major}.0.0` ? `Node ${line.major}` : `Node ${line.major} from ${line.minimum}`)).join(' or ');
}

/** Exits with a message that says what to install when this Node cannot run Skrya; warns on an untested newer line. */
export function assertSupportedNode(program, version = process.versions.node) {
  const support = nodeSupport(version);
  if (support === 'supported') return;
  if (support === 'newer') {
    process.stderr.write(`${program}: Node v${version} is newer than the lines Skrya is tested on (${supportedText()}); carrying on.\n`);
    return;
  }
  process.stderr.write(
    `${program}: Node v${version} cannot run Skrya: it needs ${supportedText()}.\n` +
    `  Install Node ${PREFERRED} LTS, or run it through npm (\`npm run skrya -- <command>\`), which fetches Node ${PREFERRED} for you.\n`,
  );
  process.exit(1);
}

function cacheDir() {
  return process.env.SKRYA_NODE_CACHE ?? path.join(process.env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'skrya', 'node');
}

/**
 * The path of a Node binary of the given major line: this process's own when it is of that line,
 * otherwise the official binary from the npm registry (package node-<platform>-<arch>), installed
 * once into a cache outside the repository.
 */
export function nodeBinary(major) {
  if (parseVersion(process.versions.node)[0] === major && nodeSupport() === 'supported') return process.execPath;
  const prefix = path.join(cacheDir(), String(major));
  const pkg = `node-${process.platform}-${process.arch}`;
  const binary = path.join(prefix, 'node_modules', pkg, 'bin', 'node');
  if (!fs.existsSync(binary)) {
    process.stderr.write(`skrya: fetching Node ${major} from the npm registry (${pkg}@${major}) into ${prefix}\n`);
    fs.mkdirSync(prefix, { recursive: true });
    const npm = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', prefix, `${pkg}@${major}`], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (npm.status !== 0 || !fs.existsSync(binary)) {
      process.stderr.write(`skrya: could not fetch ${pkg}@${major} through npm (exit ${npm.status ?? npm.error?.message}); install Node ${major} yourself.\n`);
      process.exit(1);
    }
  }
  return binary;
}

/** Runs a script under this Node when it is supported, otherwise under Node's preferred line from npm. */
function execSupported(script, args) {
  let node = process.execPath;
  if (nodeSupport() === 'unsupported') {
    node = nodeBinary(PREFERRED);
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    process.stderr.write(`skrya: Node ${process.version} cannot run Skrya (it needs ${supportedText()}); running under Node ${version} from ${path.dirname(node)}. Install Node ${PREFERRED} to skip this.\n`);
  }
  // The child's bin directory first, so the scripts and tools it starts run on the same Node.
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(node, [script, ...args], { stdio: 'inherit', env });
  // A terminal's Ctrl+C reaches the child by itself (same process group); a signal sent to this
  // process alone (a supervisor's SIGTERM) is passed on. Either way the child decides when to exit.
  process.on('SIGINT', () => {});
  for (const signal of ['SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(signal ? 128 + os.constants.signals[signal] : code ?? 1));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'exec' && rest.length > 0) execSupported(rest[0], rest.slice(1));
  else if (command === 'path' && /^\d+$/.test(rest[0] ?? '')) console.log(nodeBinary(Number(rest[0])));
  else {
    process.stderr.write('usage: node scripts/node-runtime.mjs exec <script> [args...] | path <major>\n');
    process.exit(2);
  }
}
