/** The scorer stage's public face: what the pipeline, replay and the CLI use of it. */
export { createScorer } from './handler.ts';
export { createScorePool } from './score-pool.ts';
