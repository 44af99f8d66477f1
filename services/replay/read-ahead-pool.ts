/**
 * Scoring for a replay, shared between the scorer's worker threads and the event loop. Provider
 * responses are queued as the replay reads them, ahead of their turn, and the workers take them
 * from the front, each holding at most WORKER_BACKLOG, refilled as each answers. When a response's
 * turn comes before a worker took it, the event loop scores it itself instead of waiting. So the
 * workers score the next runs while the event loop collects and writes the current one, and when
 * they fall behind the event loop takes a share: on two cores one worker and the event loop are
 * both busy, without a second worker's memory. Nothing is handed to the workers before they are
 * ready (their modules take about half a second to load): until then the event loop scores every
 * response, so a short replay does not wait for a thread that would start after it is done.
 * The scorer still takes responses one at a time in offset order (its run tallies need that).
 */
import type { ResponseMessage, ScoredResponse, ScorePool } from '../scorer/index.ts';

/** Responses a worker holds at most: one to score and one queued, so it never waits for the event loop to hand it the next. */
const WORKER_BACKLOG = 2;

export interface ReadAheadPool extends ScorePool {
  /** Queues the message for the workers; `score` with the same message object later gives its result. */
  readAhead(message: ResponseMessage): void;
}

export function createReadAheadPool(pool: ScorePool, scoreOnLoop: (message: ResponseMessage) => ScoredResponse): ReadAheadPool {
  const queued: ResponseMessage[] = [];
  const started = new Map<ResponseMessage, Promise<ScoredResponse>>();
  let inWorkers = 0;
  let ready = false;
  // Workers that could not start fail the replay at the next turn, as a worker failing later does.
  let startFailure: Error | null = null;
  pool.whenReady().then(
    () => {
      ready = true;
      fillWorkers();
    },
    (error: unknown) => {
      startFailure = error instanceof Error ? error : new Error(String(error));
    },
  );

  function fillWorkers(): void {
    while (ready && inWorkers < WORKER_BACKLOG * pool.size && queued.length > 0) {
      const message = queued.shift()!;
      inWorkers += 1;
      const scoring = pool.score(message);
      // A failure reaches the scorer when it asks for the result; one never asked for (the replay
      // failed before its turn) must not end the process as an unhandled rejection.
      const answered = () => {
        inWorkers -= 1;
        fillWorkers();
      };
      scoring.then(answered, answered);
      started.set(message, scoring);
    }
  }

  return {
    size: pool.size,
    model: pool.model,
    readAhead(message) {
      queued.push(message);
      fillWorkers();
    },
    async score(message) {
      if (startFailure !== null) throw startFailure;
      const scoring = started.get(message);
      if (scoring !== undefined) {
        started.delete(message);
        return scoring;
      }
      // Its turn came first: responses come due in the order they were queued, so it is at the front.
      const index = queued.indexOf(message);
      if (index !== -1) queued.splice(index, 1);
      return scoreOnLoop(message);
    },
    whenReady: () => pool.whenReady(),
    utilization: () => pool.utilization(),
    close: () => pool.close(),
  };
}
