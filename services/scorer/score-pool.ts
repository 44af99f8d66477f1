/**
 * Scoring worker threads. Normalizing, screening and scoring a provider response is pure CPU work
 * (about 10 ms for a ten-result response), so on a machine with more than one core the scorer
 * hands it to workers and its event loop keeps to Kafka, Avro and the run tallies. The runner
 * handles up to three partitions at once, so several responses are scored side by side; within a
 * partition the order stays the input order (the runner awaits each message).
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../runtime/worker-threads.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel, ScoringModelDefinition } from '../../domain/scoring-model/scoring-model.ts';
import type { ResponseMessage, ScoredResponse } from './score-response.ts';

export interface ScoreTask {
  id: number;
  message: ResponseMessage;
}

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

export function createScorePool(size: number, model: ScoringModel = DEFAULT_SCORING_MODEL): ScorePool {
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

  return {
    size,
    model,
    score(message) {
      const live = workers.filter((entry) => entry.alive);
      if (closed || live.length === 0) return Promise.reject(new Error(closed ? 'the scoring pool was closed' : 'no scoring worker is alive'));
      // The least busy ready worker takes it; with none ready yet, a starting one queues it on its port.
      const candidates = live.some((entry) => entry.ready) ? live.filter((entry) => entry.ready) : live;
      const target = candidates.reduce((least, entry) => (entry.pending.size < least.pending.size ? entry : least));
      const id = nextId++;
      return new Promise<ScoredResponse>((resolve, reject) => {
        target.pending.set(id, { resolve, reject });
        target.worker.postMessage({ id, message } satisfies ScoreTask);
      });
    },
    whenReady: () => ready,
    utilization: () => workers.map((entry) => entry.worker.performance.eventLoopUtilization()),
    async close() {
      closed = true;
      await Promise.all(workers.map((entry) => entry.worker.terminate()));
    },
  };
}
