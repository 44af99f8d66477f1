/**
 * sink, batches: ingest-normalized → <data-root>/<tenant>/runs/<topic>/ingest/
 * normalized/<timestamp>.json and digest.md for every run; latest-ingest.json when the run is the
 * newest seen for that topic, with what changed since the previous run. Atomic and idempotent: the
 * same batch twice gives the same bytes.
 */
import fs from 'node:fs';
import { ingestDir } from '../../runtime/data-paths.ts';
import { resolveInside } from '../../runtime/ids.ts';
import type { Handler } from '../../runtime/runner.ts';
import { compactTimestamp } from './file-names.ts';
import { renderIngestDocument } from './ingest-document.ts';
import { diffRuns, previousRun, renderChanges } from './run-changes.ts';
import { writeFileAtomic } from './write-atomic.ts';

export const LATEST_FILE = 'latest-ingest.json';
export const DIGEST_FILE = 'digest.md';

export interface BatchSinkOptions {
  dataRoot: string;
  /** Where a batch lands; replays write into replays/<id>/ instead. */
  targetDir?: (tenant: string, topicId: string) => string;
}

/** The requested_at of the run currently in latest-ingest.json, or null. */
function currentLatestRequestedAt(file: string): string | null {
  try {
    const current = JSON.parse(fs.readFileSync(file, 'utf8')) as { run_requested_at?: unknown; run_id?: unknown };
    return typeof current.run_requested_at === 'string' ? current.run_requested_at : null;
  } catch {
    return null;
  }
}

export function createBatchSink(options: BatchSinkOptions): Handler<'ingest-normalized'> {
  const target = options.targetDir ?? ((tenant: string, topicId: string) => ingestDir(options.dataRoot, tenant, topicId));
  return {
    input: 'ingest-normalized',
    handle({ value: batch }) {
      const dir = target(batch.tenant, batch.topic_id);
      const stamp = compactTimestamp(batch.request.requested_at);
      const changes = diffRuns(previousRun(dir, stamp), batch.items);
      const document = renderIngestDocument(batch, changes);
      writeFileAtomic(resolveInside(dir, 'normalized', `${stamp}.json`), document);
      const latest = resolveInside(dir, LATEST_FILE);
      const current = currentLatestRequestedAt(latest);
      // An older run (a late batch, a re-delivery) never replaces a newer latest.
      if (current === null || Date.parse(batch.request.requested_at) >= Date.parse(current)) {
        writeFileAtomic(latest, document);
        writeFileAtomic(resolveInside(dir, DIGEST_FILE), `${batch.digest_markdown}${renderChanges(changes)}`);
      }
      return [];
    },
  };
}
