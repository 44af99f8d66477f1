/**
 * monitor: sources.json → retrieval-requests. On each tick it looks at every topic of every
 * tenant under the data root and emits a request for each topic whose cadence is due, with the
 * window since the end of its last run. A broken sources.json is reported and skipped; the other
 * topics still run.
 */
import fs from 'node:fs';
import { ingestDir, listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import { describeError } from '../../runtime/errors.ts';
import { resolveInside } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { LATEST_FILE } from '../sink/batch-sink.ts';
import { buildRetrievalRequest } from './build-request.ts';
import { isDue } from './cadence.ts';
import { loadSourcesFile } from './sources-file.ts';

export interface TickReport {
  emitted: Array<{ tenant: string; topicId: string; runId: string }>;
  skipped: Array<{ tenant: string; topicId: string; problem: string }>;
}

/** The end of the window of the run in latest-ingest.json: where the next window starts. */
export function lastRunUntil(dataRoot: string, tenant: string, topicId: string): string | null {
  try {
    const latest = JSON.parse(fs.readFileSync(resolveInside(ingestDir(dataRoot, tenant, topicId), LATEST_FILE), 'utf8')) as { time_window?: { until?: unknown } };
    return typeof latest.time_window?.until === 'string' ? latest.time_window.until : null;
  } catch {
    return null;
  }
}

export function createMonitor(options: { dataRoot: string; logger: Logger; publish: (request: RetrievalRequest) => Promise<void> }) {
  // Windows already requested in this process, so a tick before the sink wrote the run does not re-fire it.
  const requestedUntil = new Map<string, string>();
  return {
    async tick(now: Date): Promise<TickReport> {
      const report: TickReport = { emitted: [], skipped: [] };
      for (const { tenant, topicId } of listTopics(options.dataRoot)) {
        const key = `${tenant}/${topicId}`;
        try {
          const topic = loadSourcesFile(sourcesFile(options.dataRoot, tenant, topicId));
          const last = [requestedUntil.get(key), lastRunUntil(options.dataRoot, tenant, topicId)].filter((value): value is string => Boolean(value)).sort().at(-1) ?? null;
          if (!isDue(topic.cadence, last, now)) continue;
          const request = buildRetrievalRequest({ tenant, topicId, topic, now, trigger: 'SCHEDULE', lastRunUntil: last });
          await options.publish(request);
          requestedUntil.set(key, request.time_window.until);
          report.emitted.push({ tenant, topicId, runId: request.run_id });
        } catch (error) {
          const problem = describeError(error);
          options.logger.error({ tenant, topicId, problem }, 'topic skipped');
          report.skipped.push({ tenant, topicId, problem });
        }
      }
      return report;
    },
  };
}
