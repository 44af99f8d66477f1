/**
 * scorer → collector → sink in this process, over raw-results read back from Kafka: the current
 * code and config, no provider is called again. Between stages every value goes through the serde
 * (serde.relay: the zod contract and the Avro type, what an encode and decode would check and give),
 * as it would between the live services.
 * Runs whose end marker lies after the range, or whose first responses lie before it, close as
 * incomplete with that reason.
 * With a scoring pool, responses are scored in its worker threads as they are read, up to
 * READ_AHEAD_RECORDS ahead of the record the event loop is collecting and writing, and by the
 * event loop when the workers have enough in hand (read-ahead-pool.ts); everything after the
 * scoring itself still goes record by record in offset order, so the files are the same.
 */
import { runKey } from '../../domain/run/run.ts';
import type { StoredRecord } from '../../runtime/topic-readers.ts';
import { SkryaError } from '../../runtime/errors.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { HandlerContext, IncomingMessage, Outcome } from '../../runtime/handler.ts';
import type { Serde } from '../../runtime/serde.ts';
import type { IngestBatch, RawResult, ScoredResult } from '../../schemas/messages.ts';
import type { TopicName } from '../../topics/topics.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { createCollector } from '../collector/index.ts';
import { builtinParsers, createResponseScorer, createScorer, type ScorePool } from '../scorer/index.ts';
import { createStagingStore } from '../../runtime/sink-store.ts';
import { compactTimestamp, createBatchSink } from '../sink/index.ts';
import type { RunId } from '../../runtime/ids.ts';
import { createReadAheadPool } from './read-ahead-pool.ts';

export interface ReplayedRun {
  runId: RunId;
  requestedAt: string;
  /** Relative to the replay folder, and the same name as the original run's file under ingest/. */
  file: string;
  complete: boolean;
  incompleteReason: string | null;
  items: number;
}

/** An input that did not make it through, with the code the live pipeline would dead-letter it with. */
export interface ReplayRejection {
  partition: number;
  offset: string;
  stage: 'decode' | 'scorer';
  code: string;
  message: string;
}

export interface ReplayStagesResult {
  runs: ReplayedRun[];
  rejected: ReplayRejection[];
}

export interface ReplayStagesOptions {
  serde: Serde;
  logger: Logger;
  runTimeoutMs: number;
  /** The folder the sink writes into (normalized/, latest-ingest.json, digest.md). */
  targetDir: string;
  /** The scorer scores and the collector fuses with it; the shipped model by default. */
  model?: ScoringModel;
  /** Worker threads to score in (with `model`); without one, responses are scored on the event loop. */
  scorePool?: ScorePool;
}

/**
 * Records go in one at a time as they are read, so memory holds the runs still open, not the
 * range: a replay of a month of raw results needs no more memory than one of an hour.
 */
export interface ReplayStages {
  /**
   * The next raw-results record of the topic, in offset order within its partition. Resolves once
   * it is decoded and at most READ_AHEAD_RECORDS are not yet written; fails with the first failure
   * among those it waited for.
   */
  push(record: StoredRecord): Promise<void>;
  /** Closes every run still open (as incomplete) and returns what was replayed, once its files are all written. */
  finish(): Promise<ReplayStagesResult>;
  /** Resolves once every record pushed has gone through and no write of the sink is going on, failed or not: the folder may be removed then. */
  settled(): Promise<void>;
}

/** The latest instant a Date can hold. */
const LATEST_DATE_MS = 8.64e15;
const MARKER_AFTER_RANGE = 'no run-end marker within the replay range';
/**
 * Records read but not yet collected and written, at most: enough for the workers to score the
 * next runs (a few responses each) while the event loop finishes the current one, and few enough
 * that memory holds a handful of responses, not the range.
 */
const READ_AHEAD_RECORDS = 16;

const context: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };

function incoming<T>(topic: TopicName, record: StoredRecord, offset: string, value: T): IncomingMessage<T> {
  return { topic, partition: record.partition, offset, key: record.key?.toString('utf8') ?? null, value, headers: record.headers, timestamp: record.timestamp };
}


export function createReplayStages(options: ReplayStagesOptions): ReplayStages {
  const { serde } = options;
  // The collector's clock stands still during the replay (nothing times out by wall time) and
  // jumps forward at the end, so every run still open closes then.
  let clockMs = 0;
  const model = options.model ?? DEFAULT_SCORING_MODEL;
  const readAhead = options.scorePool ? createReadAheadPool(options.scorePool, createResponseScorer({ parsers: builtinParsers(), model })) : undefined;
  const scorer = createScorer({ model, pool: readAhead });
  const collector = createCollector({ runTimeoutMs: options.runTimeoutMs, logger: options.logger, clock: () => clockMs, model });
  // The staging folder is synced once before it is swapped in (replay-topic.ts), not file by file.
  const store = createStagingStore(options.targetDir);
  const sink = createBatchSink({ store, place: () => '' });

  const runs: ReplayedRun[] = [];
  const rejected: ReplayRejection[] = [];
  const responsesSeen = new Map<string, number>();
  let scoredOffset = 0n;

  async function sinkBatch(record: StoredRecord, batch: IngestBatch, closedByMarker: boolean): Promise<void> {
    let stats = batch.stats;
    if (!closedByMarker) stats = { ...stats, complete: false, incomplete_reason: MARKER_AFTER_RANGE };
    else {
      const seen = responsesSeen.get(runKey(batch)) ?? 0;
      // A closed run is not closed again (the collector remembers it), so its count can go.
      responsesSeen.delete(runKey(batch));
      const total = batch.stats.counts.raw_responses;
      if (seen < total) stats = { ...stats, complete: false, incomplete_reason: `${total - seen} of ${total} provider responses are before the replay range` };
    }
    const value = await serde.relay('ingest-normalized', { ...batch, stats });
    await sink.handle(incoming('ingest-normalized', record, record.offset, value), context);
    runs.push({
      runId: value.run_id,
      requestedAt: value.request.requested_at,
      file: `normalized/${compactTimestamp(value.request.requested_at)}.json`,
      complete: value.stats.complete,
      incompleteReason: value.stats.incomplete_reason,
      items: value.items.length,
    });
  }

  async function collect(record: StoredRecord, outcomes: readonly Outcome[], closedByMarker: boolean): Promise<void> {
    for (const outcome of outcomes) {
      if (outcome.kind !== 'emit' || outcome.topic !== 'ingest-normalized') continue;
      await sinkBatch(record, outcome.value as IngestBatch, closedByMarker);
    }
  }

  /** The record's way through scorer, collector and sink, once every record read before it has gone its way. */
  async function replayRecord(record: StoredRecord, decoded: RawResult | ReplayRejection): Promise<void> {
    if (!('kind' in decoded)) {
      rejected.push(decoded);
      return;
    }
    if (decoded.kind === 'RESPONSE') responsesSeen.set(runKey(decoded), (responsesSeen.get(runKey(decoded)) ?? 0) + 1);
    for (const outcome of await scorer.handle(incoming('raw-results', record, record.offset, decoded), context)) {
      if (outcome.kind === 'deadLetter') rejected.push({ partition: record.partition, offset: record.offset, stage: 'scorer', code: outcome.code, message: outcome.message });
      if (outcome.kind !== 'emit') continue;
      const scored = await serde.relay('scored-results', outcome.value as ScoredResult);
      const offset = String(scoredOffset);
      scoredOffset += 1n;
      await collect(record, await collector.handle(incoming('scored-results', record, offset, scored), context), true);
    }
  }

  async function decode(record: StoredRecord): Promise<RawResult | ReplayRejection> {
    try {
      if (record.value === null) throw new SkryaError('UNDECODABLE', 'empty (tombstone) value');
      return await serde.decode('raw-results', record.value);
    } catch (error) {
      if (!(error instanceof SkryaError) || error.retriable) throw error;
      return { partition: record.partition, offset: record.offset, stage: 'decode', code: error.code, message: error.message };
    }
  }

  // Each record's way starts when the one before it has ended: `tail` is the newest, `inFlight`
  // those a push has not yet waited for. A failure fails every way after it, and with it the push
  // that waits for one of them, or finish.
  let tail: Promise<void> = Promise.resolve();
  const inFlight: Array<Promise<void>> = [];
  let lastRecord: StoredRecord | undefined;
  return {
    async push(record) {
      lastRecord = record;
      const decoded = await decode(record);
      if ('kind' in decoded && decoded.kind === 'RESPONSE') readAhead?.readAhead(decoded);
      const way = tail.then(() => replayRecord(record, decoded));
      // Reported by the push that waits for it, or by finish or the next push through `tail`.
      way.catch(() => {});
      tail = way;
      inFlight.push(way);
      while (inFlight.length > READ_AHEAD_RECORDS) await inFlight.shift();
    },

    async finish() {
      await tail;
      inFlight.length = 0;
      clockMs = LATEST_DATE_MS;
      if (lastRecord) await collect(lastRecord, await collector.tick!(new Date(clockMs)), false);
      await store.settled();
      runs.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0));
      return { runs, rejected };
    },

    async settled() {
      // After a failed way no later one starts, so once `tail` is done no write begins.
      await tail.catch(() => {});
      await store.settled().catch(() => {});
    },
  };
}
