/**
 * Fuzzing the sources.json loader: whatever the text (random bytes, random JSON, a valid file
 * mangled, a valid file with one field replaced, absurd nesting), lint never throws, every problem
 * points inside the text with a field and a message, and loading agrees with lint: it succeeds
 * exactly when lint finds nothing, and otherwise throws CONFIG_INVALID listing those problems.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import { ID_PATTERN } from '../../runtime/ids.ts';
import { CAPABILITIES } from '../../schemas/ingest.ts';
import { MAX_NESTING, formatProblem, lintSourcesText, loadSourcesFile } from './sources-file.ts';

const VALID = {
  cadence: '0 */6 * * *',
  recency_hours: 72,
  intent: 'status',
  boost_domains: ['kafka.apache.org'],
  sources: [
    { id: 'kafka-feeds', type: 'runtime-retrieval', capabilities: ['rss_feed'], queries: ['Kafka KRaft'], languages: ['en'], max_items: 5, feeds: ['feeds/kafka.xml'] },
    { id: 'legacy-list', type: 'manual', items: ['x'] },
  ],
};
const VALID_TEXT = `${JSON.stringify(VALID, null, 2)}\n`;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-sources-fuzz-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
/** Lints and loads one text; checks every property that must hold whatever the text is. */
function checkText(text: string): void {
  const file = path.join(dir, `sources-${(counter += 1)}.json`);
  const problems = lintSourcesText(file, text);
  const lines = text.split('\n').length;
  for (const problem of problems) {
    expect(problem.file).toBe(file);
    expect(problem.line).toBeGreaterThanOrEqual(1);
    expect(problem.line).toBeLessThanOrEqual(lines);
    expect(problem.column).toBeGreaterThanOrEqual(1);
    expect(problem.field.length).toBeGreaterThan(0);
    expect(problem.message.length).toBeGreaterThan(0);
  }
  fs.writeFileSync(file, text);
  let loaded: ReturnType<typeof loadSourcesFile> | null = null;
  let failure: unknown = null;
  try {
    loaded = loadSourcesFile(file);
  } catch (error) {
    failure = error;
  }
  fs.rmSync(file);
  if (problems.length === 0) {
    expect(failure).toBeNull();
    // What loads is what the monitor can use.
    for (const source of loaded!.sources) {
      expect(source.id).toMatch(ID_PATTERN);
      expect(source.capabilities.length).toBeGreaterThan(0);
      for (const capability of source.capabilities) expect(CAPABILITIES).toContain(capability);
    }
    expect(loaded!.recencyHours).toBeGreaterThan(0);
  } else {
    expect(failure).toBeInstanceOf(SkryaError);
    expect((failure as SkryaError).code).toBe('CONFIG_INVALID');
    expect((failure as SkryaError).message).toBe(problems.map(formatProblem).join('\n'));
  }
}

/** Edits that mangle a text: cut a stretch, insert junk, repeat a stretch, swap a character. */
type Edit =
  | { kind: 'cut'; at: number; length: number }
  | { kind: 'repeat'; at: number; length: number }
  | { kind: 'insert'; at: number; junk: string }
  | { kind: 'swap'; at: number; char: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), junk: fc.string({ unit: 'binary', maxLength: 20 }) }),
  fc.record({ kind: fc.constant('repeat' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 40 }) }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), char: fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\n', '\u0000', '\uFEFF', 'é') }),
);

function applyEdits(text: string, edits: Edit[]): string {
  let result = text;
  for (const change of edits) {
    const at = result.length === 0 ? 0 : change.at % result.length;
    if (change.kind === 'cut') result = result.slice(0, at) + result.slice(at + change.length);
    else if (change.kind === 'insert') result = result.slice(0, at) + change.junk + result.slice(at);
    else if (change.kind === 'repeat') result = result.slice(0, at + change.length) + result.slice(at);
    else result = result.slice(0, at) + change.char + result.slice(at + 1);
  }
  return result;
}

/** Where one field of the valid file can be replaced by any JSON value. */
const FIELD_PATHS: Array<Array<string | number>> = [
  [], ['cadence'], ['recency_hours'], ['intent'], ['boost_domains'], ['sources'], ['sources', 0], ['sources', 0, 'id'], ['sources', 0, 'type'],
  ['sources', 0, 'capabilities'], ['sources', 0, 'capabilities', 0], ['sources', 0, 'queries'], ['sources', 0, 'max_items'], ['sources', 0, 'enabled'],
  ['sources', 0, 'binding'], ['sources', 0, 'feeds'], ['sources', 1], ['sources', 2],
];

function replaced(paths: Array<string | number>, value: unknown): unknown {
  if (paths.length === 0) return value;
  const copy = structuredClone(VALID) as Record<string | number, unknown>;
  let node: Record<string | number, unknown> = copy;
  for (const step of paths.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  node[paths.at(-1)!] = value;
  return copy;
}

describe('the sources.json loader under fuzzing', () => {
  it('accepts the unmangled file (the fuzzing starts from a valid one)', () => {
    expect(lintSourcesText('sources.json', VALID_TEXT)).toEqual([]);
  });

  it('never throws on arbitrary text, and load agrees with lint', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 400 }), checkText), { numRuns: 300 });
  });

  it('never throws on arbitrary JSON', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 6 }), fc.boolean(), (value, pretty) => checkText(JSON.stringify(value, null, pretty ? 2 : 0) ?? 'null')), { numRuns: 300 });
  });

  it('never throws on a valid file mangled by random edits', () => {
    fc.assert(fc.property(fc.array(edit, { minLength: 1, maxLength: 5 }), (edits) => checkText(applyEdits(VALID_TEXT, edits))), { numRuns: 400 });
  });

  it('never throws when one field of a valid file holds any JSON value', () => {
    fc.assert(fc.property(fc.constantFrom(...FIELD_PATHS), fc.jsonValue({ maxDepth: 4 }), (paths, value) => checkText(`${JSON.stringify(replaced(paths, value), null, 2)}\n`)), { numRuns: 400 });
  });

  it.each([
    ['arrays', (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`],
    ['objects inside a source', (depth: number) => `{"sources":[{"id":"a","type":"runtime-retrieval","capabilities":["web_search"],"x":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}]}`],
    ['brackets after a comment holding a quote', (depth: number) => `// "\n{"sources":[${'['.repeat(depth)}${']'.repeat(depth)}]}`],
  ])('reports %s nested far too deep as one syntax problem, without overflowing the stack', (_case, nested) => {
    for (const depth of [MAX_NESTING + 1, 10_000, 200_000]) {
      const problems = lintSourcesText('sources.json', nested(depth));
      expect(problems).toEqual([expect.objectContaining({ field: '(syntax)', message: `nested deeper than ${MAX_NESTING} levels` })]);
    }
    // Nesting up to the limit is left to the ordinary checks.
    expect(() => lintSourcesText('sources.json', nested(MAX_NESTING - 5))).not.toThrow();
  });
});
