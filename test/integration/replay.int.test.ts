/**
 * `skrya replay` against the real broker and registry: raw-results written with known broker
 * timestamps go through the live scorer, collector and sink once; replays of time ranges then
 * re-run the stages in-process into replays/<id>/, diff against the originals, close runs cut by
 * the range as incomplete, write the same bytes twice, and touch latest-ingest.json only when
 * promoted. The CLI prints JSON-line progress off a terminal and refuses bad input with exit 2.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir, replayDir } from '../../runtime/data-paths.ts';
import { parseReplayId, parseRunId, parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { createLogger } from '../../runtime/logger.ts';
import { PRODUCER_CONFIG } from '../../runtime/publishers.ts';
import type { RawResult, RequestContext } from '../../schemas/messages.ts';
import { buildReplayRequest, type ReplayRequestInput } from '../../services/replay/replay-request.ts';
import type { ReplayReport } from '../../services/replay/replay-report.ts';
import { replayTopic, type ReplayProgress, type ReplaySummary } from '../../services/replay/replay-topic.ts';
import { physicalTopic } from '../../topics/topics.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import { loadScoringModel } from '../../domain/scoring-model/load-scoring-model.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { requestContextFixture } from '../fixtures/messages.ts';
import { createHarness, listFiles, readLatestIfRun, runCli, waitFor, type Harness } from '../support/pipeline-harness.ts';

const TENANT = 'acme';
const TOPIC = 'kafka-news';
const KEY = topicKey({ tenant: parseTenantId(TENANT), topicId: parseTopicId(TOPIC) });
const FEED = { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } as const;

function rss(items: Array<{ title: string; link: string; description: string }>): string {
  const entries = items.map((item) => `<item><title>${item.title}</title><link>${item.link}</link><pubDate>Sun, 29 Nov 2026 08:00:00 GMT</pubDate><description>${item.description}</description></item>`);
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>Kafka news</title>${entries.join('')}</channel></rss>`;
}

function requestAt(requestedAt: string): RequestContext {
  return { ...requestContextFixture, requested_at: requestedAt, window_since: '2026-11-27T00:00:00Z', window_until: requestedAt, queries: ['kafka release'], sub_queries: ['kafka release', 'kafka kraft'], intent: 'news', languages: ['en'] };
}

function response(topicId: string, runId: string, request: RequestContext, sequence: number, payload: string): RawResult {
  return {
    tenant: parseTenantId(TENANT), topic_id: parseTopicId(topicId), run_id: parseRunId(runId), kind: 'RESPONSE', request, producer: { ...FEED, capabilities: ['rss_feed'] },
    response: { sequence, capability: 'rss_feed', sub_query: null, counter_evidence: false, fetched_at: request.requested_at, http_status: 200, content_type: 'application/rss+xml', url: `https://example.com/feed-${sequence}.xml`, payload },
    run_end: null,
  };
}

function runEnd(topicId: string, runId: string, request: RequestContext, responses: number): RawResult {
  return {
    tenant: parseTenantId(TENANT), topic_id: parseTopicId(topicId), run_id: parseRunId(runId), kind: 'RUN_END', request, producer: { kind: 'provider', name: 'retriever', persistent: true, capabilities: ['rss_feed'] }, response: null,
    run_end: { response_count: responses, started_at: request.requested_at, finished_at: request.requested_at, provider_status: [{ provider: 'feed_reader', capability: 'rss_feed', status: 'ok', code: null, message: null, calls: responses, results: 2 }], degradation_log_json: '[]', plan_json: null },
  };
}

const REQUEST_A = requestAt('2026-11-29T10:00:00.000Z');
const REQUEST_B = requestAt('2026-11-30T10:00:00.000Z');
const FEED_A0 = rss([
  { title: 'Kafka 4.1 release brings faster KRaft failover', link: 'https://kafka.apache.org/blog/4-1', description: 'The Apache Kafka 4.1 release shortens KRaft controller failover.' },
  { title: 'KRaft migration guide for Kafka operators', link: 'https://example.org/kraft-guide', description: 'How Kafka operators move the last ZooKeeper clusters to KRaft.' },
]);
const FEED_A1 = rss([{ title: 'Kafka Streams release notes explained', link: 'https://blog.example.net/streams-notes', description: 'A walk through the Kafka Streams changes in the latest release.' }]);
const FEED_B0 = rss([
  { title: 'Kafka 4.2 release candidate published', link: 'https://kafka.apache.org/blog/4-2-rc', description: 'The first Kafka 4.2 release candidate is out for testing.' },
  { title: 'Tiered storage in Kafka, one year on', link: 'https://example.org/tiered-storage', description: 'Kafka operators report on tiered storage after a year in production.' },
]);

/** Seconds after the base, with the message written to raw-results at that broker timestamp. */
const SCHEDULE: Array<{ second: number; key: string; value: RawResult }> = [
  { second: 0, key: KEY, value: response(TOPIC, 'run-a', REQUEST_A, 0, FEED_A0) },
  { second: 2, key: KEY, value: response(TOPIC, 'run-a', REQUEST_A, 1, FEED_A1) },
  { second: 4, key: KEY, value: runEnd(TOPIC, 'run-a', REQUEST_A, 2) },
  { second: 6, key: topicKey({ tenant: parseTenantId(TENANT), topicId: parseTopicId('other-news') }), value: response('other-news', 'run-o', REQUEST_A, 0, FEED_B0) },
  { second: 7, key: topicKey({ tenant: parseTenantId(TENANT), topicId: parseTopicId('other-news') }), value: runEnd('other-news', 'run-o', REQUEST_A, 1) },
  { second: 10, key: KEY, value: response(TOPIC, 'run-b', REQUEST_B, 0, FEED_B0) },
  { second: 20, key: KEY, value: runEnd(TOPIC, 'run-b', REQUEST_B, 1) },
];

/**
 * Another scoring model, as an analyst would write one: the shipped model with news ranked on
 * keywords and authority instead of freshness. And one with a weight no model may have.
 */
const MODELS_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-replay-models-'));
const KEYWORD_NEWS_MODEL = path.join(MODELS_DIR, 'keyword-news.json');
const BAD_MODEL = path.join(MODELS_DIR, 'bad.json');
fs.writeFileSync(KEYWORD_NEWS_MODEL, JSON.stringify({
  base: DEFAULT_SCORING_MODEL.tag, id: 'keyword-news', version: '1',
  ranking: { weights: { news: { keyword: 0.6, freshness: 0.05, authority: 0.25, rank: 0.05, agreement: 0.05 } } },
}));
fs.writeFileSync(BAD_MODEL, JSON.stringify({ base: DEFAULT_SCORING_MODEL.tag, id: 'bad', version: '1', ranking: { weights: { news: { keyword: 0.6, freshness: 1.2, authority: 0.25, rank: 0.05, agreement: 0.05 } } } }));

let harness: Harness;
let base: number;
const at = (second: number) => new Date(base + second * 1000).toISOString();

async function replay(input: Omit<ReplayRequestInput, 'tenant' | 'topic'>, progress: ReplayProgress[] = [], model: ScoringModel = DEFAULT_SCORING_MODEL): Promise<ReplaySummary> {
  const { pipeline } = harness;
  const request = buildReplayRequest({ tenant: TENANT, topic: TOPIC, ...input }, harness.dataRoot);
  return replayTopic({
    dataRoot: harness.dataRoot,
    model,
    serde: pipeline.port.serde,
    logger: createLogger({ level: 'warn', name: 'replay-test' }),
    runTimeoutMs: 20_000,
    readRawResults: (range, keep, onRecord, onProgress) => pipeline.port.readTimeRange('raw-results', { ...range, keep, onRecord, onProgress, purpose: 'replay-test' }),
  }, request, (event) => progress.push(event));
}

function filesOf(dir: string): Record<string, string> {
  return Object.fromEntries(listFiles(dir).map((file) => [file, fs.readFileSync(path.join(dir, file), 'utf8')]));
}

beforeAll(async () => {
  harness = await createHarness('replay');
  await harness.start(['scorer', 'collector', 'sink']);
  // Broker timestamps an hour back, a whole second apart: ranges can cut between any two messages.
  base = Math.floor((Date.now() - 3_600_000) / 1000) * 1000;
  const producer = harness.pipeline.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  try {
    for (const { second, key, value } of SCHEDULE) {
      const encoded = await harness.pipeline.port.serde.encode('raw-results', value);
      await producer.send({ topic: physicalTopic(harness.pipeline.port.naming, 'raw-results'), acks: -1, messages: [{ key, value: encoded, timestamp: String(base + second * 1000) }] });
    }
  } finally {
    await producer.disconnect();
  }
  await waitFor('run-b in latest-ingest.json', () => readLatestIfRun(harness.latest(TENANT, TOPIC), 'run-b'));
  await waitFor('both original runs', () => listFiles(path.join(ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC)), 'normalized')).length === 2);
});

afterAll(async () => {
  await harness?.close();
  fs.rmSync(MODELS_DIR, { recursive: true, force: true });
});

describe('skrya replay', () => {
  it('replays both runs with the current code into replays/<id>/ and finds nothing changed', async () => {
    const progress: ReplayProgress[] = [];
    const latestBefore = fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8');
    const summary = await replay({ since: at(0), until: at(20) }, progress);

    expect(summary.report.replay_id).toMatch(/^replay-\d{8}t\d{9}z-\d{8}t\d{9}z$/);
    expect(summary.dir).toBe(replayDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC), parseReplayId(summary.report.replay_id)));
    // other-news shares the range but not the key.
    expect(summary.report.inputs).toEqual({ read: 5, rejected: [] });
    expect(summary.report.runs.map((run) => [run.run_id, run.original, run.complete])).toEqual([
      ['run-a', 'found', { original: true, replayed: true }],
      ['run-b', 'found', { original: true, replayed: true }],
    ]);
    expect(summary.report.totals).toMatchObject({ runs: 2, incomplete: 0, new: 0, changed: 0, removed: 0, rescored: 0 });
    expect(summary.report.totals.unchanged).toBe(5);

    // The same code over the same raw results: the same documents, byte for byte.
    const original = ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC));
    const replayed = filesOf(summary.dir);
    expect(Object.keys(replayed)).toEqual(['diff.json', 'diff.md', 'digest.md', 'evidence-memory.json', 'latest-ingest.json', ...listFiles(original).filter((file) => file.startsWith('normalized/'))]);
    for (const file of Object.keys(replayed).filter((name) => !name.startsWith('diff.'))) expect(replayed[file], file).toBe(fs.readFileSync(path.join(original, file), 'utf8'));
    expect(fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8')).toBe(latestBefore);

    expect(progress[0]).toEqual({ phase: 'replay', done: 0, total: 7 });
    expect(progress.at(-1)).toEqual({ phase: 'replay', done: 7, total: 7 });
  });

  it('replays a later run alone and still reports its changes against the run before it', async () => {
    const summary = await replay({ since: at(10), until: at(20), replayId: 'only-b' });
    expect(summary.report.runs.map((run) => run.run_id)).toEqual(['run-b']);
    const file = summary.report.runs[0]!.file;
    expect(listFiles(summary.dir).filter((name) => name.startsWith('normalized/'))).toEqual([file]);
    const replayed = fs.readFileSync(path.join(summary.dir, file), 'utf8');
    expect((JSON.parse(replayed) as { changes: { previous_run_id: string } }).changes.previous_run_id).toBe('run-a');
    expect(replayed).toBe(fs.readFileSync(path.join(ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC)), file), 'utf8'));
  });

  it('writes byte-identical files when the same range is replayed again', async () => {
    const first = await replay({ since: at(0), until: at(20) });
    const before = filesOf(first.dir);
    const second = await replay({ since: at(0), until: at(20) });
    expect(second.dir).toBe(first.dir);
    expect(filesOf(second.dir)).toEqual(before);
    // No staging folder is left beside the replays.
    expect(fs.readdirSync(path.dirname(first.dir)).sort()).toEqual(['only-b', first.report.replay_id].sort());
  });

  it.each([
    {
      name: 'an end marker after the range closes the run as incomplete',
      range: [0, 15],
      expected: { 'run-a': { complete: true, reason: null }, 'run-b': { complete: false, reason: 'no run-end marker within the replay range' } },
    },
    {
      name: 'responses before the range make the run incomplete',
      range: [1, 20],
      expected: { 'run-a': { complete: false, reason: '1 of 2 provider responses are before the replay range' }, 'run-b': { complete: true, reason: null } },
    },
  ])('$name', async ({ range, expected }) => {
    const summary = await replay({ since: at(range[0]!), until: at(range[1]!), replayId: `cut-${range[0]}-${range[1]}` });
    for (const run of summary.report.runs) {
      const document = JSON.parse(fs.readFileSync(path.join(summary.dir, run.file), 'utf8')) as { stats: { complete: boolean; incomplete_reason: string | null } };
      const want = expected[run.run_id as keyof typeof expected];
      expect({ complete: document.stats.complete, reason: document.stats.incomplete_reason }, run.run_id).toEqual(want);
      expect(run.complete).toEqual({ original: true, replayed: want.complete });
    }
    expect(summary.report.runs).toHaveLength(2);
  });

  it('diffs against an original made by older code: new, changed, removed and rescored items', async () => {
    const original = ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC));
    const [fileA] = listFiles(path.join(original, 'normalized'));
    const originalFile = path.join(original, 'normalized', fileA!);
    const pristine = fs.readFileSync(originalFile, 'utf8');
    type Doc = { items: Array<{ canonical_url: string; title: string; verdict: string; score: number; content: string | null }> };
    const older = JSON.parse(pristine) as Doc;
    const [first, second, third] = older.items;
    // What an older scoring model wrote: another score, another verdict, an item since dropped,
    // and one the current code no longer finds.
    first!.score = 0.123;
    second!.verdict = 'downweighted';
    older.items = [first!, second!, { ...third!, canonical_url: 'https://example.com/gone', title: 'An item the current code does not produce' }];
    fs.writeFileSync(originalFile, JSON.stringify(older));
    try {
      const summary = await replay({ since: at(0), until: at(5), replayId: 'older-model' });
      const [run] = summary.report.runs;
      expect(run).toMatchObject({ run_id: 'run-a', counts: { original: 3, replayed: 3, new: 1, changed: 1, removed: 1, rescored: 1, unchanged: 0 } });
      expect(run!.rescored).toEqual([{ key: first!.canonical_url, title: first!.title, original_score: 0.123, replayed_score: (JSON.parse(pristine) as Doc).items[0]!.score }]);
      expect(run!.changed.map((item) => [item.key, item.changes, item.original.verdict, item.replayed.verdict])).toEqual([[second!.canonical_url, ['verdict'], 'downweighted', 'accepted']]);
      expect(run!.removed.map((item) => item.key)).toEqual(['https://example.com/gone']);
      expect(run!.new.map((item) => item.key)).toEqual([third!.canonical_url]);
      const markdown = fs.readFileSync(path.join(summary.dir, 'diff.md'), 'utf8');
      expect(markdown).toContain('| 0.123 |');
      expect(markdown).toContain('An item the current code does not produce');
      expect(JSON.parse(fs.readFileSync(path.join(summary.dir, 'diff.json'), 'utf8'))).toEqual(summary.report);
    } finally {
      fs.writeFileSync(originalFile, pristine);
    }
  });

  it('replaces latest-ingest.json only with --promote, with the newest replayed run', async () => {
    const summary = await replay({ since: at(0), until: at(5), replayId: 'promote-a', promote: true });
    expect(summary.promoted).toBe(harness.latest(TENANT, TOPIC));
    const promoted = fs.readFileSync(harness.latest(TENANT, TOPIC), 'utf8');
    expect(promoted).toBe(fs.readFileSync(path.join(summary.dir, 'latest-ingest.json'), 'utf8'));
    expect((JSON.parse(promoted) as { run_id: string }).run_id).toBe('run-a');
    expect(fs.readFileSync(path.join(ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC)), 'digest.md'), 'utf8')).toBe(fs.readFileSync(path.join(summary.dir, 'digest.md'), 'utf8'));
  });

  it('replays the same raw results under two scoring models into different files, each byte-identical when replayed again', async () => {
    const keywordNews = loadScoringModel(KEYWORD_NEWS_MODEL);
    const range = { since: at(0), until: at(20) };
    const replayTwice = async (replayId: string, model: ScoringModel) => {
      const first = await replay({ ...range, replayId }, [], model);
      const files = filesOf(first.dir);
      const second = await replay({ ...range, replayId }, [], model);
      expect(filesOf(second.dir), `${replayId} replayed again`).toEqual(files);
      expect(second.report.model).toBe(model.tag);
      return files;
    };
    const shipped = await replayTwice('model-shipped', DEFAULT_SCORING_MODEL);
    const other = await replayTwice('model-keyword-news', keywordNews);

    type Doc = { scoring_model: string; items: Array<{ id: string; score: number; score_components: { model: string; weight_freshness: number } }> };
    const runFiles = Object.keys(shipped).filter((file) => file.startsWith('normalized/'));
    expect(runFiles).toHaveLength(2);
    expect(Object.keys(other).filter((file) => file.startsWith('normalized/'))).toEqual(runFiles);
    for (const file of runFiles) {
      expect(other[file], file).not.toBe(shipped[file]);
      const [before, after] = [JSON.parse(shipped[file]!) as Doc, JSON.parse(other[file]!) as Doc];
      // The same evidence, scored and named by each model.
      expect(after.items.map((item) => item.id).sort()).toEqual(before.items.map((item) => item.id).sort());
      expect([before.scoring_model, after.scoring_model]).toEqual([DEFAULT_SCORING_MODEL.tag, 'keyword-news@1']);
      expect(new Set(before.items.map((item) => item.score_components.model))).toEqual(new Set([DEFAULT_SCORING_MODEL.tag]));
      expect(new Set(after.items.map((item) => item.score_components.model))).toEqual(new Set(['keyword-news@1']));
      expect(after.items.map((item) => item.score_components.weight_freshness)).toEqual(after.items.map(() => 0.05));
      const scoreOf = (doc: Doc) => Object.fromEntries(doc.items.map((item) => [item.id, item.score]));
      expect(scoreOf(after)).not.toEqual(scoreOf(before));
    }
    expect((JSON.parse(other['diff.json']!) as ReplayReport).model).toBe('keyword-news@1');
  });
});

describe('the skrya replay command', () => {
  it('prints JSON-line progress and a summary when stdout is not a terminal', async () => {
    const result = await runCli(harness, ['replay', '--tenant', TENANT, '--topic', TOPIC, '--since', at(0), '--until', at(20), '--replay-id', 'from-cli']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line) as { phase: string; done?: number; total?: number; totals?: ReplayReport['totals'] });
    expect(lines.filter((line) => line.phase === 'replay').at(-1)).toEqual({ phase: 'replay', done: 7, total: 7 });
    expect(lines.at(-1)).toMatchObject({ phase: 'done', replay_id: 'from-cli', totals: { runs: 2 } });
    expect(fs.existsSync(path.join(replayDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC), parseReplayId('from-cli')), 'diff.json'))).toBe(true);
  });

  it('replays with the scoring model of --model FILE', async () => {
    const result = await runCli(harness, ['replay', '--tenant', TENANT, '--topic', TOPIC, '--since', at(0), '--until', at(20), '--replay-id', 'cli-model', '--model', KEYWORD_NEWS_MODEL]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout.trim().split('\n').at(-1)!)).toMatchObject({ phase: 'done', replay_id: 'cli-model', model: 'keyword-news@1' });
  });

  // Each case spawns the CLI (tsx start-up dominates), so they run side by side.
  it.concurrent.each([
    { name: 'an unknown topic', args: ['--topic', 'no-such-topic', '--since', '2026-11-30T00:00:00Z', '--until', '2026-11-30T01:00:00Z'], text: 'unknown topic' },
    { name: 'since after until', args: ['--topic', TOPIC, '--since', '2026-11-30T02:00:00Z', '--until', '2026-11-30T01:00:00Z'], text: 'is not before' },
    { name: 'an invalid replay id', args: ['--topic', TOPIC, '--since', '2026-11-30T00:00:00Z', '--until', '2026-11-30T01:00:00Z', '--replay-id', '../escape'], text: 'replay id' },
    { name: 'a range with no raw results', args: ['--topic', TOPIC, '--since', '2026-11-01T00:00:00Z', '--until', '2026-11-01T01:00:00Z', '--replay-id', 'empty-range'], text: 'no raw results' },
    { name: 'a scoring model with a weight above 1', args: ['--topic', TOPIC, '--since', '2026-11-30T00:00:00Z', '--until', '2026-11-30T01:00:00Z', '--model', BAD_MODEL], text: 'ranking.weights.news.freshness' },
    { name: 'a scoring model file that does not exist', args: ['--topic', TOPIC, '--since', '2026-11-30T00:00:00Z', '--until', '2026-11-30T01:00:00Z', '--model', path.join(MODELS_DIR, 'missing.json')], text: 'cannot be read' },
  ])('refuses $name with exit 2 and writes nothing', async ({ args, text }) => {
    const replays = path.join(path.dirname(ingestDir(harness.dataRoot, parseTenantId(TENANT), parseTopicId(TOPIC))), 'replays');
    const before = listFiles(replays);
    const result = await runCli(harness, ['replay', '--tenant', TENANT, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(text);
    expect(listFiles(replays)).toEqual(before);
  });
});
