import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import { createLogger } from '../../runtime/logger.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { createScorePool, type ScorePool } from '../scorer/index.ts';
import { createReplayStages } from './replay-stages.ts';
import { feedResponse, jsonSerde, requestAt, rss, runEnd, storedRecords } from './testing/replay-fixtures.ts';

const REQUEST_A = requestAt('2026-11-29T10:00:00.000Z');
const REQUEST_B = requestAt('2026-11-30T10:00:00.000Z');
const FEED_1 = rss(['Kafka 4.1 release brings faster KRaft failover', 'KRaft migration guide for Kafka release upgrades']);
const FEED_2 = rss(['Kafka Streams release notes explained']);

const dirs: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-replay-stages-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const workers = createScorePool(2);
afterAll(() => workers.close());

/** Pushes the records one by one, as the reader streams them, then finishes; `afterEach` sees the files once the writes a push started have landed. */
async function run(values: Array<RawResult | Buffer>, options: { targetDir?: string; afterEach?: (pushed: number) => void; scorePool?: ScorePool } = {}) {
  const { targetDir = tempDir(), afterEach, scorePool } = options;
  const stages = createReplayStages({ serde: jsonSerde(), logger: createLogger({ level: 'silent' }), runTimeoutMs: 60_000, targetDir, scorePool });
  let pushed = 0;
  for (const record of storedRecords(values)) {
    await stages.push(record);
    if (afterEach) {
      await stages.settled();
      afterEach(++pushed);
    }
  }
  return stages.finish();
}

/** Every file under the folder with its text, by path. */
function filesUnder(dir: string): Array<[string, string]> {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).sort().map((file) => [file, fs.statSync(path.join(dir, file)).isFile() ? fs.readFileSync(path.join(dir, file), 'utf8') : '']);
}

function readDocument(dir: string, file: string): { run_id: string; items: Array<{ title: string }>; stats: { complete: boolean; incomplete_reason: string | null } } {
  return JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as never;
}

describe('replayStages', () => {
  it('runs scorer, collector and sink over a whole run and writes its files', async () => {
    const dir = tempDir();
    // Streaming: the run's file exists as soon as its end marker was pushed, before finish().
    const filesAfterPush: string[][] = [];
    const result = await run([feedResponse('run-a', REQUEST_A, 0, FEED_1), feedResponse('run-a', REQUEST_A, 1, FEED_2), runEnd('run-a', REQUEST_A, 2)], { targetDir: dir, afterEach: () => filesAfterPush.push(fs.readdirSync(dir).sort()) });
    expect(result.rejected).toEqual([]);
    expect(result.runs).toEqual([{ runId: 'run-a', requestedAt: '2026-11-29T10:00:00.000Z', file: 'normalized/20261129T100000000Z.json', complete: true, incompleteReason: null, items: 3 }]);
    expect(fs.readdirSync(dir).sort()).toEqual(['digest.md', 'evidence-memory.json', 'latest-ingest.json', 'normalized']);
    expect(fs.readFileSync(path.join(dir, 'latest-ingest.json'), 'utf8')).toBe(fs.readFileSync(path.join(dir, result.runs[0]!.file), 'utf8'));
    expect(readDocument(dir, 'latest-ingest.json').items.map((item) => item.title).sort()).toEqual(['KRaft migration guide for Kafka release upgrades', 'Kafka 4.1 release brings faster KRaft failover', 'Kafka Streams release notes explained']);
    expect(filesAfterPush).toEqual([[], [], ['digest.md', 'evidence-memory.json', 'latest-ingest.json', 'normalized']]);
  });

  it.each<{ name: string; values: RawResult[]; complete: boolean; reason: string | null }>([
    { name: 'a marker after the range', values: [feedResponse('run-a', REQUEST_A, 0, FEED_1), feedResponse('run-a', REQUEST_A, 1, FEED_2)], complete: false, reason: 'no run-end marker within the replay range' },
    { name: 'a response before the range', values: [feedResponse('run-a', REQUEST_A, 1, FEED_2), runEnd('run-a', REQUEST_A, 2)], complete: false, reason: '1 of 2 provider responses are before the replay range' },
    { name: 'every response in the range', values: [feedResponse('run-a', REQUEST_A, 0, FEED_1), runEnd('run-a', REQUEST_A, 1)], complete: true, reason: null },
  ])('closes a run with $name as complete=$complete', async ({ values, complete, reason }) => {
    const dir = tempDir();
    const result = await run(values, { targetDir: dir });
    expect(result.runs.map((entry) => [entry.complete, entry.incompleteReason])).toEqual([[complete, reason]]);
    expect(readDocument(dir, result.runs[0]!.file).stats).toMatchObject({ complete, incomplete_reason: reason });
  });

  it('rejects undecodable inputs and responses no parser reads, with their codes, and the run still closes', async () => {
    const result = await run([
      Buffer.from('not json'),
      feedResponse('run-a', REQUEST_A, 0, FEED_1),
      feedResponse('run-a', REQUEST_A, 1, FEED_2, { producerName: 'retired_provider' }),
      runEnd('run-a', REQUEST_A, 2),
    ]);
    expect(result.rejected.map((entry) => [entry.offset, entry.stage, entry.code])).toEqual([['0', 'decode', 'UNDECODABLE'], ['2', 'scorer', 'NORMALIZE_FAILED']]);
    expect(result.runs).toMatchObject([{ runId: 'run-a', complete: true, items: 2 }]);
  });

  it('replays interleaved runs, lists them by file, and latest-ingest.json holds the newest', async () => {
    const dir = tempDir();
    const result = await run([
      feedResponse('run-b', REQUEST_B, 0, FEED_2),
      feedResponse('run-a', REQUEST_A, 0, FEED_1),
      runEnd('run-b', REQUEST_B, 1),
      runEnd('run-a', REQUEST_A, 1),
    ], { targetDir: dir });
    expect(result.runs.map((entry) => entry.runId)).toEqual(['run-a', 'run-b']);
    expect(readDocument(dir, 'latest-ingest.json').run_id).toBe('run-b');
  });

  it('writes the same bytes every time', async () => {
    const values = [feedResponse('run-a', REQUEST_A, 0, FEED_1), feedResponse('run-a', REQUEST_A, 1, FEED_2), runEnd('run-a', REQUEST_A, 2), feedResponse('run-b', REQUEST_B, 0, FEED_2)];
    const [first, second] = [tempDir(), tempDir()];
    await run(values, { targetDir: first });
    await run(values, { targetDir: second });
    expect(filesUnder(second)).toEqual(filesUnder(first));
  });

  it('scores in worker threads ahead of the record it writes, and writes what scoring on the event loop writes', async () => {
    // More records than are read ahead, runs interleaved, and rejections of both stages among them, in order.
    const values: Array<RawResult | Buffer> = [Buffer.from('not json')];
    for (let index = 0; index < 12; index++) {
      const request = requestAt(`2026-11-${String(10 + index).padStart(2, '0')}T10:00:00.000Z`);
      values.push(feedResponse(`run-${index}`, request, 0, FEED_1), feedResponse(`run-${index}`, request, 1, index % 5 === 0 ? FEED_2 : FEED_1, { producerName: index % 4 === 0 ? 'retired_provider' : undefined }));
      if (index > 0) values.push(runEnd(`run-${index - 1}`, requestAt(`2026-11-${String(9 + index).padStart(2, '0')}T10:00:00.000Z`), 2));
      if (index === 6) values.push(Buffer.from('not json either'));
    }
    const [onTheLoop, inWorkers] = [tempDir(), tempDir()];
    await workers.whenReady();
    const expected = await run(values, { targetDir: onTheLoop });
    expect(await run(values, { targetDir: inWorkers, scorePool: workers })).toEqual(expected);
    expect(filesUnder(inWorkers)).toEqual(filesUnder(onTheLoop));
    expect(expected.runs).toHaveLength(12);
    expect(expected.rejected.map((entry) => entry.stage)).toEqual(['decode', 'scorer', 'scorer', 'decode', 'scorer']);
  });

  it('does not wait for workers still starting: the event loop scores the replay meanwhile, to the same files', async () => {
    const starting: ScorePool = { size: 1, model: DEFAULT_SCORING_MODEL, score: () => Promise.reject(new Error('handed to a worker that is not ready')), whenReady: () => new Promise(() => {}), utilization: () => [], close: async () => {} };
    const values = [feedResponse('run-a', REQUEST_A, 0, FEED_1), feedResponse('run-a', REQUEST_A, 1, FEED_2), runEnd('run-a', REQUEST_A, 2)];
    const [onTheLoop, whileStarting] = [tempDir(), tempDir()];
    const expected = await run(values, { targetDir: onTheLoop });
    expect(await run(values, { targetDir: whileStarting, scorePool: starting })).toEqual(expected);
    expect(filesUnder(whileStarting)).toEqual(filesUnder(onTheLoop));
  });

  it('fails the replay when a worker fails, and then settles without a write still going on', async () => {
    const failing: ScorePool = { size: 1, model: DEFAULT_SCORING_MODEL, score: () => Promise.reject(new Error('a scoring worker exited with code 1')), whenReady: async () => {}, utilization: () => [], close: async () => {} };
    const stages = createReplayStages({ serde: jsonSerde(), logger: createLogger({ level: 'silent' }), runTimeoutMs: 60_000, targetDir: tempDir(), scorePool: failing });
    const pushes = async () => {
      for (const record of storedRecords([feedResponse('run-a', REQUEST_A, 0, FEED_1), runEnd('run-a', REQUEST_A, 1)])) await stages.push(record);
      return stages.finish();
    };
    await expect(pushes()).rejects.toThrow('exited with code 1');
    await stages.settled();
  });
});
