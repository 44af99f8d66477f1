import { mkdtemp, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSkill } from '../../run-skill.ts';
import { createTestRegistry, type TestRegistry } from '../../testing/test-registry.ts';
import { splitFrontMatter } from './skill.ts';

let base: string;
let root: string;
let harness: TestRegistry;

beforeAll(async () => {
  base = await mkdtemp(path.join(tmpdir(), 'skrya-local-file-'));
  root = path.join(base, 'notes-root');
  await mkdir(path.join(root, 'kafka'), { recursive: true });
  await mkdir(path.join(root, '.obsidian'), { recursive: true });
  await writeFile(path.join(base, 'secret.md'), '# outside the root\n\npassword=hunter2\n');
  await writeFile(path.join(root, 'kafka', 'upgrade.md'), '---\ntitle: "Kafka 4.0 upgrade plan"\ndate: 2025-03-12\n---\n\n# Upgrade notes\n\nEvery cluster must run in KRaft mode before the upgrade; clients older than 2.1 stop working.\n');
  await writeFile(path.join(root, 'kafka', 'heading-only.md'), '# Consumer lag runbook\n\nWhen lag grows, first check whether the consumer group is rebalancing over and over again.\n');
  await writeFile(path.join(root, 'registry.html'), '<!doctype html><html lang="en"><head><title>Registry comparison</title></head><body><article><h1>Registry comparison</h1><p>Apicurio and Confluent Schema Registry both speak the Confluent REST API, and both store Avro, Protobuf and JSON Schema artifacts for the producers.</p></article></body></html>');
  await writeFile(path.join(root, 'meeting_2025-03-14.txt'), 'Decided to keep every raw provider response verbatim so that replays can re-score without fetching again.\n');
  await writeFile(path.join(root, 'image.png'), 'not a note');
  await writeFile(path.join(root, '.obsidian', 'workspace.md'), '# editor state');
  await symlink(path.join(base, 'secret.md'), path.join(root, 'escape.md'));
  const march14 = new Date('2025-03-14T17:30:00Z');
  await utimes(path.join(root, 'meeting_2025-03-14.txt'), march14, march14);
  harness = await createTestRegistry();
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

const run = (input: Record<string, unknown>, localRoot: string | null = root) =>
  runSkill(harness.registry, 'local_file', input, { tenant: 'acme', runId: 'r1', localRoot });

describe('local_file', () => {
  it('reads markdown, HTML and text notes with titles and dates from the right place', async () => {
    const result = await run({});
    expect(result.status).toBe('ok');
    const byFile = new Map(result.output?.results.map((note) => [path.basename(new URL(note.url).pathname), note]));
    expect([...byFile.keys()].sort()).toEqual(['heading-only.md', 'meeting_2025-03-14.txt', 'registry.html', 'upgrade.md']);
    expect(byFile.get('upgrade.md')).toMatchObject({ title: 'Kafka 4.0 upgrade plan', published_date: '2025-03-12T00:00:00.000Z', language: 'en', url: pathToFileURL(path.join(root, 'kafka', 'upgrade.md')).toString() });
    expect(byFile.get('heading-only.md')?.title).toBe('Consumer lag runbook');
    expect(byFile.get('registry.html')).toMatchObject({ title: 'Registry comparison', language: 'en' });
    expect(byFile.get('registry.html')?.content).toContain('Confluent REST API');
    // The date in the file name, not the modification time (issue 22: mtime is the last resort).
    expect(byFile.get('meeting_2025-03-14.txt')).toMatchObject({ title: 'meeting 2025 03 14', published_date: '2025-03-14T00:00:00.000Z' });
  });

  it('never reads a symlink that leads outside the root, and says so in the raw envelope', async () => {
    const result = await run({});
    expect(result.raw[0]?.body).not.toContain('hunter2');
    expect(JSON.parse(result.raw[0]?.body ?? '{}').skipped).toEqual([{ path: 'escape.md', reason: 'links outside the local root' }]);
  });

  it.each([
    { name: 'a parent path', input: { path: '../secret.md' } },
    { name: 'an absolute path elsewhere', input: { path: '/etc' } },
    { name: 'a path that only looks inside', input: { path: 'kafka/../../secret.md' } },
    { name: 'a symlink to outside', input: { path: 'escape.md' } },
  ])('refuses $name with BLOCKED_URL', async ({ input }) => {
    expect(await run(input)).toMatchObject({ status: 'error', code: 'BLOCKED_URL' });
  });

  it('refuses everything when the caller allowed no root', async () => {
    expect(await run({}, null)).toMatchObject({ status: 'error', code: 'BLOCKED_URL' });
  });

  it('reads one note or a sub-folder, newest first, at most `count`', async () => {
    expect((await run({ path: 'kafka/upgrade.md' })).output?.results).toHaveLength(1);
    const newest = await run({ count: 1 });
    expect(newest.output?.results).toHaveLength(1);
    expect(newest.output?.results[0]?.title).not.toBe('meeting 2025 03 14');
  });

  it('reports EMPTY_RESULTS for a folder without notes', async () => {
    await mkdir(path.join(root, 'empty'), { recursive: true });
    expect(await run({ path: 'empty' })).toMatchObject({ status: 'error', code: 'EMPTY_RESULTS' });
  });
});

describe('splitFrontMatter', () => {
  it.each([
    ['---\ntitle: A\ndate: 2025-01-01\n---\nbody', { title: 'A', date: '2025-01-01' }, 'body'],
    ['---\ntitle: "Quoted: yes"\n---\n', { title: 'Quoted: yes' }, ''],
    ['no front matter\n---\n', {}, 'no front matter\n---\n'],
  ])('%j', (text, fields, body) => {
    expect(splitFrontMatter(text)).toEqual({ fields, body });
  });
});
