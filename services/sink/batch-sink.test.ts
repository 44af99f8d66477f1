import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ingestDir, LATEST_FILE } from '../../runtime/data-paths.ts';
import type { HandlerContext, IncomingMessage } from '../../runtime/handler.ts';
import { ingestBatchSchema, type IngestBatch, type ProviderStatus } from '../../schemas/messages.ts';
import { ingestBatchFixture, requestContextFixture, scoredItemFixture } from '../../test/fixtures/messages.ts';
import { createLocalStore } from '../../runtime/sink-store.ts';
import { DIGEST_FILE, createBatchSink } from './batch-sink.ts';
import { MEMORY_FILE } from './evidence-memory.ts';
import { diffRuns, renderChanges } from './run-changes.ts';
import { ingestDocument, renderIngestDocument } from './ingest-document.ts';
import { runStatusOf } from './run-status.ts';
import { parseRunId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';

let root: string;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-sink-'));
});
afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

const context: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };

function message(value: IngestBatch): IncomingMessage<IngestBatch> {
  return { topic: 'ingest-normalized', partition: 0, offset: '0', key: `${value.tenant}/${value.topic_id}`, value, headers: {}, timestamp: '0' };
}

function batchAt(requestedAt: string, runId: string, title = 'Comet adds agent mode'): IngestBatch {
  const batch = ingestBatchFixture();
  return {
    ...batch,
    run_id: parseRunId(runId),
    request: { ...requestContextFixture, requested_at: requestedAt },
    items: [scoredItemFixture({ title })],
    digest_markdown: `# ${batch.topic_id}\n\n1. ${title}\n`,
  };
}

function filesUnder(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true }) as string[]).map((entry) => entry.split(path.sep).join('/')).sort();
}

async function sink(batch: IngestBatch) {
  return createBatchSink({ store: createLocalStore(root) }).handle(message(batch), context);
}

const dir = () => ingestDir(root, parseTenantId('acme'), parseTopicId('ai-browser'));
const read = (name: string) => fs.readFileSync(path.join(dir(), name), 'utf8');

describe('createBatchSink', () => {
  it('writes normalized/<timestamp>.json, latest-ingest.json and digest.md, and emits nothing', async () => {
    const batch = batchAt('2026-04-25T10:30:00+08:00', 'run-a');
    expect(await sink(batch)).toEqual([]);
    expect(filesUnder(dir())).toEqual([DIGEST_FILE, MEMORY_FILE, LATEST_FILE, 'normalized', 'normalized/20260425T023000000Z.json']);
    const firstRun = diffRuns(null, batch.items);
    expect(read('normalized/20260425T023000000Z.json')).toBe(renderIngestDocument(batch, firstRun, runStatusOf(batch)));
    expect(read(LATEST_FILE)).toBe(renderIngestDocument(batch, firstRun, runStatusOf(batch)));
    expect(read(DIGEST_FILE)).toBe(`${batch.digest_markdown}${renderChanges(firstRun)}`);
  });

  it('writes the same bytes when the same batch comes twice', async () => {
    const batch = batchAt('2026-04-25T10:30:00+08:00', 'run-a');
    await sink(batch);
    const first = filesUnder(dir()).filter((name) => name.includes('.')).map((name) => [name, read(name)]);
    await sink(structuredClone(batch));
    const second = filesUnder(dir()).filter((name) => name.includes('.')).map((name) => [name, read(name)]);
    expect(second).toEqual(first);
  });

  it('replaces latest with a newer run, and never with an older one', async () => {
    const older = batchAt('2026-04-25T10:00:00Z', 'run-older', 'Older headline');
    const newer = batchAt('2026-04-25T11:00:00Z', 'run-newer', 'Newer headline');
    await sink(older);
    await sink(newer);
    expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-newer' });
    // A late or re-delivered older run still gets its own normalized file.
    await sink(older);
    expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-newer' });
    expect(read(DIGEST_FILE)).toContain('Newer headline');
    expect(filesUnder(path.join(dir(), 'normalized'))).toEqual(['20260425T100000000Z.json', '20260425T110000000Z.json']);
  });

  it('compares requested_at as instants, not as strings', async () => {
    // 10:30+08:00 is 02:30Z: earlier than 03:00Z although it sorts later as text.
    await sink(batchAt('2026-04-25T03:00:00Z', 'run-later'));
    await sink(batchAt('2026-04-25T10:30:00+08:00', 'run-earlier'));
    expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-later' });
  });

  it('replaces a latest-ingest.json it cannot read', async () => {
    fs.mkdirSync(dir(), { recursive: true });
    fs.writeFileSync(path.join(dir(), LATEST_FILE), '{"truncated');
    await sink(batchAt('2026-04-25T10:00:00Z', 'run-a'));
    expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-a' });
  });

  it('writes into the target folder it is given (replays)', async () => {
    const replay = path.join(root, 'acme', 'runs', 'ai-browser', 'replays', 'r1');
    await createBatchSink({ store: createLocalStore(replay), place: () => '' }).handle(message(batchAt('2026-04-25T10:00:00Z', 'run-a')), context);
    expect(filesUnder(replay)).toContain(LATEST_FILE);
    expect(fs.existsSync(dir())).toBe(false);
  });

  describe('keepWrittenRuns (the live sink)', () => {
    const live = (batch: IngestBatch) => createBatchSink({ store: createLocalStore(root), keepWrittenRuns: true }).handle(message(batch), context);
    const whole = () => ({ ...batchAt('2026-04-25T10:00:00Z', 'run-a'), items: [scoredItemFixture({ id: 'it-1', title: 'First' }), scoredItemFixture({ id: 'it-2', title: 'Second', url: 'https://example.com/2' })] });
    const tailOnly = () => ({ ...whole(), items: whole().items.slice(1) });
    const written = () => filesUnder(dir()).filter((name) => name.includes('.')).map((name) => [name, read(name)]);

    it.each([
      ['a part of the run (a re-read tail)', tailOnly],
      ['the same run closed as incomplete', () => ({ ...whole(), stats: { ...whole().stats, complete: false, incomplete_reason: 'no run-end marker' } })],
    ])('drops a later batch of a written run that differs from it: %s', async (_case, later) => {
      await live(whole());
      const before = written();
      const outcomes = await live(later());
      expect(outcomes).toEqual([{ kind: 'drop', reason: expect.stringContaining('run-a') }]);
      expect(written()).toEqual(before);
    });

    it('rewrites every file from the same batch again (a sink killed between its writes)', async () => {
      await live(whole());
      const before = written();
      fs.rmSync(path.join(dir(), LATEST_FILE));
      fs.rmSync(path.join(dir(), DIGEST_FILE));
      expect(await live(whole())).toEqual([]);
      expect(written()).toEqual(before);
    });

    it('still replaces a file that holds another run with the same timestamp', async () => {
      await live(whole());
      await live({ ...tailOnly(), run_id: parseRunId('run-b') });
      expect(JSON.parse(read('normalized/20260425T100000000Z.json'))).toMatchObject({ run_id: 'run-b', items: [{ id: 'it-2' }] });
    });

    it('is off by default: replays write a different batch of a run over the original', async () => {
      await sink(whole());
      await sink(tailOnly());
      expect(JSON.parse(read('normalized/20260425T100000000Z.json')).items.map((item: { id: string }) => item.id)).toEqual(['it-2']);
    });
  });

  describe('failed, incomplete and empty runs', () => {
    const ok = (status: Partial<ProviderStatus> = {}): ProviderStatus => ({ provider: 'brave_web_search', capability: 'web_search', status: 'ok', code: null, message: null, calls: 1, results: 1, ...status });
    const good = (at: string, runId: string, title?: string) => {
      const batch = batchAt(at, runId, title);
      return { ...batch, stats: { ...batch.stats, provider_status: [ok()] } };
    };
    const allFailed = (at: string, runId: string) => {
      const batch = batchAt(at, runId);
      return { ...batch, items: [], stats: { ...batch.stats, counts: { ...batch.stats.counts, raw_responses: 0, raw_items: 0, accepted: 0 }, provider_status: [ok({ status: 'error', code: 'AUTH_FAILED', message: 'HTTP 401', results: 0 })] }, digest_markdown: '# ai-browser\n\nNothing.\n' };
    };
    const withoutAttempt = (text: string) => JSON.stringify({ ...(JSON.parse(text) as object), last_attempt: null });

    it('records a run in which every source failed, keeps the last good run and names the attempt', async () => {
      await sink(good('2026-04-25T10:00:00Z', 'run-good', 'Good headline'));
      const latestBefore = read(LATEST_FILE);
      const digestBefore = read(DIGEST_FILE);
      await sink(allFailed('2026-04-25T11:00:00Z', 'run-failed'));
      // The run itself is recorded, with its status and why.
      expect(JSON.parse(read('normalized/20260425T110000000Z.json'))).toMatchObject({ run_id: 'run-failed', status: 'failed', status_reason: expect.stringContaining('every source failed: brave_web_search (web_search) error — AUTH_FAILED: HTTP 401'), changes: null, items: [] });
      // latest-ingest.json is still the good run, byte for byte, apart from naming the attempt.
      expect(withoutAttempt(read(LATEST_FILE))).toBe(withoutAttempt(latestBefore));
      expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-good', status: 'ok', last_attempt: { run_id: 'run-failed', status: 'failed', file: 'normalized/20260425T110000000Z.json', reason: expect.stringContaining('AUTH_FAILED') } });
      expect(read(DIGEST_FILE)).toContain('**Last attempt failed**: run-failed');
      expect(read(DIGEST_FILE).endsWith(digestBefore)).toBe(true);
      // The same failed batch again: the same bytes.
      const files = filesUnder(dir()).map((name) => [name, name.includes('.') ? read(name) : '']);
      await sink(allFailed('2026-04-25T11:00:00Z', 'run-failed'));
      expect(filesUnder(dir()).map((name) => [name, name.includes('.') ? read(name) : ''])).toEqual(files);
    });

    it('a later good run replaces latest and clears the note; a good run older than the attempt keeps it named', async () => {
      await sink(good('2026-04-25T10:00:00Z', 'run-a'));
      await sink(allFailed('2026-04-25T12:00:00Z', 'run-failed'));
      await sink(good('2026-04-25T11:00:00Z', 'run-b', 'Late but good'));
      expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-b', last_attempt: { run_id: 'run-failed' } });
      expect(read(DIGEST_FILE)).toMatch(/^<!-- skrya:last-attempt -->\n> \*\*Last attempt failed\*\*: run-failed[^\n]*What follows is still the last good run, run-b\./);
      expect(read(DIGEST_FILE)).toContain('Late but good');
      await sink(good('2026-04-25T13:00:00Z', 'run-c', 'Fresh'));
      expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-c', last_attempt: null });
      expect(read(DIGEST_FILE)).not.toContain('Last attempt');
      // run-c compares with run-b, the last good run, not with the failed attempt.
      expect(JSON.parse(read(LATEST_FILE)).changes).toMatchObject({ previous_run_id: 'run-b' });
    });

    it('one sink through many batches writes what a new sink per batch writes, and reads files changed under it as they are now', async () => {
      const sequence = () => [good('2026-04-25T10:00:00Z', 'run-a'), allFailed('2026-04-25T12:00:00Z', 'run-failed'), good('2026-04-25T11:00:00Z', 'run-b', 'Late but good'), allFailed('2026-04-25T12:00:00Z', 'run-failed'), good('2026-04-25T13:00:00Z', 'run-c', 'Fresh')];
      const kept = createBatchSink({ store: createLocalStore(root) });
      for (const batch of sequence()) await kept.handle(message(batch), context);
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-sink-'));
      try {
        for (const batch of sequence()) await createBatchSink({ store: createLocalStore(other) }).handle(message(batch), context);
        const otherDir = ingestDir(other, parseTenantId('acme'), parseTopicId('ai-browser'));
        expect(filesUnder(dir()).map((name) => [name, name.includes('.') ? read(name) : ''])).toEqual(filesUnder(otherDir).map((name) => [name, name.includes('.') ? fs.readFileSync(path.join(otherDir, name), 'utf8') : '']));
      } finally {
        fs.rmSync(other, { recursive: true, force: true });
      }
      // Another writer (a restored backup) puts a later run in latest-ingest.json and empties the
      // evidence memory: the sink reads both as they are now, not as it wrote them.
      const later = read(LATEST_FILE).replace('"run_requested_at": "2026-04-25T13:00:00Z"', '"run_requested_at": "2026-04-26T00:00:00Z"').replace('"run_id": "run-c"', '"run_id": "run-restored"');
      fs.writeFileSync(path.join(dir(), LATEST_FILE), later);
      fs.writeFileSync(path.join(dir(), MEMORY_FILE), '{"version":1,"runs":[]}\n');
      await kept.handle(message(good('2026-04-25T14:00:00Z', 'run-d')), context);
      expect(read(LATEST_FILE)).toBe(later);
      expect((JSON.parse(read(MEMORY_FILE)) as { runs: Array<{ run_id: string }> }).runs.map((run) => run.run_id)).toEqual(['run-d']);
    });

    it('an incomplete run is recorded but does not replace latest', async () => {
      await sink(good('2026-04-25T10:00:00Z', 'run-a'));
      const partial = good('2026-04-25T11:00:00Z', 'run-partial', 'Half a run');
      await sink({ ...partial, stats: { ...partial.stats, complete: false, incomplete_reason: 'no run-end marker within 60 s' } });
      expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-a', last_attempt: { run_id: 'run-partial', status: 'incomplete', reason: 'the run did not finish: no run-end marker within 60 s' } });
      expect(JSON.parse(read('normalized/20260425T110000000Z.json'))).toMatchObject({ status: 'incomplete', items: [{ title: 'Half a run' }] });
    });

    it('a failed first run writes no latest-ingest.json, and digest.md says there is no good run yet', async () => {
      await sink(allFailed('2026-04-25T11:00:00Z', 'run-failed'));
      expect(fs.existsSync(path.join(dir(), LATEST_FILE))).toBe(false);
      expect(read(DIGEST_FILE)).toContain('There is no good run of this topic yet.');
    });

    it('a genuinely empty run (sources answered, nothing in the window) is a good run and says so', async () => {
      await sink(good('2026-04-25T10:00:00Z', 'run-a', 'Old news'));
      const empty = good('2026-04-25T11:00:00Z', 'run-empty');
      await sink({ ...empty, items: [] });
      expect(JSON.parse(read(LATEST_FILE))).toMatchObject({ run_id: 'run-empty', status: 'empty', status_reason: '1 source(s) answered and found nothing in the window', items: [], last_attempt: null });
      expect(JSON.parse(read(LATEST_FILE)).changes.removed.map((entry: { title: string }) => entry.title)).toEqual(['Old news']);
    });

    it('two runs over the same evidence: zero changes and byte-identical items', async () => {
      const first = good('2026-04-25T10:00:00Z', 'run-1');
      const cut = [{ id: 'it-cut', title: 'Cut story', url: 'https://example.com/cut', canonical_url: 'https://example.com/cut', content_hash: 'cc'.repeat(16) }];
      await sink({ ...first, cut });
      await sink({ ...good('2026-04-25T11:00:00Z', 'run-2'), cut });
      const one = JSON.parse(read('normalized/20260425T100000000Z.json')) as { items: unknown };
      const two = JSON.parse(read('normalized/20260425T110000000Z.json')) as { items: unknown; changes: unknown };
      expect(JSON.stringify(two.items)).toBe(JSON.stringify(one.items));
      expect(two.changes).toEqual({ previous_run_id: 'run-1', new: [], changed: [], moved_in: [], moved_out: [], removed: [] });
    });
  });

  it.each([
    ['tenant', { tenant: '../x' }],
    ['topic', { topic_id: '../../x' }],
    ['topic', { topic_id: '..' }],
  ])('a batch with a %s id that would escape the data root is refused where it is decoded, before any sink sees it', (_name, override) => {
    const parsed = ingestBatchSchema.safeParse({ ...batchAt('2026-04-25T10:00:00Z', 'run-a'), ...override });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((issue) => issue.path[0])).toEqual(Object.keys(override));
  });
});

const NO_CHANGES = diffRuns(null, []);
const OK = runStatusOf(ingestBatchFixture());

describe('ingestDocument', () => {
  it('lists spec 000 fields and what Skrya adds, built from the batch alone', () => {
    const batch = ingestBatchFixture();
    const document = ingestDocument(batch, NO_CHANGES, OK);
    expect(document).toMatchObject({
      interface_version: 'skrya.ingest.v1',
      topic_id: 'ai-browser',
      run_requested_at: batch.request.requested_at,
      time_window: { since: batch.request.window_since, until: batch.request.window_until },
      stats: { accepted: 1, kept: 1, complete: true, degradation_log: [] },
      scoring_model: batch.scoring_model,
    });
    expect(document.items[0]).toMatchObject({ id: batch.items[0]!.id, verdict: 'accepted', producer: 'rss_feed', injection: { score: 0, evidence: [] } });
  });

  it('keeps a malformed degradation log verbatim instead of failing the batch', () => {
    const batch = ingestBatchFixture();
    const document = ingestDocument({ ...batch, stats: { ...batch.stats, degradation_log_json: 'not json' } }, NO_CHANGES, OK);
    expect(document.stats.degradation_log).toBe('not json');
  });

  it('renders the same bytes for the same batch', () => {
    expect(renderIngestDocument(ingestBatchFixture(), NO_CHANGES, OK)).toBe(renderIngestDocument(ingestBatchFixture(), NO_CHANGES, OK));
    expect(renderIngestDocument(ingestBatchFixture(), NO_CHANGES, OK).endsWith('}\n')).toBe(true);
  });
});
