/**
 * The image holds the folders its entry points load, and no engine builds it here (no container
 * engine on this machine): so the Dockerfile's COPY lines are checked against the modules the CLI
 * and the model training reach, import by import.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const ENTRY_POINTS = ['bin/skrya.js', 'scripts/train-models.ts'];
// Static imports, re-exports, import('…') and createRequire(import.meta.url)('…') with a literal
// path; type-only imports are erased.
const IMPORT = /(?:^|\n)\s*(?:import|export)\s+(?!type\s)[^'"]*?from\s+'(\.{1,2}\/[^']+)'|(?:import|createRequire\(import\.meta\.url\))\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

/** Every repository file the entry points load, following relative imports. */
function reachableModules(entries: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const pending = [...entries];
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const source = readFileSync(path.join(ROOT, file), 'utf8');
    for (const match of source.matchAll(IMPORT)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] ?? match[2]!));
      if (existsSync(path.join(ROOT, target))) pending.push(target);
    }
  }
  return seen;
}

function copiedFolders(dockerfile: string): Set<string> {
  return new Set([...dockerfile.matchAll(/^COPY\s+(?!--)(\S+)\s+\.\/\S*$/gm)].map((match) => match[1]!));
}

describe('the Dockerfile', () => {
  it('copies every folder the CLI and the model training load', () => {
    const folders = new Set([...reachableModules(ENTRY_POINTS)].map((file) => file.split('/')[0]!));
    expect(folders.size).toBeGreaterThan(5);
    const copied = copiedFolders(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
    expect([...folders].filter((folder) => !copied.has(folder))).toEqual([]);
  });
});
