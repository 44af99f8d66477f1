/**
 * Scoring for a replay, shared between the scorer's worker threads and the event loop. A provider
 * response goes to the workers as soon as the replay reads it, ahead of its turn, while they hold
 * fewer than WORKER_BACKLOG responses each; any other the event loop scores itself when its turn
 * comes. So the workers score the next runs while the event loop collects and writes the current
 * one, and when they fall behind the event loop takes a share instead of waiting: on two cores
 * one worker and the event loop are both busy, without a second worker's memory.
 * The scorer still takes responses one at a time in offset order (its run tallies need that).
 */
import type { ScorePool } from '../scorer/score-pool.ts';
import type { ResponseMessage, ScoredResponse } from '../scorer/score-response.ts';

/**
 * Responses a worker holds, at most, beyond those the event loop scores: one to score and one
 * queued keeps it busy without leaving the event loop idle at its turn.
 */
const WORKER_BACKLOG = 2;

export interface ReadAheadPool extends ScorePool {
  /** Starts scoring the message in a worker if they have room; `score` with the same message object later gives the result. */
  readAhead(message: ResponseMessage): void;
}

export function createReadAheadPool(pool: ScorePool, scoreOnLoop: (message: ResponseMessage) => ScoredResponse): ReadAheadPool {
  const started = new Map<ResponseMessage, Promise<ScoredResponse>>();
  let inWorkers = 0;
  return {
    size: pool.size,
    model: pool.model,
    readAhead(message) {
      if (inWorkers >= WORKER_BACKLOG * pool.size) return;
      inWorkers += 1;
      const scoring = pool.score(message);
      // Its failure reaches the scorer when it asks for the result; one never asked for (the
      // replay failed before its turn) must not end the process as an unhandled rejection.
      scoring.then(() => (inWorkers -= 1), () => (inWorkers -= 1));
      started.set(message, scoring);
    },
    async score(message) {
      const scoring = started.get(message);
      if (scoring === undefined) return scoreOnLoop(message);
      started.delete(message);
      return scoring;
    },
    close: () => pool.close(),
  };
}
