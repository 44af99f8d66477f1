/**
 * collector: scored-results → ingest-normalized. A run is a window: its items are gathered until
 * its end marker arrives (or it goes quiet for the run timeout and closes as incomplete), then it
 * becomes one IngestBatch. Holding, commit notes and stragglers are the window's business
 * (runtime/windows.ts).
 */
import { runKey, topicKeyOf } from '../../domain/run/run.ts';
import type { Logger } from '../../runtime/logger.ts';
import { emit, type Handler } from '../../runtime/handler.ts';
import { windowedHandler } from '../../runtime/windows.ts';
import type { Producer, RequestContext, ScoredItem, ScoredResult } from '../../schemas/messages.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { assembleBatch, type ClosedRun } from './assemble-batch.ts';
import type { RunId, TenantId, TopicId } from '../../runtime/ids.ts';

interface OpenRun {
  tenant: TenantId;
  topicId: TopicId;
  runId: RunId;
  request: RequestContext;
  producer: Producer;
  items: ScoredItem[];
  marker: Extract<ScoredResult, { kind: 'RUN_END' }>['run_end'] | null;
}

/** `model` fuses each run (verdict factors, rank and agreement): the scorer's model, the shipped one by default. */
export function createCollector(options: { runTimeoutMs: number; logger: Logger; clock?: () => number; model?: ScoringModel }): Handler<'scored-results'> {
  const model = options.model ?? DEFAULT_SCORING_MODEL;
  return windowedHandler<'scored-results', OpenRun>({
    input: 'scored-results',
    quietTimeoutMs: options.runTimeoutMs,
    logger: options.logger,
    ...(options.clock ? { clock: options.clock } : {}),
    keyOf: runKey,
    open: (value) => ({ tenant: value.tenant, topicId: value.topic_id, runId: value.run_id, request: value.request, producer: value.producer, items: [], marker: null }),
    add(run, value) {
      if (value.kind === 'ITEM') {
        run.items.push(value.item);
        return 'open';
      }
      // The marker's producer names the run's producer (a provider run or a runtime skill).
      run.producer = value.producer;
      run.marker = value.run_end;
      return 'close';
    },
    close(run, timedOut) {
      const { marker } = run;
      const closedRun: ClosedRun = {
        tenant: run.tenant,
        topicId: run.topicId,
        runId: run.runId,
        request: run.request,
        producer: run.producer,
        items: run.items,
        marker: marker && { counts: marker.counts, finishedAt: marker.finished_at, providerStatus: marker.provider_status, degradationLogJson: marker.degradation_log_json, planJson: marker.plan_json },
        incompleteReason: timedOut ? `no run-end marker within ${Math.round(options.runTimeoutMs / 1000)} s of the last message` : null,
      };
      const batch = assembleBatch(closedRun, model);
      options.logger.info({ tenant: run.tenant, topicId: run.topicId, runId: run.runId, items: batch.items.length, complete: batch.stats.complete }, 'run closed');
      return [emit('ingest-normalized', topicKeyOf(batch), batch)];
    },
  });
}
