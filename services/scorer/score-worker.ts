/**
 * A scoring worker thread: receives provider responses from the scorer's pool and answers with
 * scoreResponse's result. An unexpected error is sent back with its message and stack, so the
 * scorer fails loudly on it as it would on the event loop.
 */
import { parentPort } from 'node:worker_threads';
import { builtinParsers } from './normalize-response.ts';
import { scoreResponse, type ResponseMessage } from './score-response.ts';
import type { ScoreReply, ScoreTask } from './score-pool.ts';

const parsers = builtinParsers();
const port = parentPort!;

port.on('message', (task: ScoreTask) => {
  let reply: ScoreReply;
  try {
    reply = { id: task.id, result: scoreResponse(task.message as ResponseMessage, parsers) };
  } catch (error) {
    reply = { id: task.id, error: { message: error instanceof Error ? error.message : String(error), stack: error instanceof Error ? (error.stack ?? '') : '' } };
  }
  port.postMessage(reply);
});
