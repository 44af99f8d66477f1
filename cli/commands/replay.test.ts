import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createProgressReporter, summaryLines } from './replay.ts';
import { buildReplayReport } from '../../services/replay/index.ts';
import { parseReplayId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';

function capture(isTTY: boolean): { stream: PassThrough & { isTTY?: boolean; columns?: number }; text: () => string } {
  const stream = Object.assign(new PassThrough(), { isTTY, columns: 80 });
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

describe('createProgressReporter', () => {
  it('writes JSON lines off a terminal: the first and last and about twenty between', () => {
    const { stream, text } = capture(false);
    const progress = createProgressReporter(stream);
    for (let done = 0; done <= 400; done += 1) progress.update({ phase: 'replay', done, total: 400 });
    progress.stop();
    const lines = text().trim().split('\n').map((line) => JSON.parse(line) as { phase: string; done: number; total: number });
    expect(lines[0]).toEqual({ phase: 'replay', done: 0, total: 400 });
    expect(lines.at(-1)).toEqual({ phase: 'replay', done: 400, total: 400 });
    expect(lines).toHaveLength(21);
  });

  it('reports an empty range as done', () => {
    const { stream, text } = capture(false);
    createProgressReporter(stream).update({ phase: 'replay', done: 0, total: 0 });
    expect(text()).toBe('{"phase":"replay","done":0,"total":0}\n');
  });

  it('draws a bar on a terminal, not JSON', () => {
    const { stream, text } = capture(true);
    const progress = createProgressReporter(stream);
    progress.update({ phase: 'replay', done: 0, total: 10 });
    progress.update({ phase: 'replay', done: 10, total: 10 });
    progress.stop();
    expect(text()).toContain('replay [');
    expect(text()).toContain('10/10');
    expect(text()).not.toContain('{"phase"');
  });
});

describe('summaryLines', () => {
  it('says where the replay went and whether latest-ingest.json moved', () => {
    const report = buildReplayReport({ tenant: parseTenantId('acme'), topicId: parseTopicId('news'), replayId: parseReplayId('r1'), since: '2026-11-29T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z', model: 'skrya-default@1' }, 4, [], []);
    expect(summaryLines({ dir: '/data/acme/runs/news/replays/r1', report, promoted: null, notPromoted: null })).toEqual([
      'replay r1: acme/news 2026-11-29T00:00:00.000Z .. 2026-11-30T00:00:00.000Z',
      '4 raw results read, 0 rejected; 0 run(s), 0 incomplete',
      '0 new, 0 changed, 0 removed, 0 rescored, 0 unchanged',
      'written to /data/acme/runs/news/replays/r1',
      'latest-ingest.json left as it was (use --promote to replace it)',
    ]);
    expect(summaryLines({ dir: '/d', report, promoted: '/data/latest-ingest.json', notPromoted: null }).at(-1)).toBe('promoted to /data/latest-ingest.json');
    expect(summaryLines({ dir: '/d', report, promoted: null, notPromoted: 'no replayed run is good' }).at(-1)).toBe('not promoted, latest-ingest.json left as it was: no replayed run is good');
  });
});
