/**
 * Scoring worker threads. Normalizing a provider response (its JSON or feed parsed into
 * results, about 30 µs a result) and the item steps (validate, screen, score: about 90 µs a
 * result) are pure CPU work, so on a machine with more than one core the scorer hands them to
 * workers, and its event loop keeps to Kafka, Avro and the run tallies. Where the parsing runs is
 * the pool's `parseOn`, set to balance the two threads on two cores, as measured:
 * - 'caller' for the live scorer with one worker (two cores): with whole responses in the worker,
 *   the worker was the limit (busy 83–91 %, the event loop 51–56 %; scorer / passthrough
 *   0.19–0.23); parsed on the event loop, both are busy (75–79 % and 88–90 %; 0.26–0.31). With
 *   more workers they parse (scorerParseOn, services/catalog.ts).
 * - 'workers' for a replay, whose event loop also collects and writes the runs: parsed on it,
 *   the replay fell from 4,796–4,872 to 4,178–4,504 items/s.
 * The runner handles up to three partitions at once, so several responses are scored side by
 * side; within a partition the order stays the input order (the runner awaits each message).
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../runtime/worker-threads.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel, ScoringModelDefinition } from '../../domain/scoring-model/scoring-model.ts';
import { builtinParsers } from './normalize-response.ts';
import type { ResponseMessage, ScoredResponse } from './score-response.ts';
import { createNormalizeStep } from './steps/normalize.ts';

/**
 * A response to score: its provider results when the caller normalized it, else null (the worker
 * does). With results, the message's payload is left out: the worker has no use for it, and copying
 * it to the worker (and each result's texts twice, as a candidate's) cost each thread 2-3 µs a result.
 */
export interface ScoreTask {
  id: number;
  message: ResponseMessage;
  results: readonly ProviderResult[] | null;
}

/** Where a response is normalized: on the thread that calls `score`, or in the worker that scores it. */
export type ParseOn = 'caller' | 'workers';

/** What a worker starts with: the model as plain data (functions do not cross threads), compiled there once. */
export interface ScoreWorkerData {
  model: ScoringModelDefinition;
}

export type ScoreReply = { id: number; result: ScoredResponse } | { id: number; error: { message: string; stack: string } };
/** What a worker posts: once `ready` when its modules are loaded, then a reply per task. */
export type WorkerMessage = ScoreReply | { ready: true };

export interface ScorePool {
  readonly size: number;
  /** The scoring model every worker scores with. */
  readonly model: ScoringModel;
  /** Scores the response in a worker, normalized first on this thread with parseOn 'caller'. */
  score(message: ResponseMessage): Promise<ScoredResponse>;
  /**
   * Resolves once a worker has loaded its modules and scores what it is given at once (one still
   * loading, about half a second after the pool starts, only queues it); rejects when every worker
   * failed before that. A caller with work it can do itself meanwhile (replay) waits for this
   * before handing any over.
   */
  whenReady(): Promise<void>;
  /**
   * Each worker's event-loop utilization since it started: busy is scoring. Two readings and
   * performance.eventLoopUtilization(later, earlier) give a window's share, which tells whether
   * the scorer is bound by its workers (near 1) or by its event loop and the broker.
   */
  utilization(): EventLoopUtilization[];
  /** Stops the workers; a response still being scored fails (its input is not committed). */
  close(): Promise<void>;
}

interface Pending {
  resolve: (result: ScoredResponse) => void;
  reject: (error: Error) => void;
}

interface PooledWorker {
  worker: Worker;
  pending: Map<number, Pending>;
  alive: boolean;
  ready: boolean;
}

const WORKER_ENTRY = new URL('./score-worker.ts', import.meta.url);

export function createScorePool(size: number, options: { model?: ScoringModel; parseOn?: ParseOn } = {}): ScorePool {
  const { model = DEFAULT_SCORING_MODEL, parseOn = 'workers' } = options;
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`a scoring pool needs at least one worker, got ${size}`);
  let nextId = 0;
  let closed = false;
  const { promise: ready, resolve: markReady, reject: failStart } = Promise.withResolvers<void>();
  // Nobody may be waiting for it: a pool that never started must not end the process on its own.
  ready.catch(() => {});

  const workers: PooledWorker[] = Array.from({ length: size }, () => {
    const pooled: PooledWorker = { worker: startWorker(WORKER_ENTRY, { workerData: { model: model.definition } satisfies ScoreWorkerData }), pending: new Map(), alive: true, ready: false };
    const failAll = (error: Error) => {
      pooled.alive = false;
      for (const task of pooled.pending.values()) task.reject(error);
      pooled.pending.clear();
      if (workers.every((entry) => !entry.alive)) failStart(error);
    };
    pooled.worker.on('message', (reply: WorkerMessage) => {
      if ('ready' in reply) {
        pooled.ready = true;
        markReady();
        return;
      }
      const task = pooled.pending.get(reply.id);
      if (!task) return;
      pooled.pending.delete(reply.id);
      if ('result' in reply) task.resolve(reply.result);
      else task.reject(Object.assign(new Error(`scoring worker: ${reply.error.message}`), { stack: reply.error.stack }));
    });
    pooled.worker.on('error', (error) => failAll(new Error(`a scoring worker failed: ${error.message}`, { cause: error })));
    pooled.worker.on('exit', (code) => failAll(new Error(closed ? 'the scoring pool was closed' : `a scoring worker exited with code ${code}`)));
    return pooled;
  });

  const normalize = parseOn === 'caller' ? createNormalizeStep(builtinParsers()) : null;

  function scoreInWorker(message: ResponseMessage, results: readonly ProviderResult[] | null): Promise<ScoredResponse> {
    const live = workers.filter((entry) => entry.alive);
    if (closed || live.length === 0) return Promise.reject(new Error(closed ? 'the scoring pool was closed' : 'no scoring worker is alive'));
    // The least busy ready worker takes it; with none ready yet, a starting one queues it on its port.
    const takers = live.some((entry) => entry.ready) ? live.filter((entry) => entry.ready) : live;
    const target = takers.reduce((least, entry) => (entry.pending.size < least.pending.size ? entry : least));
    const id = nextId++;
    return new Promise<ScoredResponse>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.postMessage({ id, message, results } satisfies ScoreTask);
    });
  }

  return {
    size,
    model,
    async score(message) {
      if (normalize === null) return scoreInWorker(message, null);
      const normalized = normalize(message);
      if (normalized.kind === 'normalize-failed') return normalized;
      return scoreInWorker({ ...message, response: { ...message.response, payload: '' } }, normalized.results);
    },
    whenReady: () => ready,
    utilization: () => workers.map((entry) => entry.worker.performance.eventLoopUtilization()),
    async close() {
      closed = true;
      await Promise.all(workers.map((entry) => entry.worker.terminate()));
    },
  };
}
