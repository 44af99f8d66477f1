/** Replay's public face: what the CLI uses of it. */
export { buildReplayReport, type ReplayReport } from './replay-report.ts';
export { buildReplayRequest, type ReplayRequestInput } from './replay-request.ts';
export { createReplayStages } from './replay-stages.ts';
export { replayTopic, type ReplayProgress, type ReplaySummary } from './replay-topic.ts';
