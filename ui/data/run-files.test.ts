import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeOf } from '../../test/support/error-code.ts';
import { rawFilesOfRun, readRawFile, readRun } from './run-files.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-ui-files-'));
const raw = path.join(root, 'acme', 'runs', 'news', 'ingest', 'raw');
fs.mkdirSync(raw, { recursive: true });
fs.writeFileSync(path.join(raw, '20261130T000000000Z-feed_reader-001.txt'), 'run: run-1\n\n<rss/>');
fs.writeFileSync(path.join(raw, '20261201T000000000Z-feed_reader-001.txt'), 'another run');
fs.writeFileSync(path.join(root, 'acme', 'secret.txt'), 'not a raw file');
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

describe('raw response files', () => {
  it('lists the files of one run only', () => {
    expect(rawFilesOfRun(root, parseTenantId('acme'), parseTopicId('news'), '20261130T000000000Z')).toEqual(['20261130T000000000Z-feed_reader-001.txt']);
  });

  it('reads a file the raw sink wrote', () => {
    expect(readRawFile(root, parseTenantId('acme'), parseTopicId('news'), '20261130T000000000Z-feed_reader-001.txt')).toContain('<rss/>');
  });

  it.each([
    ['../../secret.txt'],
    ['..%2F..%2Fsecret.txt'],
    ['20261130T000000000Z-feed_reader-001.txt/../../../secret.txt'],
    ['/etc/passwd'],
    ['20261130T000000000Z-../../x-001.txt'],
  ])('refuses %s before touching a path', (name) => {
    expect(codeOf(() => readRawFile(root, parseTenantId('acme'), parseTopicId('news'), name))).toBe('INVALID_INPUT');
  });

  it('refuses tenant and topic ids that are not ids', () => {
    expect(codeOf(() => readRawFile(root, parseTenantId('..'), parseTopicId('news'), '20261130T000000000Z-feed_reader-001.txt'))).toBe('INVALID_ID');
    expect(codeOf(() => readRun(root, parseTenantId('acme'), parseTopicId('news/../..'), '20261130T000000000Z'))).toBe('INVALID_ID');
    expect(codeOf(() => readRun(root, parseTenantId('acme'), parseTopicId('news'), '../latest-ingest'))).toBe('INVALID_INPUT');
  });
});
