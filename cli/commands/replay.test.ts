import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter, summaryLines } from './replay.ts';
import { buildReplayReport } from '../../services/replay/replay-report.ts';

function capture(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('createProgressReporter', () => {
  it('writes JSON lines off a terminal: the first and last of a phase and about twenty between', () => {
    const { stream, text } = capture(false);
    const progress = createProgressReporter(stream);
    for (let done = 0; done <= 400; done += 1) progress.update({ phase: 'read', done, total: 400 });
    for (let done = 1; done <= 3; done += 1) progress.update({ phase: 'replay', done, total: 3 });
    progress.stop();
    const lines = text().trim().split('\n').map((line) => JSON.parse(line) as { phase: string; done: number; total: number });
    const read = lines.filter((line) => line.phase === 'read');
    expect(read[0]).toEqual({ phase: 'read', done: 0, total: 400 });
    expect(read.at(-1)).toEqual({ phase: 'read', done: 400, total: 400 });
    expect(read).toHaveLength(21);
    expect(lines.filter((line) => line.phase === 'replay').map((line) => line.done)).toEqual([1, 2, 3]);
  });

  it('reports an empty range as done', () => {
    const { stream, text } = capture(false);
    createProgressReporter(stream).update({ phase: 'read', done: 0, total: 0 });
    expect(text()).toBe('{"phase":"read","done":0,"total":0}\n');
  });

  it('draws a bar per phase on a terminal, not JSON', () => {
    const { stream, text } = capture(true);
    const progress = createProgressReporter(stream);
    progress.update({ phase: 'read', done: 0, total: 10 });
    progress.update({ phase: 'read', done: 10, total: 10 });
    progress.update({ phase: 'replay', done: 4, total: 4 });
    progress.stop();
    expect(text()).toContain('read   [');
    expect(text()).toContain('10/10');
    expect(text()).toContain('replay [');
    expect(text()).not.toContain('{"phase"');
  });
});

describe('summaryLines', () => {
  it('says where the replay went and whether latest-ingest.json moved', () => {
    const report = buildReplayReport({ tenant: 'acme', topicId: 'news', replayId: 'r1', since: '2026-11-29T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z' }, 4, [], []);
    expect(summaryLines({ dir: '/data/acme/runs/news/replays/r1', report, promoted: null })).toEqual([
      'replay r1: acme/news 2026-11-29T00:00:00.000Z .. 2026-11-30T00:00:00.000Z',
      '4 raw results read, 0 rejected; 0 run(s), 0 incomplete',
      '0 new, 0 changed, 0 removed, 0 rescored, 0 unchanged',
      'written to /data/acme/runs/news/replays/r1',
      'latest-ingest.json left as it was (use --promote to replace it)',
    ]);
    expect(summaryLines({ dir: '/d', report, promoted: '/data/latest-ingest.json' }).at(-1)).toBe('promoted to /data/latest-ingest.json');
  });
});
