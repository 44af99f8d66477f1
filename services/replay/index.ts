/** Replay's public face: what the CLI uses of it. */
export { letterDetail, letterJson, letterLine } from './dead-letters/format-letter.ts';
export { acquireRedriveLock, ledgerFile, openRedriveLedger } from './dead-letters/redrive-ledger.ts';
export { letterAddress, matchesFilter, parseLetterAddress, parseLetterFilter, planRedrive, type LetterFilter, type RedrivePlan } from './dead-letters/select-letters.ts';
export { buildReplayReport, type ReplayReport } from './replay-report.ts';
export { buildReplayRequest, type ReplayRequestInput } from './replay-request.ts';
export { createReplayStages } from './replay-stages.ts';
export { replayTopic, type ReplayProgress, type ReplaySummary } from './replay-topic.ts';
