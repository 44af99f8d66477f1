/** The scorer stage's public face: what the pipeline, replay and the CLI use of it. */
export { createScorer } from './handler.ts';
export { builtinParsers } from './normalize-response.ts';
export { createScorePool, type ParseOn, type ScorePool } from './score-pool.ts';
export { createResponseScorer, type ResponseMessage, type ScoredResponse } from './score-response.ts';
