import { describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { COMMIT_NOTE_MAX_BYTES, type HandlerContext, type IncomingMessage, type Outcome } from '../../runtime/handler.ts';
import { ingestBatchSchema, type IngestBatch, type ScoredItem, type ScoredResult } from '../../schemas/messages.ts';
import { positionOf, scoredItemFixture, scoredItemMessageFixture, scoredRunEndFixture } from '../../test/fixtures/messages.ts';
import { createCollector } from './handler.ts';
import { parseRunId } from '../../runtime/ids.ts';

const context: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };
const TIMEOUT_MS = 60_000;

function setup() {
  let nowMs = 1_000_000;
  const collector = createCollector({ runTimeoutMs: TIMEOUT_MS, logger: createLogger({ level: 'silent' }), clock: () => nowMs });
  let offset = 0;
  const send = async (value: ScoredResult, partition = 0) => collector.handle(incoming(value, partition, offset++), context);
  return { collector, send, advance: (ms: number) => void (nowMs += ms), skipOffsets: (count: number) => void (offset += count) };
}

function incoming(value: ScoredResult, partition: number, offset: number): IncomingMessage<ScoredResult> {
  return { topic: 'scored-results', partition, offset: String(offset), key: `${value.tenant}/${value.topic_id}`, value, headers: {}, timestamp: '0' };
}

function itemMessage(id: string, runId = 'run-a', fields: Partial<ScoredItem> = {}): ScoredResult {
  const url = `https://example.com/${id}`;
  const base = scoredItemMessageFixture() as Extract<ScoredResult, { kind: 'ITEM' }>;
  return { ...base, run_id: parseRunId(runId), item: scoredItemFixture({ id, url, canonical_url: url, title: `Story ${id}`, sources: [{ provider: 'rss_feed', url, item_id: id }], position: positionOf(id), ...fields }) };
}

function marker(runId = 'run-a'): ScoredResult {
  return { ...scoredRunEndFixture(), run_id: parseRunId(runId) };
}

function batchesOf(outcomes: Outcome[]): IngestBatch[] {
  return outcomes.map((outcome) => {
    if (outcome.kind !== 'emit') throw new Error(`expected emit, got ${outcome.kind}`);
    expect(outcome.topic).toBe('ingest-normalized');
    expect(outcome.key).toBe('acme/ai-browser');
    return ingestBatchSchema.parse(outcome.value);
  });
}

describe('createCollector', () => {
  it('holds items until the run-end marker, then emits one batch and releases the offsets', async () => {
    const { collector, send, skipOffsets } = setup();
    skipOffsets(40);
    expect(collector.heldFrom!(0)).toBeNull();
    expect(await send(itemMessage('a'))).toEqual([]);
    expect(await send(itemMessage('b', 'run-a', { score: 0.9 }))).toEqual([]);
    expect(collector.heldFrom!(0)).toBe('40');
    expect(collector.heldFrom!(1)).toBeNull();
    const [batch, ...rest] = batchesOf(await send(marker()));
    expect(rest).toEqual([]);
    expect(batch!.items.map((entry) => entry.id)).toEqual(['b', 'a']);
    expect(batch!.stats).toMatchObject({ complete: true, incomplete_reason: null });
    expect(batch!.producer.name).toBe('scorer');
    expect(collector.heldFrom!(0)).toBeNull();
  });

  it('holds from the first offset of the oldest open run of each partition', async () => {
    const { collector, send } = setup();
    await send(itemMessage('a', 'run-a')); // offset 0
    await send(itemMessage('b', 'run-b')); // offset 1
    await send(itemMessage('c', 'run-c'), 1); // offset 2, partition 1
    expect(collector.heldFrom!(0)).toBe('0');
    expect(collector.heldFrom!(1)).toBe('2');
    await send(marker('run-a'));
    expect(collector.heldFrom!(0)).toBe('1');
  });

  it('counts a redelivered item once', async () => {
    const { send } = setup();
    await send(itemMessage('a'));
    await send(itemMessage('a'));
    const [batch] = batchesOf(await send(marker()));
    expect(batch!.items).toHaveLength(1);
    expect(batch!.stats.counts.raw_items).toBe(1);
  });

  it('closes a run idle past the timeout as incomplete on tick, and ignores its stragglers', async () => {
    const { collector, send, advance } = setup();
    await send(itemMessage('a'));
    advance(TIMEOUT_MS);
    expect(await collector.tick!(new Date())).toEqual([]);
    await send(itemMessage('b'));
    advance(TIMEOUT_MS + 1);
    const [batch, ...rest] = batchesOf(await collector.tick!(new Date()));
    expect(rest).toEqual([]);
    expect(batch!.items.map((entry) => entry.id).sort()).toEqual(['a', 'b']);
    expect(batch!.stats.complete).toBe(false);
    expect(batch!.stats.incomplete_reason).toEqual(expect.any(String));
    expect(collector.heldFrom!(0)).toBeNull();

    expect(await send(itemMessage('late'))).toEqual([]);
    expect(await send(marker())).toEqual([]);
    expect(collector.heldFrom!(0)).toBeNull();
    expect(await collector.tick!(new Date())).toEqual([]);
  });

  it('keeps runs apart and closes only the idle one', async () => {
    const { collector, send, advance } = setup();
    await send(itemMessage('a', 'run-a'));
    advance(TIMEOUT_MS / 2);
    await send(itemMessage('b', 'run-b'));
    advance(TIMEOUT_MS / 2 + 1);
    const [closed] = batchesOf(await collector.tick!(new Date()));
    expect(closed!.run_id).toBe('run-a');
    const [other] = batchesOf(await send(marker('run-b')));
    expect(other!.items.map((entry) => entry.id)).toEqual(['b']);
  });

  it('emits a batch for a marker that comes without items', async () => {
    const { send } = setup();
    const [batch] = batchesOf(await send(marker()));
    expect(batch!.items).toEqual([]);
    expect(batch!.stats.complete).toBe(true);
  });

  it('forgets what it held on a new assignment (it will be re-read)', async () => {
    const { collector, send } = setup();
    await send(itemMessage('a'));
    collector.onAssignment!();
    expect(collector.heldFrom!(0)).toBeNull();
    const [batch] = batchesOf(await send(marker()));
    expect(batch!.items).toEqual([]);
  });

  describe('commit notes: runs closed past the committed offset are not closed again after a restart', () => {
    /** Run b opens first and stays open; run a opens and closes behind it. */
    async function interleaved() {
      const first = setup();
      await first.send(itemMessage('held', 'run-b'));
      await first.send(itemMessage('x', 'run-a'));
      await first.send(itemMessage('y', 'run-a'));
      expect(batchesOf(await first.send(marker('run-a')))).toHaveLength(1);
      return first;
    }

    it('names the closed run in the note of the held offset, and a restarted collector skips its re-read input', async () => {
      const first = await interleaved();
      const committedOffset = first.collector.heldFrom!(0);
      expect(committedOffset).toBe('0');
      const note = first.collector.commitNote!(0, committedOffset!);
      expect(note).not.toBeNull();

      // The restart: a new collector gets the note back, then re-reads offsets 0..3 and goes on.
      const second = setup();
      second.collector.restoreCommitNote!(0, note!);
      expect(await second.send(itemMessage('held', 'run-b'))).toEqual([]);
      expect(await second.send(itemMessage('x', 'run-a'))).toEqual([]);
      expect(await second.send(itemMessage('y', 'run-a'))).toEqual([]);
      expect(await second.send(marker('run-a'))).toEqual([]);
      const [batch, ...rest] = batchesOf(await second.send(marker('run-b')));
      expect(rest).toEqual([]);
      expect(batch!.run_id).toBe('run-b');
      expect(batch!.items.map((entry) => entry.id)).toEqual(['held']);
    });

    it('without the note the re-read closes the run a second time (what the note prevents)', async () => {
      await interleaved();
      const second = setup();
      await second.send(itemMessage('held', 'run-b'));
      await second.send(itemMessage('x', 'run-a'));
      await second.send(itemMessage('y', 'run-a'));
      expect(batchesOf(await second.send(marker('run-a')))[0]!.run_id).toBe('run-a');
    });

    it('forgets a closed run once the commit has passed all of its input, and writes no note when nothing is pending', async () => {
      const first = await interleaved();
      expect(first.collector.commitNote!(0, '4')).toBeNull();
      expect(first.collector.commitNote!(1, '0')).toBeNull();
    });

    it('keeps the note under the broker’s metadata limit, naming the newest closed runs first', async () => {
      const { collector, send } = setup();
      await send(itemMessage('held', 'run-held'));
      for (let run = 0; run < 400; run++) await send(marker(`run-${String(run).padStart(3, '0')}`));
      const note = collector.commitNote!(0, '0')!;
      expect(Buffer.byteLength(note)).toBeLessThanOrEqual(COMMIT_NOTE_MAX_BYTES);
      const named = (JSON.parse(note) as { closedRuns: string[] }).closedRuns;
      expect(named.length).toBeGreaterThan(150);
      expect(named.length).toBeLessThan(400);
      expect(named[0]).toMatch(/@400$/);

      const restored = setup();
      restored.collector.restoreCommitNote!(0, note);
      expect(await restored.send(marker('run-399'))).toEqual([]);
      expect(batchesOf(await restored.send(marker('run-000')))).toHaveLength(1);
    });

    it('ignores a note it did not write', async () => {
      const { collector, send } = setup();
      collector.restoreCommitNote!(0, 'written by another tool');
      collector.restoreCommitNote!(0, '{"closedRuns":["not-a-hash@x", 7]}');
      expect(batchesOf(await send(marker('run-a')))).toHaveLength(1);
    });
  });
});
