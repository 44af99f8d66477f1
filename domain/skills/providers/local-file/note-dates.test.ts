/**
 * A note's date: front matter, then a date in its heading or file name, then its last commit,
 * then its modification time; which one was used is recorded in the raw envelope.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateIn, noteDate, noteHeading } from '../../../text/note-meta.ts';
import { runSkill } from '../../run-skill.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';

describe('dateIn', () => {
  it.each<[string, string | null]>([
    ['analyst-call-2026-11-24', '2026-11-24T00:00:00.000Z'],
    ['meeting_2025_03_14', '2025-03-14T00:00:00.000Z'],
    ['standup 20251203', '2025-12-03T00:00:00.000Z'],
    ['Analyst call notes: AI browsers, 24 November 2026', '2026-11-24T00:00:00.000Z'],
    ['Retro, March 3rd, 2025', '2025-03-03T00:00:00.000Z'],
    ['周会纪要 2026年11月5日', '2026-11-05T00:00:00.000Z'],
    ['2026-02-30 is no day', null],
    ['version 4.1.1 notes', null],
    ['enterprise-buyer-checklist', null],
  ])('%j → %j', (text, date) => {
    expect(dateIn(text)).toBe(date);
  });
});

describe('noteHeading and noteDate', () => {
  const mtime = '2026-12-01T09:00:00.000Z';
  it.each([
    { name: 'front matter first', path: 'a-2020-01-01.md', text: '---\ndate: 2026-11-18\n---\n# Plan for 3 May 2025\n', committed: '2026-11-20T10:00:00.000Z', date: '2026-11-18T00:00:00.000Z', source: 'front-matter' },
    { name: 'a date in the heading', path: 'call-2020-01-01.txt', text: 'Analyst call, 24 November 2026\n\nNotes.', committed: null, date: '2026-11-24T00:00:00.000Z', source: 'heading' },
    { name: 'a date in the file name', path: 'notes/analyst-call-2026-11-24.md', text: '# Analyst call\n\nNotes.', committed: '2026-11-30T10:00:00.000Z', date: '2026-11-24T00:00:00.000Z', source: 'file-name' },
    { name: 'the last commit', path: 'checklist.md', text: '# Checklist\n', committed: '2026-11-20T10:00:00.000Z', date: '2026-11-20T10:00:00.000Z', source: 'git' },
    { name: 'the modification time last', path: 'checklist.md', text: '# Checklist\n', committed: null, date: mtime, source: 'mtime' },
    { name: 'an HTML date meta', path: 'page.html', text: '<html><head><meta name="date" content="2026-11-25"><title>T</title></head></html>', committed: null, date: '2026-11-25T00:00:00.000Z', source: 'front-matter' },
  ])('$name', ({ path: file, text, committed, date, source }) => {
    expect(noteDate({ path: file, text, committed, mtime })).toEqual({ date, source });
  });

  it.each<[string, string, string | null]>([
    ['x.md', '---\ntitle: t\n---\n\nIntro line\n\n## Second-level first\n\n# Later', 'Second-level first'],
    ['x.md', 'Setext title\n============\n\nbody', 'Setext title'],
    ['x.txt', 'Analyst call notes: AI browsers, 24 November 2026\n\nAttendees: two.', 'Analyst call notes: AI browsers, 24 November 2026'],
    ['x.txt', 'One long line without a blank line after it\nand more', null],
    ['x.html', '<title>Page</title><h1>Heading <b>one</b></h1>', 'Heading one'],
  ])('%s heading of %j', (file, text, heading) => {
    expect(noteHeading(file, text)).toBe(heading);
  });
});

describe('local_file dates through the real skill', () => {
  let repo: string;
  beforeAll(async () => {
    repo = await mkdtemp(path.join(tmpdir(), 'skrya-note-dates-'));
    const git = (...args: string[]) => execFileSync('git', args, {
      cwd: repo,
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org', GIT_AUTHOR_DATE: '2026-11-20T10:00:00Z', GIT_COMMITTER_DATE: '2026-11-20T10:00:00Z' },
    });
    git('init', '-q');
    await writeFile(path.join(repo, 'checklist.md'), '# Enterprise buyer checklist\n\nWhat to ask a vendor before approving an AI browser agent for staff.\n');
    await writeFile(path.join(repo, 'call.txt'), 'Analyst call notes: AI browsers, 24 November 2026\n\nAttendees: topic analyst, two IT leads.\n');
    git('add', '.');
    git('commit', '-q', '-m', 'notes');
    await writeFile(path.join(repo, 'draft.md'), '# Draft, not committed yet\n\nStill being written.\n');
    // A fresh clone: every file just written.
    const now = new Date('2026-12-01T09:00:00Z');
    for (const file of ['checklist.md', 'call.txt', 'draft.md']) await utimes(path.join(repo, file), now, now);
  });
  afterAll(async () => {
    await rm(repo, { recursive: true, force: true });
  });

  it('dates come from the heading, the last commit or, for an uncommitted note, the mtime; titles from the first heading', async () => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'local_file', {}, { tenant: 'acme', runId: 'r1', localRoot: repo });
    const byFile = new Map(result.output?.results.map((note) => [path.basename(fileURLToPath(note.url)), note]));
    expect(byFile.get('call.txt')).toMatchObject({ title: 'Analyst call notes: AI browsers, 24 November 2026', published_date: '2026-11-24T00:00:00.000Z' });
    expect(byFile.get('checklist.md')).toMatchObject({ title: 'Enterprise buyer checklist', published_date: '2026-11-20T10:00:00.000Z' });
    expect(byFile.get('draft.md')?.published_date).toBe('2026-12-01T09:00:00.000Z');
    const envelope = JSON.parse(result.raw[0]?.body ?? '{}') as { files: Array<{ path: string; dated_by: string }> };
    expect(Object.fromEntries(envelope.files.map((file) => [file.path, file.dated_by]))).toEqual({ 'call.txt': 'heading', 'checklist.md': 'git', 'draft.md': 'mtime' });
  });
});

describe('local_file decoding', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'skrya-note-bytes-'));
    // A Latin-1 note with no declaration, a UTF-16 note with a BOM, and bytes no charset reads.
    await writeFile(path.join(root, 'latin1.txt'), Buffer.from('Réunion du comité, 3 décembre 2025\n\nLe café était froid, mais la présentation était très réussie à la fin.\n', 'latin1'));
    await writeFile(path.join(root, 'utf16.md'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('# 周会纪要\n\n本周完成了浏览器智能体的权限设计评审。\n', 'utf16le')]));
    await writeFile(path.join(root, 'broken.md'), Buffer.from([0xef, 0xbb, 0xbf, 0x23, 0x20, 0xff, 0xfe, 0xfd]));
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('reads each note in its own encoding and skips, with a reason, the one no charset reads', async () => {
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'local_file', {}, { tenant: 'acme', runId: 'r1', localRoot: root });
    const titles = result.output?.results.map((note) => note.title).sort();
    expect(titles).toEqual(['Réunion du comité, 3 décembre 2025', '周会纪要']);
    expect(JSON.stringify(result.output)).not.toContain('\uFFFD');
    const envelope = JSON.parse(result.raw[0]?.body ?? '{}') as { skipped: Array<{ path: string; reason: string }> };
    expect(envelope.skipped).toEqual([{ path: 'broken.md', reason: expect.stringContaining('unreadable text') }]);
  });
});
