import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir, replayDir } from '../../runtime/data-paths.ts';
import type { StoredRecord } from '../../runtime/topic-readers.ts';
import { createLogger } from '../../runtime/logger.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { Serde } from '../../runtime/serde.ts';
import type { RawResult } from '../../schemas/messages.ts';
import type { ReplayRequest } from './replay-request.ts';
import { replayTopic, type ReadRawResults, type ReplayProgress } from './replay-topic.ts';
import { feedResponse, jsonSerde, requestAt, rss, runEnd, storedRecords } from './testing/replay-fixtures.ts';
import { parseReplayId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const REQUEST_A = requestAt('2026-11-29T10:00:00.000Z');
const REQUEST_B = requestAt('2026-11-30T10:00:00.000Z');
const RUN_A = [feedResponse('run-a', REQUEST_A, 0, rss(['Kafka 4.1 release brings faster KRaft failover'])), runEnd('run-a', REQUEST_A, 1)];
const RUN_B = [feedResponse('run-b', REQUEST_B, 0, rss(['Kafka Streams release notes explained'])), runEnd('run-b', REQUEST_B, 1)];
const OTHER_TOPIC = [feedResponse('run-o', REQUEST_A, 0, rss(['Unrelated release']), { topicId: 'other' })];

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-replay-topic-'));
  fs.mkdirSync(path.join(root, 'acme', 'topics', 'kafka-news'), { recursive: true });
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const request = (overrides: Partial<ReplayRequest> = {}): ReplayRequest => ({
  tenant: parseTenantId('acme'), topicId: parseTopicId('kafka-news'), since: '2026-11-30T00:00:00.000Z', until: '2026-11-30T01:00:00.000Z', replayId: parseReplayId('test-replay'), promote: false, ...overrides,
});

/** A reader over fixed records: what the broker would return for the range, filtered by `keep`. */
function reader(values: RawResult[], seen: Array<{ sinceMs: number; untilMs: number }> = []): ReadRawResults {
  return async (range, keep, onRecord, onProgress) => {
    seen.push(range);
    const records: StoredRecord[] = storedRecords(values);
    for (const [index, record] of records.entries()) {
      if (keep(record)) await onRecord(record);
      onProgress(index + 1, records.length);
    }
  };
}

function replay(values: RawResult[], overrides: Partial<ReplayRequest> = {}, serde: Serde = jsonSerde(), progress: ReplayProgress[] = []) {
  return replayTopic({ dataRoot: root, model: DEFAULT_SCORING_MODEL, serde, logger: createLogger({ level: 'silent' }), runTimeoutMs: 60_000, readRawResults: reader(values) }, request(overrides), (event) => progress.push(event));
}

const target = (id = 'test-replay') => replayDir(root, parseTenantId('acme'), parseTopicId('kafka-news'), parseReplayId(id));
const listing = (dir: string) => (fs.readdirSync(dir, { recursive: true }) as string[]).sort();

describe('replayTopic', () => {
  it('reads the range with an inclusive --until, keeps only the topic\'s key, and reports progress over the whole range', async () => {
    const ranges: Array<{ sinceMs: number; untilMs: number }> = [];
    const progress: ReplayProgress[] = [];
    const summary = await replayTopic(
      { dataRoot: root, model: DEFAULT_SCORING_MODEL, serde: jsonSerde(), logger: createLogger({ level: 'silent' }), runTimeoutMs: 60_000, readRawResults: reader([...RUN_A, ...OTHER_TOPIC], ranges) },
      request(),
      (event) => progress.push(event),
    );
    expect(ranges).toEqual([{ sinceMs: Date.parse('2026-11-30T00:00:00Z'), untilMs: Date.parse('2026-11-30T01:00:00Z') + 1 }]);
    expect(summary.report.inputs.read).toBe(2);
    expect(progress.map((event) => event.done)).toEqual([1, 2, 3]);
    expect(progress.at(-1)).toEqual({ phase: 'replay', done: 3, total: 3 });
  });

  it('writes the replay folder with its diff and leaves no staging folder', async () => {
    const summary = await replay([...RUN_A, ...RUN_B]);
    expect(summary.dir).toBe(target());
    expect(listing(target())).toEqual(['diff.json', 'diff.md', 'digest.md', 'evidence-memory.json', 'latest-ingest.json', 'normalized', 'normalized/20261129T100000000Z.json', 'normalized/20261130T100000000Z.json']);
    expect(fs.readdirSync(path.dirname(target()))).toEqual(['test-replay']);
    expect(summary.report.runs.map((run) => [run.run_id, run.original, run.counts.new])).toEqual([['run-a', 'missing', 1], ['run-b', 'missing', 1]]);
    expect(JSON.parse(fs.readFileSync(path.join(target(), 'diff.json'), 'utf8'))).toEqual(summary.report);
  });

  it('diffs each run against the original file of the same name', async () => {
    const first = await replay(RUN_A, { replayId: parseReplayId('first') });
    const originals = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('kafka-news')), 'normalized');
    fs.mkdirSync(originals, { recursive: true });
    fs.copyFileSync(path.join(first.dir, first.report.runs[0]!.file), path.join(originals, path.basename(first.report.runs[0]!.file)));
    const second = await replay(RUN_A, { replayId: parseReplayId('second') });
    expect(second.report.runs[0]).toMatchObject({ original: 'found', counts: { original: 1, replayed: 1, unchanged: 1, new: 0 } });
  });

  it('compares each replayed run with the predecessor the live sink used, and copies no other original run', async () => {
    const first = await replay(RUN_A, { replayId: parseReplayId('first') });
    const originals = path.join(ingestDir(root, parseTenantId('acme'), parseTopicId('kafka-news')), 'normalized');
    fs.mkdirSync(originals, { recursive: true });
    fs.copyFileSync(path.join(first.dir, first.report.runs[0]!.file), path.join(originals, path.basename(first.report.runs[0]!.file)));
    const originalA = fs.readFileSync(path.join(originals, path.basename(first.report.runs[0]!.file)), 'utf8');

    const onlyB = await replay(RUN_B, { replayId: parseReplayId('only-b') });
    expect(listing(onlyB.dir).filter((file) => file.startsWith('normalized/'))).toEqual(['normalized/20261130T100000000Z.json']);
    const documentB = JSON.parse(fs.readFileSync(path.join(onlyB.dir, 'latest-ingest.json'), 'utf8')) as { changes: { previous_run_id: string | null } };
    expect(documentB.changes.previous_run_id).toBe('run-a');
    // The original is untouched by the replay that linked it.
    expect(fs.readFileSync(path.join(originals, path.basename(first.report.runs[0]!.file)), 'utf8')).toBe(originalA);
  });

  it('replaces an earlier replay of the same id whole, so no file of it survives', async () => {
    await replay([...RUN_A, ...RUN_B]);
    await replay(RUN_A);
    expect(listing(target())).toEqual(['diff.json', 'diff.md', 'digest.md', 'evidence-memory.json', 'latest-ingest.json', 'normalized', 'normalized/20261129T100000000Z.json']);
  });

  it('keeps the earlier replay and removes the staging folder when a replay fails', async () => {
    await replay(RUN_A);
    const before = listing(target());
    const failing: Serde = { ...jsonSerde(), relay: async (topic, value) => {
      if (topic === 'ingest-normalized') throw new Error('disk on fire');
      return jsonSerde().relay(topic, value);
    } };
    await expect(replay(RUN_B, {}, failing)).rejects.toThrow('disk on fire');
    expect(listing(target())).toEqual(before);
    expect(fs.readdirSync(path.dirname(target()))).toEqual(['test-replay']);
  });

  it('refuses a range without raw results of the topic and writes nothing', async () => {
    await expect(replay(OTHER_TOPIC)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(fs.existsSync(path.join(root, 'acme', 'runs'))).toBe(false);
  });

  it.each([
    { promote: false, latest: 'untouched' },
    { promote: true, latest: 'run-b' },
  ])('promote=$promote leaves latest-ingest.json $latest', async ({ promote, latest }) => {
    const ingest = ingestDir(root, parseTenantId('acme'), parseTopicId('kafka-news'));
    fs.mkdirSync(ingest, { recursive: true });
    fs.writeFileSync(path.join(ingest, 'latest-ingest.json'), 'untouched');
    fs.writeFileSync(path.join(ingest, 'digest.md'), 'untouched');
    const summary = await replay([...RUN_A, ...RUN_B], { promote });
    const written = fs.readFileSync(path.join(ingest, 'latest-ingest.json'), 'utf8');
    expect(written === 'untouched' ? 'untouched' : (JSON.parse(written) as { run_id: string }).run_id).toBe(latest);
    expect(summary.promoted).toBe(promote ? path.join(ingest, 'latest-ingest.json') : null);
    expect(fs.readFileSync(path.join(ingest, 'digest.md'), 'utf8') === 'untouched').toBe(!promote);
    expect(summary.notPromoted).toBeNull();
  });

  it('--promote never promotes a failed or incomplete run: latest-ingest.json stays and the summary says why', async () => {
    const ingest = ingestDir(root, parseTenantId('acme'), parseTopicId('kafka-news'));
    fs.mkdirSync(ingest, { recursive: true });
    fs.writeFileSync(path.join(ingest, 'latest-ingest.json'), 'the last good run');
    fs.writeFileSync(path.join(ingest, 'digest.md'), 'the last good digest');
    // run-b without its end marker in the range: replayed as incomplete.
    const summary = await replay([RUN_B[0]!], { promote: true });
    expect(summary.promoted).toBeNull();
    expect(summary.notPromoted).toContain('no replayed run is good; the newest, run-b, is incomplete: the run did not finish');
    expect(fs.readFileSync(path.join(ingest, 'latest-ingest.json'), 'utf8')).toBe('the last good run');
    expect(fs.readFileSync(path.join(ingest, 'digest.md'), 'utf8')).toBe('the last good digest');
  });

  it('--promote takes the newest good replayed run, naming a later failed one', async () => {
    const ingest = ingestDir(root, parseTenantId('acme'), parseTopicId('kafka-news'));
    const failedEnd = runEnd('run-b', REQUEST_B, 0) as Extract<RawResult, { kind: 'RUN_END' }>;
    const allFailed: RawResult = { ...failedEnd, run_end: { ...failedEnd.run_end, provider_status: [{ provider: 'feed_reader', capability: 'rss_feed', status: 'error' as const, code: 'BAD_RESPONSE', message: 'HTTP 500', calls: 1, results: 0 }] } };
    const summary = await replay([...RUN_A, allFailed], { promote: true, since: '2026-11-29T00:00:00.000Z' });
    expect(summary.promoted).toBe(path.join(ingest, 'latest-ingest.json'));
    expect(JSON.parse(fs.readFileSync(path.join(ingest, 'latest-ingest.json'), 'utf8'))).toMatchObject({ run_id: 'run-a', status: 'ok', last_attempt: { run_id: 'run-b', status: 'failed' } });
  });
});
