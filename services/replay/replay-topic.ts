/**
 * `skrya replay`: read a topic's raw-results for a time range, run them through scorer → collector
 * → sink with the current code into runs/<topic>/replays/<replay-id>/, and diff every run against
 * its original. The replay is built in a staging folder and swapped in whole, so a folder never
 * mixes two replays and a failed replay leaves the previous one. latest-ingest.json of the topic
 * changes only with `promote`.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ingestDir, replayDir } from '../../runtime/data-paths.ts';
import type { StoredRecord } from '../../runtime/dead-letters.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { resolveInside, topicKey } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Serde } from '../../runtime/serde.ts';
import { DIGEST_FILE, LATEST_FILE } from '../sink/batch-sink.ts';
import { writeFileAtomic } from '../sink/write-atomic.ts';
import { buildReplayReport, renderReportJson, renderReportMarkdown, type ReplayReport } from './replay-report.ts';
import type { ReplayRequest } from './replay-request.ts';
import { replayStages } from './replay-stages.ts';
import { diffRun, type OriginalDocument } from './run-diff.ts';

export const DIFF_JSON_FILE = 'diff.json';
export const DIFF_MARKDOWN_FILE = 'diff.md';

export type ReplayProgress = { phase: 'read' | 'replay'; done: number; total: number };

/** Reads raw-results stamped in [sinceMs, untilMs), keeping the records `keep` accepts, in offset order. */
export type ReadRawResults = (range: { sinceMs: number; untilMs: number }, keep: (record: StoredRecord) => boolean, onProgress: (done: number, total: number) => void) => Promise<StoredRecord[]>;

export interface ReplayDeps {
  dataRoot: string;
  serde: Serde;
  logger: Logger;
  runTimeoutMs: number;
  readRawResults: ReadRawResults;
}

export interface ReplaySummary {
  dir: string;
  report: ReplayReport;
  /** The file written over the topic's latest-ingest.json, or null without --promote. */
  promoted: string | null;
}

function readOriginal(file: string): OriginalDocument {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return { kind: 'missing' };
  }
  try {
    return { kind: 'found', json: JSON.parse(text) as unknown };
  } catch {
    return { kind: 'found', json: null };
  }
}

/**
 * Links the topic's original runs into the staging folder, so each replayed run's "changes since
 * the previous run" compares with the predecessor the live sink used (a replayed run overwrites
 * its own). Returns the linked names; those not replayed are removed again afterwards.
 */
function seedOriginalRuns(originals: string, staging: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(resolveInside(originals, 'normalized')).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const target = resolveInside(staging, 'normalized');
  fs.mkdirSync(target, { recursive: true });
  for (const name of names) {
    const from = resolveInside(originals, 'normalized', name);
    try {
      // The sink replaces files by rename, never in place, so a link never changes the original.
      fs.linkSync(from, resolveInside(target, name));
    } catch {
      fs.copyFileSync(from, resolveInside(target, name));
    }
  }
  return names.map((name) => `normalized/${name}`);
}

/** Puts the staged folder where the replay belongs; an older replay of the same id is removed. */
function swapIn(staging: string, target: string): void {
  const retired = `${staging}.retired`;
  const hadPrevious = fs.existsSync(target);
  if (hadPrevious) fs.renameSync(target, retired);
  fs.renameSync(staging, target);
  if (hadPrevious) fs.rmSync(retired, { recursive: true, force: true });
}

export async function replayTopic(deps: ReplayDeps, request: ReplayRequest, onProgress: (event: ReplayProgress) => void = () => {}): Promise<ReplaySummary> {
  const key = topicKey({ tenant: request.tenant, topicId: request.topicId });
  const records = await deps.readRawResults(
    // --until is inclusive: the broker's lookup finds the first offset at or after the bound.
    { sinceMs: Date.parse(request.since), untilMs: Date.parse(request.until) + 1 },
    (record) => record.key?.toString('utf8') === key,
    (done, total) => onProgress({ phase: 'read', done, total }),
  );
  if (records.length === 0) {
    throw new SkryaError('INVALID_INPUT', `no raw results for ${key} between ${request.since} and ${request.until}: widen the range (raw-results are kept 30 days)`);
  }

  const target = replayDir(deps.dataRoot, request.tenant, request.topicId, request.replayId);
  const staging = resolveInside(path.dirname(target), `.staging-${request.replayId}-${randomBytes(4).toString('hex')}`);
  fs.mkdirSync(staging, { recursive: true });
  try {
    const originals = ingestDir(deps.dataRoot, request.tenant, request.topicId);
    const seeded = seedOriginalRuns(originals, staging);
    const result = await replayStages({
      records,
      serde: deps.serde,
      logger: deps.logger,
      runTimeoutMs: deps.runTimeoutMs,
      targetDir: staging,
      onProgress: (done, total) => onProgress({ phase: 'replay', done, total }),
    });
    const replayedFiles = new Set(result.runs.map((run) => run.file));
    for (const file of seeded) if (!replayedFiles.has(file)) fs.rmSync(resolveInside(staging, file));
    if (replayedFiles.size === 0) fs.rmSync(resolveInside(staging, 'normalized'), { recursive: true, force: true });
    const diffs = result.runs.map((run) => diffRun(
      { runId: run.runId, file: run.file },
      readOriginal(resolveInside(originals, run.file)),
      JSON.parse(fs.readFileSync(resolveInside(staging, run.file), 'utf8')) as unknown,
    ));
    const report = buildReplayReport({ ...request }, records.length, result.rejected, diffs);
    writeFileAtomic(resolveInside(staging, DIFF_JSON_FILE), renderReportJson(report));
    writeFileAtomic(resolveInside(staging, DIFF_MARKDOWN_FILE), renderReportMarkdown(report));
    swapIn(staging, target);

    let promoted: string | null = null;
    if (request.promote && result.runs.length > 0) {
      promoted = resolveInside(originals, LATEST_FILE);
      writeFileAtomic(promoted, fs.readFileSync(resolveInside(target, LATEST_FILE), 'utf8'));
      // digest.md describes the run in latest-ingest.json: they move together.
      writeFileAtomic(resolveInside(originals, DIGEST_FILE), fs.readFileSync(resolveInside(target, DIGEST_FILE), 'utf8'));
    }
    return { dir: target, report, promoted };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}
