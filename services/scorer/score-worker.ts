/**
 * A scoring worker thread: receives provider responses from the scorer's pool, normalized or
 * not (the pool's parseOn), and answers with the response scorer's result, scored with the
 * pool's model. An unexpected error is sent back with its message and stack, so the scorer fails loudly
 * on it as it would on the event loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { compileScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { builtinParsers } from './normalize-response.ts';
import { createResponseScorer } from './score-response.ts';
import type { ScoreReply, ScoreTask, ScoreWorkerData, WorkerMessage } from './score-pool.ts';

const scoreResponse = createResponseScorer({ parsers: builtinParsers(), model: compileScoringModel((workerData as ScoreWorkerData).model) });
const port = parentPort!;
// Its modules are loaded (about half a second after the thread starts): the pool may hand it work now.
port.postMessage({ ready: true } satisfies WorkerMessage);

port.on('message', (task: ScoreTask) => {
  let reply: ScoreReply;
  try {
    reply = { id: task.id, result: scoreResponse(task.message, task.results) };
  } catch (error) {
    reply = { id: task.id, error: { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? (error.stack ?? '') : '' } };
  }
  port.postMessage(reply);
});
