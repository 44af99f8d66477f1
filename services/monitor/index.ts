/** The monitor's public face: what the pipeline and the CLI use of it. */
export { buildRetrievalRequest } from './build-request.ts';
export { nextRunAfter } from './cadence.ts';
export { migrateSourcesText, unifiedDiff } from './migrate-sources.ts';
export { createMonitor, lastRunUntil } from './monitor.ts';
export { createDataTreeConfigs, readTopicConfig } from './data-tree-configs.ts';
export { formatProblem, lintSourcesText, loadSourcesFile } from './sources-file.ts';
export { toTopicConfig } from './topic-config.ts';
