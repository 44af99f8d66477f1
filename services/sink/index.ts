/** The sink stage's public face: what the pipeline, replay and the CLI use of it. */
export { DIGEST_FILE, createBatchSink } from './batch-sink.ts';
export { MEMORY_FILE } from './evidence-memory.ts';
export { compactTimestamp } from './file-names.ts';
export { createRawSink } from './raw-sink.ts';
export { syncFilesUnder, writeFileAtomic } from '../../runtime/write-atomic.ts';
