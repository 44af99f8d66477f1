import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyJsonLines } from './classify-jsonl.ts';
import { registerClassifyCommand } from './classify.ts';

async function runClassify(args: string[]): Promise<string> {
  const program = new Command('skrya').exitOverride();
  registerClassifyCommand(program);
  let printed = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  });
  await program.parseAsync(['node', 'skrya', 'classify', ...args]);
  return printed;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('skrya classify', () => {
  it('prints one JSON object with --json', async () => {
    const printed = await runClassify(['--json', 'Rust 和 Go 哪个好']);
    expect(printed.trim().split('\n')).toHaveLength(1);
    const result: unknown = JSON.parse(printed);
    expect(result).toMatchObject({ query: 'Rust 和 Go 哪个好', intent: 'comparison', mode: 'deep', freshness: 'py' });
    expect(result).toHaveProperty('subQueries', expect.arrayContaining(['Rust vs Golang']));
    expect(result).toHaveProperty('signals', expect.arrayContaining([expect.objectContaining({ intent: 'comparison', span: [5, 6] })]));
  });

  it('prints a readable report by default, with each signal and the words it matched', async () => {
    const printed = await runClassify(['what is 提示词注入']);
    expect(printed).toMatch(/^intent {6}factual$/mu);
    expect(printed).toMatch(/^mode {8}answer$/mu);
    expect(printed).toMatch(/^freshness {3}-$/mu);
    expect(printed).toContain('"what is" [0, 7)');
    expect(printed).toMatch(/^ {2}2\. what is prompt injection$/mu);
  });

  it('joins unquoted words into one query', async () => {
    expect(JSON.parse(await runClassify(['--json', 'latest', 'kafka', 'news']))).toMatchObject({ query: 'latest kafka news', intent: 'news', freshness: 'pd' });
  });

  it('says when no signal matched', async () => {
    expect(await runClassify(['量子计算'])).toContain('(none: exploratory is the default)');
  });

  it.each([[[]], [['   ']]])('rejects an empty query %j with INVALID_INPUT (exit 2)', async (args) => {
    await expect(runClassify(args)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('skrya classify --jsonl', () => {
  const now = new Date('2026-12-01T00:00:00Z');

  it('classifies every line in one process, one JSON result a line in input order, keeping ids', () => {
    const text = ['{"id": "a", "query": "Rust 和 Go 哪个好"}', '"what is 提示词注入"', '', '{"id": 7, "query": "latest kafka news", "intent": "ignored"}'].join('\n');
    const lines = classifyJsonLines(text, 'queries.jsonl', now).trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line.id, line.query, line.intent])).toEqual([
      ['a', 'Rust 和 Go 哪个好', 'comparison'],
      [undefined, 'what is 提示词注入', 'factual'],
      [7, 'latest kafka news', 'news'],
    ]);
    // Each result keeps the rule evidence and adds the model's probabilities.
    expect(lines[0]).toHaveProperty('signals', expect.arrayContaining([expect.objectContaining({ intent: 'comparison' })]));
    expect(lines[0]).toHaveProperty('ruleIntent', 'comparison');
    expect(lines[0]).toHaveProperty('model.probabilities.comparison', expect.any(Number));
  });

  it.each([
    ['broken JSON', '"ok"\n{oops', 2],
    ['an object without a query', '"ok"\n"fine"\n{"id": "x"}', 3],
    ['a blank query', '{"query": "   "}', 1],
    ['a query that is not a string', '{"query": 7}', 1],
    ['an id that is neither string nor number', '"ok"\n{"id": null, "query": "kafka"}', 2],
    ['a list', '["kafka"]', 1],
  ])('fails on %s with INVALID_INPUT naming the line', (_name, text, line) => {
    expect(() => classifyJsonLines(text, 'q.jsonl', now)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT', message: expect.stringContaining(`q.jsonl line ${line}`) }));
  });

  it('reads a file given to --jsonl', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skrya-classify-'));
    const file = join(dir, 'queries.jsonl');
    await writeFile(file, '{"id": "q1", "query": "how to add swap on ubuntu"}\n');
    const printed = await runClassify(['--jsonl', file]);
    expect(JSON.parse(printed)).toMatchObject({ id: 'q1', intent: 'tutorial' });
  });

  it('says which file it cannot read', async () => {
    await expect(runClassify(['--jsonl', '/nonexistent/skrya/queries.jsonl'])).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('skrya classify start-up', () => {
  // What one run loads decides how soon it answers: the cached model and the code that applies it,
  // not the corpora the model was trained on (and their HTML parser), nor zod.
  it('loads no training corpus, HTML parser or zod when the model is cached', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skrya-classify-modules-'));
    const hook = join(dir, 'record-modules.mjs');
    const list = join(dir, 'modules.txt');
    await writeFile(hook, [
      "import { registerHooks } from 'node:module';",
      "import { writeFileSync } from 'node:fs';",
      'const loaded = [];',
      'registerHooks({ load(url, context, next) { loaded.push(url); return next(url, context); } });',
      `process.on('exit', () => writeFileSync(${JSON.stringify(list)}, loaded.join('\\n')));`,
    ].join('\n'));
    const cli = fileURLToPath(new URL('../../bin/skrya.js', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', hook, cli, 'classify', 'how to add swap on ubuntu'], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^intent {6}tutorial$/mu);
    const loaded = (await readFile(list, 'utf8')).split('\n');
    expect(loaded).toContainEqual(expect.stringMatching(/domain\/learned\/logistic\.ts$/u));
    expect(loaded.filter((url) => /\/node_modules\/(?:zod|htmlparser2|entities)\/|\/domain\/intent\/(?:corpus|real-queries)\/|intent-training-set\.ts$/u.test(url))).toEqual([]);
  });
});
