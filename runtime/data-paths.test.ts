import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { codeOf } from '../test/support/error-code.ts';
import { ingestDir, listTopics, replayDir, sourcesFile, topicDir } from './data-paths.ts';
import { parseReplayId, parseTenantId, parseTopicId } from './ids.ts';

let root: string;

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-paths-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('data paths', () => {
  it('lays out the tree of BLUEPRINT §3', () => {
    expect(topicDir(root, parseTenantId('acme'), parseTopicId('ai-browser'))).toBe(path.join(root, 'acme', 'topics', 'ai-browser'));
    expect(sourcesFile(root, parseTenantId('acme'), parseTopicId('ai-browser'))).toBe(path.join(root, 'acme', 'topics', 'ai-browser', 'sources.json'));
    expect(ingestDir(root, parseTenantId('acme'), parseTopicId('ai-browser'))).toBe(path.join(root, 'acme', 'runs', 'ai-browser', 'ingest'));
    expect(replayDir(root, parseTenantId('acme'), parseTopicId('ai-browser'), parseReplayId('r1'))).toBe(path.join(root, 'acme', 'runs', 'ai-browser', 'replays', 'r1'));
  });

  it.each([
    ['topicDir', () => topicDir(root, parseTenantId('../x'), parseTopicId('ai-browser'))],
    ['sourcesFile', () => sourcesFile(root, parseTenantId('acme'), parseTopicId('../x'))],
    ['ingestDir', () => ingestDir(root, parseTenantId('..'), parseTopicId('ai-browser'))],
    ['replayDir', () => replayDir(root, parseTenantId('acme'), parseTopicId('ai-browser'), parseReplayId('../../x'))],
  ])('%s refuses ids that would escape the root', (_name, run) => {
    expect(codeOf(run)).toBe('INVALID_ID');
  });
});

describe('listTopics', () => {
  function mkdir(...segments: string[]) {
    fs.mkdirSync(path.join(root, ...segments), { recursive: true });
  }

  it('lists every tenant/topic in a stable order and ignores invalid names and plain files', () => {
    mkdir('beta', 'topics', 'rust-async');
    mkdir('acme', 'topics', 'kafka-ops');
    mkdir('acme', 'topics', 'ai-browser');
    mkdir('acme', 'topics', 'Bad_Name');
    mkdir('acme', 'topics', '.hidden');
    mkdir('Upper', 'topics', 'x');
    mkdir('.git', 'topics', 'x');
    mkdir('no-topics', 'runs', 'x');
    fs.writeFileSync(path.join(root, 'acme', 'topics', 'file-not-dir'), '');
    fs.writeFileSync(path.join(root, 'stray-file'), '');
    expect(listTopics(root)).toEqual([
      { tenant: 'acme', topicId: 'ai-browser' },
      { tenant: 'acme', topicId: 'kafka-ops' },
      { tenant: 'beta', topicId: 'rust-async' },
    ]);
  });

  it('returns nothing for a missing root', () => {
    expect(listTopics(path.join(root, 'does-not-exist'))).toEqual([]);
  });
});
