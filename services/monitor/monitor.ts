/**
 * monitor: sources.json → retrieval-requests. On each tick it looks at every topic of every
 * tenant under the data root and emits a request for each topic whose cadence is due, with the
 * window since the end of its last run. A broken sources.json is reported and skipped; the other
 * topics still run.
 */
import fs from 'node:fs';
import { ingestDir, LATEST_FILE, listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import { describeError } from '../../runtime/errors.ts';
import { resolveInside } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { MonitorState, RetrievalRequest } from '../../schemas/messages.ts';
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

export interface MonitorOptions {
  dataRoot: string;
  logger: Logger;
  /**
   * Emits the request and the topic's new state together (one Kafka transaction in the service),
   * so a restart can neither fire a window twice nor skip one.
   */
  publish: (request: RetrievalRequest, state: MonitorState) => Promise<void>;
  /** The state read back from the monitor-state topic at start-up, by `<tenant>/<topic-id>`. */
  state?: Map<string, MonitorState>;
}

export function createMonitor(options: MonitorOptions) {
  const state = options.state ?? new Map<string, MonitorState>();
  return {
    async tick(now: Date): Promise<TickReport> {
      const report: TickReport = { emitted: [], skipped: [] };
      for (const { tenant, topicId } of listTopics(options.dataRoot)) {
        const key = `${tenant}/${topicId}`;
        try {
          const topic = loadSourcesFile(sourcesFile(options.dataRoot, tenant, topicId));
          // Kafka state first; a topic it has never seen may have runs from before (the files say).
          const last = state.get(key)?.last_window_until ?? lastRunUntil(options.dataRoot, tenant, topicId);
          if (!isDue(topic.cadence, last, now)) continue;
          const request = buildRetrievalRequest({ tenant, topicId, topic, now, trigger: 'SCHEDULE', lastRunUntil: last });
          const next: MonitorState = {
            tenant,
            topic_id: topicId,
            last_run_id: request.run_id,
            last_window_since: request.time_window.since,
            last_window_until: request.time_window.until,
            fired_at: now.toISOString(),
          };
          await options.publish(request, next);
          state.set(key, next);
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
