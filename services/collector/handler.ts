/**
 * collector: scored-results → ingest-normalized. Keeps each open run's items in memory until its
 * end marker arrives (or a timeout closes it as incomplete), then emits one IngestBatch. The runner
 * never commits past the first offset of a run still open, so a crash re-reads and rebuilds it.
 * Runs closed meanwhile whose input lies past that offset are named in the commit's note, so the
 * re-read skips them instead of publishing a partial second batch.
 */
import { createHash } from 'node:crypto';
import { topicKey } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import { COMMIT_NOTE_MAX_BYTES, emit, type Handler, type Outcome } from '../../runtime/runner.ts';
import type { Producer, RequestContext, ScoredItem, ScoredResult } from '../../schemas/messages.ts';
import { assembleBatch, type ClosedRun } from './assemble-batch.ts';

interface OpenRun {
  key: string;
  tenant: string;
  topicId: string;
  runId: string;
  partition: number;
  firstOffset: bigint;
  lastOffset: bigint;
  lastSeenMs: number;
  request: RequestContext;
  producer: Producer;
  items: ScoredItem[];
}

/** A closed run as a commit note names it: a short hash of its key and its last input offset. */
interface FinishedRun {
  hash: string;
  lastOffset: bigint;
}

/** Runs closed lately: a straggler for one of them is ignored, not opened as a new run. */
const CLOSED_MEMORY = 10_000;

/** 64 bits of the run key: about 200 closed runs fit in one commit note. */
function runHash(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 11);
}

const NOTE_ENTRY = /^([A-Za-z0-9_-]{11})@(\d{1,19})$/;

export function createCollector(options: { runTimeoutMs: number; logger: Logger; clock?: () => number }): Handler<'scored-results'> {
  const now = options.clock ?? Date.now;
  const open = new Map<string, OpenRun>();
  const closed = new Set<string>();
  /** Per partition: closed runs whose input may lie past the committed offset. */
  const finished = new Map<number, FinishedRun[]>();

  function rememberClosed(hash: string, partition: number, lastOffset: bigint): void {
    closed.add(hash);
    if (closed.size > CLOSED_MEMORY) closed.delete(closed.values().next().value!);
    const list = finished.get(partition) ?? [];
    const entry = list.find((run) => run.hash === hash);
    if (entry) entry.lastOffset = entry.lastOffset > lastOffset ? entry.lastOffset : lastOffset;
    else list.push({ hash, lastOffset });
    // Commits prune the list; without them (a replay) it keeps only as many as `closed` does.
    if (list.length > CLOSED_MEMORY) list.shift();
    finished.set(partition, list);
  }

  function close(run: OpenRun, marker: Extract<ScoredResult, { kind: 'RUN_END' }>['run_end'] | null, incompleteReason: string | null): Outcome {
    open.delete(run.key);
    rememberClosed(runHash(run.key), run.partition, run.lastOffset);
    const closedRun: ClosedRun = {
      tenant: run.tenant,
      topicId: run.topicId,
      runId: run.runId,
      request: run.request,
      producer: run.producer,
      items: run.items,
      marker: marker && { counts: marker.counts, finishedAt: marker.finished_at, providerStatus: marker.provider_status, degradationLogJson: marker.degradation_log_json, planJson: marker.plan_json },
      incompleteReason,
    };
    const batch = assembleBatch(closedRun);
    options.logger.info({ tenant: run.tenant, topicId: run.topicId, runId: run.runId, items: batch.items.length, complete: batch.stats.complete }, 'run closed');
    return emit('ingest-normalized', topicKey({ tenant: run.tenant, topicId: run.topicId }), batch);
  }

  return {
    input: 'scored-results',
    onAssignment() {
      // Everything held will be re-read from the committed offsets.
      open.clear();
    },
    heldFrom(partition) {
      let lowest: bigint | null = null;
      for (const run of open.values()) if (run.partition === partition && (lowest === null || run.firstOffset < lowest)) lowest = run.firstOffset;
      return lowest === null ? null : lowest.toString();
    },
    commitNote(partition, offset) {
      const pending = (finished.get(partition) ?? []).filter((run) => run.lastOffset >= BigInt(offset));
      finished.set(partition, pending);
      const entries: string[] = [];
      let bytes = '{"closedRuns":[]}'.length;
      // Newest first: if they cannot all be named, the latest closes are the likeliest to be re-read.
      for (const run of [...pending].reverse()) {
        const entry = `${run.hash}@${run.lastOffset}`;
        if (bytes + entry.length + 3 > COMMIT_NOTE_MAX_BYTES) {
          options.logger.warn({ partition, named: entries.length, left: pending.length - entries.length }, 'too many closed runs past the committed offset to name them all; after a restart the others may be closed again (the sink keeps the first batch)');
          break;
        }
        entries.push(entry);
        bytes += entry.length + 3;
      }
      return entries.length === 0 ? null : JSON.stringify({ closedRuns: entries });
    },
    restoreCommitNote(partition, note) {
      let entries: unknown;
      try {
        entries = (JSON.parse(note) as { closedRuns?: unknown }).closedRuns;
      } catch {
        entries = undefined;
      }
      if (!Array.isArray(entries)) {
        options.logger.warn({ partition }, 'the committed note is not a collector note; ignored');
        return;
      }
      for (const entry of entries) {
        const parsed = typeof entry === 'string' ? NOTE_ENTRY.exec(entry) : null;
        if (parsed) rememberClosed(parsed[1]!, partition, BigInt(parsed[2]!));
      }
    },
    handle({ value, partition, offset }): Outcome[] {
      const key = `${topicKey({ tenant: value.tenant, topicId: value.topic_id })}/${value.run_id}`;
      const hash = runHash(key);
      if (closed.has(hash)) {
        // Remembered as finished while it is still past the committed offset, so a restart skips it too.
        rememberClosed(hash, partition, BigInt(offset));
        options.logger.warn({ runId: value.run_id, offset }, 'message for a run already closed; ignored');
        return [];
      }
      const run = open.get(key) ?? {
        key,
        tenant: value.tenant,
        topicId: value.topic_id,
        runId: value.run_id,
        partition,
        firstOffset: BigInt(offset),
        lastOffset: BigInt(offset),
        lastSeenMs: now(),
        request: value.request,
        producer: value.producer,
        items: [],
      };
      open.set(key, run);
      run.lastSeenMs = now();
      run.lastOffset = BigInt(offset);
      if (value.kind === 'ITEM') {
        run.items.push(value.item);
        return [];
      }
      // The marker's producer names the run's producer (a provider run or a runtime skill).
      run.producer = value.producer;
      return [close(run, value.run_end, null)];
    },
    tick(): Outcome[] {
      const deadline = now() - options.runTimeoutMs;
      return [...open.values()]
        .filter((run) => run.lastSeenMs < deadline)
        .map((run) => close(run, null, `no run-end marker within ${Math.round(options.runTimeoutMs / 1000)} s of the last message`));
    },
  };
}
