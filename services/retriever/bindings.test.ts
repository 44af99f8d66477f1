import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fillTemplate, loadBindingsFile, parseBindFlag, runBinding, splitCommandLine, type BindingValues } from './bindings.ts';

const SCRIPT = path.resolve('test/fixtures/bin/fake-search.mjs');
const VALUES: BindingValues = { query: 'kafka "kraft"; rm -rf /', since: '2026-11-01T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z', languages: ['en', 'zh-CN'], maxItems: 20, topicId: 'kraft' };
const signal = new AbortController().signal;

describe('command templates', () => {
  it.each([
    ['tool --q {query}', ['tool', '--q', '{query}']],
    ["tool 'two words' \"and {query}\"", ['tool', 'two words', 'and {query}']],
    ['tool a\\ b', ['tool', 'a b']],
  ])('splits %s like a shell, without one', (line, words) => {
    expect(splitCommandLine(line)).toEqual(words);
  });

  it('substitutes request fields inside single arguments, so a query can never become a second argument or a command', () => {
    const binding = parseBindFlag(`web_search=${process.execPath} ${SCRIPT} --query {query} --window {since}..{until} --lang {languages} --max {max_items}`);
    expect(fillTemplate(binding, VALUES).slice(2)).toEqual(['--query', 'kafka "kraft"; rm -rf /', '--window', '2026-11-01T00:00:00.000Z..2026-11-30T00:00:00.000Z', '--lang', 'en,zh-CN', '--max', '20']);
  });

  it.each([
    ['no capability', "='tool {query}'"],
    ['an unknown capability', "brave_search='tool {query}'"],
    ['an unknown placeholder', "web_search='tool {api_key}'"],
    ['an unclosed quote', "web_search=tool 'open"],
    ['an empty command', 'web_search='],
  ])('refuses %s with INVALID_INPUT', (_case, flag) => {
    expect(() => parseBindFlag(flag)).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });

  it('refuses a bindings file inside the topic tree, and reads one outside it', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-bindings-'));
    const inside = path.join(root, 'data', 'acme', 'topics', 'kraft', 'bindings.json');
    fs.mkdirSync(path.dirname(inside), { recursive: true });
    const content = JSON.stringify({ web_search: { command: 'tool {query}', producer: 'agent-reach', timeout_ms: 5000 } });
    fs.writeFileSync(inside, content);
    expect(() => loadBindingsFile(inside, [path.join(root, 'data')])).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
    const outside = path.join(root, 'bindings.json');
    fs.writeFileSync(outside, content);
    expect(loadBindingsFile(outside, [path.join(root, 'data')])).toEqual([expect.objectContaining({ capability: 'web_search', producer: 'agent-reach', timeoutMs: 5000 })]);
    fs.rmSync(root, { recursive: true, force: true });
  });
});

describe('running a bound command', () => {
  it('returns its output as the provider response, normalized into results', async () => {
    const binding = parseBindFlag(`web_search=${process.execPath} ${SCRIPT} --query {query}`);
    const result = await runBinding(binding, { ...VALUES, query: 'kafka kraft' }, signal);
    expect(result.status).toBe('ok');
    expect(result.output?.results.map((item) => item.url)).toEqual(['https://news.example/kafka%20kraft/week', 'https://blog.example/kafka%20kraft/deep-dive']);
    expect(result.raw[0]).toMatchObject({ skill: 'binding:web_search', contentType: 'application/json' });
  });

  it('stops a command that outlives its timeout: ADAPTER_TIMEOUT', async () => {
    const binding = { ...parseBindFlag(`web_search=${process.execPath} ${SCRIPT} --sleep 10000`), timeoutMs: 300 };
    const result = await runBinding(binding, VALUES, signal);
    expect(result).toMatchObject({ status: 'error', code: 'ADAPTER_TIMEOUT' });
    expect(result.durationMs).toBeLessThan(5_000);
  });

  it('cuts oversized output at the cap and says so', async () => {
    const binding = { ...parseBindFlag(`web_search=${process.execPath} ${SCRIPT} --bytes 3000000`), maxOutputBytes: 4096 };
    const result = await runBinding(binding, VALUES, signal);
    expect(result.status).toBe('ok');
    expect(result.message).toMatch(/^OUTPUT_TRUNCATED: output cut at 4096 bytes/);
    expect(result.raw[0]!.body.length).toBe(4096);
  });

  it('reports a command that fails or cannot start', async () => {
    expect(await runBinding(parseBindFlag(`web_search=${process.execPath} -e process.exit(3)`), VALUES, signal)).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
    expect(await runBinding(parseBindFlag('web_search=/nonexistent/tool {query}'), VALUES, signal)).toMatchObject({ status: 'error', code: 'NOT_CONFIGURED', message: expect.stringContaining('cannot be connected automatically') });
  });
});
