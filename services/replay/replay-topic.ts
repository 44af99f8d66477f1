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
import { ingestDir, LATEST_FILE, replayDir } from '../../runtime/data-paths.ts';
import type { StoredRecord } from '../../runtime/topic-readers.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { resolveInside, topicKey } from '../../runtime/ids.ts';
import type { Logger } from '../../runtime/logger.ts';
import type { Serde } from '../../runtime/serde.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import type { ScorePool } from '../scorer/index.ts';
import { DIGEST_FILE, MEMORY_FILE, syncFilesUnder, writeFileAtomic } from '../sink/index.ts';
import { buildReplayReport, renderReportJson, renderReportMarkdown, type ReplayReport } from './replay-report.ts';
import type { ReplayRequest } from './replay-request.ts';
import { createReplayStages, type ReplayStages } from './replay-stages.ts';
import { diffRun, type OriginalDocument } from './run-diff.ts';

export const DIFF_JSON_FILE = 'diff.json';
export const DIFF_MARKDOWN_FILE = 'diff.md';

/** Raw results read from the range (kept or not) against its size: the replay works as it reads. */
export type ReplayProgress = { phase: 'replay'; done: number; total: number };

/**
 * Reads raw-results stamped in [sinceMs, untilMs) and hands each record `keep` accepts to
 * `onRecord` (awaited, in offset order within a partition) as it arrives.
 */
export type ReadRawResults = (
  range: { sinceMs: number; untilMs: number },
  keep: (record: StoredRecord) => boolean,
  onRecord: (record: StoredRecord) => Promise<void>,
  onProgress: (done: number, total: number) => void,
) => Promise<void>;

export interface ReplayDeps {
  dataRoot: string;
  /** What the runs are scored and ranked with: the shipped model unless `skrya replay --model FILE`. */
  model: ScoringModel;
  /** Worker threads scoring with `model`, so the event loop only collects and writes; without, it scores too. */
  scorePool?: ScorePool;
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
  /**
   * With --promote, why latest-ingest.json was left as it was: no replayed run was good (each
   * failed or was incomplete), as the live sink would not let such a run replace it either.
   */
  notPromoted: string | null;
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
  // The topic's evidence memory too: replayed runs report changes against what the topic has seen.
  try {
    fs.copyFileSync(resolveInside(originals, MEMORY_FILE), resolveInside(staging, MEMORY_FILE));
  } catch {
    // No memory yet: the sink starts one from the runs linked here.
  }
  for (const name of names) {
    const from = resolveInside(originals, 'normalized', name);
    try {
      // The sink replaces files by rename or by unlinking them first, never in place, so a link never changes the original.
      fs.linkSync(from, resolveInside(target, name));
    } catch {
      fs.copyFileSync(from, resolveInside(target, name));
    }
  }
  return names.map((name) => `normalized/${name}`);
}

/** Why none of the replayed runs may become latest-ingest.json: the newest one's status and reason. */
function notGoodReason(dir: string, files: readonly string[]): string {
  const newest = [...files].sort().at(-1);
  if (newest === undefined) return 'no run was replayed';
  try {
    const document = JSON.parse(fs.readFileSync(resolveInside(dir, newest), 'utf8')) as { run_id?: unknown; status?: unknown; status_reason?: unknown };
    return `no replayed run is good; the newest, ${String(document.run_id)}, is ${String(document.status)}: ${String(document.status_reason)}`;
  } catch {
    return 'no replayed run is good';
  }
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
  const target = replayDir(deps.dataRoot, request.tenant, request.topicId, request.replayId);
  const originals = ingestDir(deps.dataRoot, request.tenant, request.topicId);
  // Made with the first record of the topic: a range without any writes nothing.
  const staging: { current: { dir: string; seeded: string[]; stages: ReplayStages } | null } = { current: null };
  const stage = () => {
    if (staging.current) return staging.current;
    const dir = resolveInside(path.dirname(target), `.staging-${request.replayId}-${randomBytes(4).toString('hex')}`);
    fs.mkdirSync(dir, { recursive: true });
    staging.current = { dir, seeded: seedOriginalRuns(originals, dir), stages: createReplayStages({ serde: deps.serde, logger: deps.logger, runTimeoutMs: deps.runTimeoutMs, targetDir: dir, model: deps.model, scorePool: deps.scorePool }) };
    return staging.current;
  };
  let read = 0;
  try {
    await deps.readRawResults(
      // --until is inclusive: the broker's lookup finds the first offset at or after the bound.
      { sinceMs: Date.parse(request.since), untilMs: Date.parse(request.until) + 1 },
      (record) => record.key?.toString('utf8') === key,
      async (record) => {
        read += 1;
        await stage().stages.push(record);
      },
      (done, total) => onProgress({ phase: 'replay', done, total }),
    );
    if (read === 0) {
      throw new SkryaError('INVALID_INPUT', `no raw results for ${key} between ${request.since} and ${request.until}: widen the range (raw-results are kept 30 days)`);
    }
    const { dir, seeded, stages } = stage();
    const result = await stages.finish();
    const replayedFiles = new Set(result.runs.map((run) => run.file));
    for (const file of seeded) if (!replayedFiles.has(file)) fs.rmSync(resolveInside(dir, file));
    if (replayedFiles.size === 0) fs.rmSync(resolveInside(dir, 'normalized'), { recursive: true, force: true });
    const diffs = result.runs.map((run) => diffRun(
      { runId: run.runId, file: run.file },
      readOriginal(resolveInside(originals, run.file)),
      JSON.parse(fs.readFileSync(resolveInside(dir, run.file), 'utf8')) as unknown,
    ));
    const report = buildReplayReport({ ...request, model: deps.model.tag }, read, result.rejected, diffs);
    writeFileAtomic(resolveInside(dir, DIFF_JSON_FILE), renderReportJson(report));
    writeFileAtomic(resolveInside(dir, DIFF_MARKDOWN_FILE), renderReportMarkdown(report));
    // The replayed runs were written without an fsync each; they reach the disk before the folder is swapped in.
    syncFilesUnder(dir);
    swapIn(dir, target);

    let promoted: string | null = null;
    let notPromoted: string | null = null;
    if (request.promote) {
      // The replay's latest-ingest.json is its newest good run (the sink's rules); without one, nothing is promoted.
      const staged = fs.existsSync(resolveInside(target, LATEST_FILE)) ? fs.readFileSync(resolveInside(target, LATEST_FILE), 'utf8') : null;
      if (staged === null) {
        notPromoted = notGoodReason(target, result.runs.map((run) => run.file));
      } else {
        promoted = resolveInside(originals, LATEST_FILE);
        writeFileAtomic(promoted, staged);
        // digest.md describes the run in latest-ingest.json: they move together.
        writeFileAtomic(resolveInside(originals, DIGEST_FILE), fs.readFileSync(resolveInside(target, DIGEST_FILE), 'utf8'));
      }
    }
    return { dir: target, report, promoted, notPromoted };
  } finally {
    if (staging.current) {
      // A failed replay's writes still going on land before the folder goes, not after.
      await staging.current.stages.settled();
      fs.rmSync(staging.current.dir, { recursive: true, force: true });
    }
  }
}
