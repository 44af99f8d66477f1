/**
 * sink, batches: ingest-normalized → <data-root>/<tenant>/runs/<topic>/ingest/
 * normalized/<timestamp>.json and digest.md for every run; latest-ingest.json when the run is the
 * newest seen for that topic, with what changed since the previous run. Atomic and idempotent: the
 * same batch twice gives the same bytes.
 */
import fs from 'node:fs';
import { ingestDir } from '../../runtime/data-paths.ts';
import { resolveInside } from '../../runtime/ids.ts';
import { drop, type Handler } from '../../runtime/runner.ts';
import type { IngestBatch } from '../../schemas/messages.ts';
import { compactTimestamp } from './file-names.ts';
import { ingestDocument, renderIngestDocument } from './ingest-document.ts';
import { diffRuns, previousRun, renderChanges, type RunChanges } from './run-changes.ts';
import { writeFileAtomic } from './write-atomic.ts';

export const LATEST_FILE = 'latest-ingest.json';
export const DIGEST_FILE = 'digest.md';

export interface BatchSinkOptions {
  dataRoot: string;
  /** Where a batch lands; replays write into replays/<id>/ instead. */
  targetDir?: (tenant: string, topicId: string) => string;
  /**
   * The live sink: once a run's file is written, a different batch of the same run is dropped. It can
   * only be a re-emission made of part of the run: a collector restarted from an offset inside a run it
   * had already closed (runs of topics sharing a partition interleave) re-reads that run's tail and
   * closes it again with only those items, and a stage upstream that is killed re-sends the tail of what
   * it had produced. The run's first batch holds all of it. Replays leave this off: they write over the
   * originals linked into their staging folder on purpose.
   */
  keepWrittenRuns?: boolean;
}

/** The document minus its comparison with the previous run, which depends on the folder, not on the batch. */
function withoutChanges(document: object): string {
  return JSON.stringify({ ...document, changes: null });
}

/** True when `file` holds this run already, from a batch other than this one. */
function writtenFromAnotherBatch(file: string, batch: IngestBatch, changes: RunChanges): boolean {
  let existing: { run_id?: unknown };
  try {
    existing = JSON.parse(fs.readFileSync(file, 'utf8')) as { run_id?: unknown };
  } catch {
    return false;
  }
  return existing.run_id === batch.run_id && withoutChanges(existing) !== withoutChanges(ingestDocument(batch, changes));
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
      const runFile = resolveInside(dir, 'normalized', `${stamp}.json`);
      if (options.keepWrittenRuns && writtenFromAnotherBatch(runFile, batch, changes)) {
        return [drop(`run ${batch.run_id} was written from an earlier batch; this different batch of it is a partial re-emission`)];
      }
      const document = renderIngestDocument(batch, changes);
      writeFileAtomic(runFile, document);
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
