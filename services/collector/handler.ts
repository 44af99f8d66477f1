/**
 * collector: scored-results → ingest-normalized. Keeps each open run's items in memory until its
 * end marker arrives (or a timeout closes it as incomplete), then emits one IngestBatch. The runner
 * never commits past the first offset of a run still open, so a crash re-reads and rebuilds it.
 */
import { topicKey } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import { emit, type Handler, type Outcome } from '../../runtime/runner.ts';
import type { Producer, RequestContext, ScoredItem, ScoredResult } from '../../schemas/messages.ts';
import { assembleBatch, type ClosedRun } from './assemble-batch.ts';

interface OpenRun {
  key: string;
  tenant: string;
  topicId: string;
  runId: string;
  partition: number;
  firstOffset: bigint;
  lastSeenMs: number;
  request: RequestContext;
  producer: Producer;
  items: ScoredItem[];
}

/** Runs closed lately: a straggler for one of them is ignored, not opened as a new run. */
const CLOSED_MEMORY = 10_000;

export function createCollector(options: { runTimeoutMs: number; logger: Logger; clock?: () => number }): Handler<'scored-results'> {
  const now = options.clock ?? Date.now;
  const open = new Map<string, OpenRun>();
  const closed = new Set<string>();

  function rememberClosed(runKey: string): void {
    closed.add(runKey);
    if (closed.size > CLOSED_MEMORY) closed.delete(closed.values().next().value!);
  }

  function close(run: OpenRun, marker: Extract<ScoredResult, { kind: 'RUN_END' }>['run_end'] | null, incompleteReason: string | null): Outcome {
    open.delete(run.key);
    rememberClosed(run.key);
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
    handle({ value, partition, offset }): Outcome[] {
      const key = `${topicKey({ tenant: value.tenant, topicId: value.topic_id })}/${value.run_id}`;
      if (closed.has(key)) {
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
        lastSeenMs: now(),
        request: value.request,
        producer: value.producer,
        items: [],
      };
      open.set(key, run);
      run.lastSeenMs = now();
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
