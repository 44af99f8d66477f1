import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
