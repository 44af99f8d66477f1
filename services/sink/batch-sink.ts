/**
 * sink, batches: ingest-normalized → <data-root>/<tenant>/runs/<topic>/ingest/
 * normalized/<timestamp>.json for every run, with its status (run-status.ts); latest-ingest.json
 * and digest.md when the run is good and the newest seen for that topic, with what changed against
 * the topic's evidence memory (evidence-memory.ts, run-changes.ts). A failed or incomplete run
 * does not replace them: they keep the last good run and name the attempt and why it failed.
 * Atomic and idempotent: the same batch twice gives the same bytes.
 */
import { ingestKey, LATEST_FILE } from '../../runtime/data-paths.ts';
import { drop, type Handler, type Outcome } from '../../runtime/handler.ts';
import type { IngestBatch } from '../../schemas/messages.ts';
import { storeKey, type SinkStore, type StoredText } from '../../runtime/sink-store.ts';
import { compactTimestamp } from './file-names.ts';
import { readMemory, remember, rememberedRun, runsBefore, writeMemory } from './evidence-memory.ts';
import { ingestDocument, renderIngestDocument, type LastAttempt } from './ingest-document.ts';
import { changesSince, diffRuns, previousRun, renderChanges, type RunChanges } from './run-changes.ts';
import { runStatusOf } from './run-status.ts';

export const DIGEST_FILE = 'digest.md';

export interface BatchSinkOptions {
  /** The data tree: a local folder, or a bucket shared by sinks on several machines (runtime/sink-store.ts). */
  store: SinkStore;
  /** The folder (store key) a topic's batches land in: <tenant>/runs/<topic>/ingest; a replay's store is its own folder (''). */
  place?: (tenant: string, topicId: string) => string;
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

/** The document minus its comparison with earlier runs, which depends on the folder, not on the batch. */
function withoutChanges(document: object): string {
  return JSON.stringify({ ...document, changes: null, last_attempt: null });
}

function parseJson(stored: StoredText | null): Record<string, unknown> | null {
  if (stored === null) return null;
  try {
    const parsed: unknown = JSON.parse(stored.content);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** What latest-ingest.json currently holds: its run's requested_at and the failed attempt it names, if any. */
function latestState(document: Record<string, unknown> | null): { runAt: string; attempt: LastAttempt | null } | null {
  if (document === null || typeof document.run_requested_at !== 'string') return null;
  const attempt = document.last_attempt as LastAttempt | null | undefined;
  return { runAt: document.run_requested_at, attempt: attempt && typeof attempt.requested_at === 'string' ? attempt : null };
}

const later = (a: string, b: string) => Date.parse(a) > Date.parse(b);

/** The first lines of digest.md while the topic's last attempt failed: the rest is still the last good run. */
const ATTEMPT_MARK = '<!-- skrya:last-attempt -->';

function attemptNote(attempt: LastAttempt, goodRunId: string | null): string {
  const still = goodRunId === null ? 'There is no good run of this topic yet.' : `What follows is still the last good run, ${goodRunId}.`;
  return `${ATTEMPT_MARK}\n> **Last attempt ${attempt.status}**: ${attempt.run_id} (requested ${attempt.requested_at}): ${attempt.reason}. ${still} Its record: \`${attempt.file}\`.\n\n`;
}

function withoutAttemptNote(digest: string): string {
  if (!digest.startsWith(ATTEMPT_MARK)) return digest;
  const end = digest.indexOf('\n\n', ATTEMPT_MARK.length);
  return end === -1 ? '' : digest.slice(end + 2);
}

/**
 * Every file is written only over the version this batch read (conditional writes), so a sink that
 * lost the topic's partition mid-batch cannot overwrite what its new owner wrote: its write fails
 * with STORAGE_CONFLICT and the runner handles the batch again from fresh reads, which gives the
 * same bytes (or a drop) as in the local tree.
 */
export function createBatchSink(options: BatchSinkOptions): Handler<'ingest-normalized'> {
  const { store } = options;
  const place = options.place ?? ingestKey;
  // Each batch's files are written, then made durable together before the handler returns, so
  // before its offset can be committed (SinkStore.flush).
  return {
    input: 'ingest-normalized',
    async handle({ value: batch }) {
      const outcomes = await writeBatch(batch);
      await store.flush();
      return outcomes;
    },
  };

  async function writeBatch(batch: IngestBatch): Promise<Outcome[]> {
    const dir = place(batch.tenant, batch.topic_id);
    const stamp = compactTimestamp(batch.request.requested_at);
    const runName = `normalized/${stamp}.json`;
    const runKey = storeKey(dir, 'normalized', `${stamp}.json`);
    const outcome = runStatusOf(batch);
    const storedRun = await store.read(runKey);
    const existing = parseJson(storedRun);
    const sameRun = existing !== null && existing.run_id === batch.run_id;
    // Built only for a run already written (a redelivery, a partial re-emission, a replayed run over
    // its original): most live batches are new runs. The document as an object serializes as its
    // rendered text parsed back would, without rendering and parsing it.
    const sameAsWritten = sameRun && withoutChanges(existing) === withoutChanges(ingestDocument(batch, null, outcome));
    if (options.keepWrittenRuns && sameRun && !sameAsWritten) {
      return [drop(`run ${batch.run_id} was written from an earlier batch; this different batch of it is a partial re-emission`)];
    }
    const { memory, stored: storedMemory } = await readMemory(store, dir);
    let changes: RunChanges | null = null;
    if (outcome.good) {
      if (sameAsWritten && existing.changes) {
        // A redelivery: the comparison made the first time stands, whatever the memory has learnt since.
        changes = existing.changes as RunChanges;
      } else {
        const prior = runsBefore(memory, stamp, batch.request.requested_at);
        changes = prior.length > 0 ? changesSince(prior, { kept: batch.items, cut: batch.cut }) : diffRuns(await previousRun(store, dir, stamp), batch.items);
      }
    }
    const document = renderIngestDocument(batch, changes, outcome);
    await store.write(runKey, document, storedRun);
    if (outcome.good) {
      await writeMemory(store, dir, remember(memory, rememberedRun({ stamp, runId: batch.run_id, requestedAt: batch.request.requested_at, kept: batch.items, cut: batch.cut })), storedMemory);
    }

    const latestKey = storeKey(dir, LATEST_FILE);
    const digestKey = storeKey(dir, DIGEST_FILE);
    const [storedLatest, storedDigest] = await Promise.all([store.read(latestKey), store.read(digestKey)]);
    const latest = parseJson(storedLatest);
    const current = latestState(latest);
    if (outcome.good) {
      // An older run (a late batch, a re-delivery) never replaces a newer latest.
      if (current !== null && later(current.runAt, batch.request.requested_at)) return [];
      // A failed attempt after this run stays named.
      const attempt = current?.attempt && later(current.attempt.requested_at, batch.request.requested_at) ? current.attempt : null;
      await store.write(latestKey, attempt === null ? document : renderIngestDocument(batch, changes, outcome, attempt), storedLatest);
      const digest = `${batch.digest_markdown}${renderChanges(changes!)}`;
      await store.write(digestKey, attempt === null ? digest : `${attemptNote(attempt, batch.run_id)}${digest}`, storedDigest);
      return [];
    }
    // A failed or incomplete run is recorded above; latest-ingest.json and digest.md keep the last
    // good run and name this attempt, unless they already name a later one.
    const attempt: LastAttempt = { run_id: batch.run_id, requested_at: batch.request.requested_at, status: outcome.status, reason: outcome.reason, file: runName };
    if (current !== null && !later(attempt.requested_at, current.runAt)) return [];
    if (current?.attempt && later(current.attempt.requested_at, attempt.requested_at)) return [];
    if (current !== null) {
      await store.write(latestKey, `${JSON.stringify({ ...latest, last_attempt: attempt }, null, 2)}\n`, storedLatest);
      await store.write(digestKey, `${attemptNote(attempt, String(latest!.run_id))}${withoutAttemptNote(storedDigest?.content ?? '')}`, storedDigest);
    } else {
      await store.write(digestKey, attemptNote(attempt, null), storedDigest);
    }
    return [];
  }
}
