/** Replay's public face: what the CLI uses of it. */
export { buildReplayReport, REPLAY_DIFF_VERSION, type ReplayReport } from './replay-report.ts';
export { buildReplayRequest, type ReplayRequestInput } from './replay-request.ts';
export { createReplayStages } from './replay-stages.ts';
export { DIFF_JSON_FILE, replayTopic, type ReplayProgress, type ReplaySummary } from './replay-topic.ts';
