/**
 * What the sink and the replays wrote for a topic, read back for the operator's view: the run
 * records (normalized/<timestamp>.json), digest.md, the raw responses of a run and the replays'
 * diffs. Every path is built by runtime/data-paths.ts from validated ids, and file names taken from
 * a URL must match the shapes the sink writes before they are resolved inside the topic's folder.
 */
import fs from 'node:fs';
import { z } from 'zod';
import { ingestDir, LATEST_FILE, replayDir, replaysDir } from '../../runtime/data-paths.ts';
import { SkryaError } from '../../runtime/errors.ts';
import { isReplayId, runIdSchema, tenantIdSchema, topicIdSchema, type ReplayId, type TenantId, type TopicId, resolveInside } from '../../runtime/ids.ts';
import { DIFF_JSON_FILE, REPLAY_DIFF_VERSION, type ReplayReport } from '../../services/replay/index.ts';
import { compactTimestamp, DIGEST_FILE } from '../../services/sink/index.ts';

/** A run's stamp, as compactTimestamp writes it: 20260425T023000123Z. */
export const RUN_STAMP = /^\d{8}T\d{9}Z$/;
/** A raw response file, as the raw sink names it: <stamp>-<provider token>-<sequence>.txt. */
export const RAW_FILE = /^(\d{8}T\d{9}Z)-[a-z0-9_-]{1,64}-\d{3,9}\.txt$/;
/** The runs the view reads per topic: enough for the charts, bounded for topics with years of runs. */
export const RECENT_RUNS = 60;

const changeRef = z.object({ id: z.string(), title: z.string(), url: z.string().nullable() });
const providerStatus = z.object({ provider: z.string(), capability: z.string(), status: z.string(), code: z.string().nullable(), message: z.string().nullable(), calls: z.number(), results: z.number() });

/** The fields of a skrya.ingest.v1 run record the view shows (services/sink/ingest-document.ts writes them). */
export const runDocumentSchema = z.object({
  tenant: tenantIdSchema,
  topic_id: topicIdSchema,
  run_id: runIdSchema,
  status: z.string(),
  status_reason: z.string(),
  last_attempt: z.object({ run_id: runIdSchema, requested_at: z.string(), status: z.string(), reason: z.string(), file: z.string() }).nullable(),
  run_requested_at: z.string(),
  retrieved_at: z.string(),
  time_window: z.object({ since: z.string(), until: z.string() }),
  intent: z.string().nullable(),
  queries: z.array(z.string()),
  items: z.array(z.object({
    id: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    source_name: z.string().nullable(),
    published_at: z.string().nullable(),
    language: z.string().nullable(),
    content: z.string().nullable(),
    summary: z.string().nullable(),
    producer: z.string(),
    capability: z.string(),
    verdict: z.string(),
    reasons: z.array(z.object({ code: z.string(), field: z.string(), message: z.string() })),
    score: z.number().nullable(),
    score_components: z.record(z.string(), z.unknown()).nullable(),
    injection: z.object({ score: z.number(), evidence: z.array(z.object({ rule: z.string(), technique: z.string(), field: z.string(), start: z.number(), end: z.number(), text: z.string() })) }),
    sources: z.array(z.object({ provider: z.string(), url: z.string().nullable(), item_id: z.string() })),
  })),
  changes: z.object({ previous_run_id: z.string().nullable(), new: z.array(changeRef), changed: z.array(changeRef), moved_in: z.array(changeRef), moved_out: z.array(changeRef), removed: z.array(changeRef) }).nullable(),
  stats: z.object({
    raw_responses: z.number(),
    raw_items: z.number(),
    accepted: z.number(),
    downweighted: z.number(),
    quarantined: z.number(),
    dropped: z.number(),
    normalize_failures: z.number(),
    kept: z.number(),
    merged_duplicates: z.number(),
    cut_by_max_items: z.number(),
    complete: z.boolean(),
    providers: z.array(providerStatus),
    degradation_log: z.unknown(),
    plan: z.unknown(),
  }),
});
export type RunDocument = z.infer<typeof runDocumentSchema>;
export type RunItem = RunDocument['items'][number];

export interface RunRecord {
  stamp: string;
  /** The run's document, or why it cannot be read. */
  document: RunDocument | null;
  problem: string | null;
}

function readRunFile(file: string, stamp: string): RunRecord {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    return { stamp, document: null, problem: `not readable: ${(error as Error).message}` };
  }
  const parsed = runDocumentSchema.safeParse(json);
  if (!parsed.success) return { stamp, document: null, problem: `not a skrya.ingest.v1 run record: ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}` };
  return { stamp, document: parsed.data, problem: null };
}

function listNames(dir: string, pattern: RegExp): string[] {
  try {
    return fs.readdirSync(dir).filter((name) => pattern.test(name)).sort();
  } catch {
    return [];
  }
}

/** The stamps of a topic's recorded runs, oldest first. */
export function runStamps(dataRoot: string, tenant: TenantId, topicId: TopicId): string[] {
  return listNames(resolveInside(ingestDir(dataRoot, tenant, topicId), 'normalized'), /^\d{8}T\d{9}Z\.json$/).map((name) => name.slice(0, -'.json'.length));
}

/** The newest recorded runs of a topic (failed and incomplete ones too), oldest first. */
export function recentRuns(dataRoot: string, tenant: TenantId, topicId: TopicId, limit = RECENT_RUNS): RunRecord[] {
  return runStamps(dataRoot, tenant, topicId).slice(-limit).map((stamp) => readRun(dataRoot, tenant, topicId, stamp));
}

export function readRun(dataRoot: string, tenant: TenantId, topicId: TopicId, stamp: string): RunRecord {
  if (!RUN_STAMP.test(stamp)) throw new SkryaError('INVALID_INPUT', `run ${JSON.stringify(stamp)} is not a run timestamp like 20260425T023000123Z`);
  return readRunFile(resolveInside(ingestDir(dataRoot, tenant, topicId), 'normalized', `${stamp}.json`), stamp);
}

/** The run latest-ingest.json holds (the last good run), by its stamp. */
export function latestGoodStamp(dataRoot: string, tenant: TenantId, topicId: TopicId): string | null {
  try {
    const latest = JSON.parse(fs.readFileSync(resolveInside(ingestDir(dataRoot, tenant, topicId), LATEST_FILE), 'utf8')) as { run_requested_at?: unknown };
    return typeof latest.run_requested_at === 'string' ? compactTimestamp(latest.run_requested_at) : null;
  } catch {
    return null;
  }
}

/** digest.md, which always speaks of the last good run (and of a failed attempt after it). */
export function readDigest(dataRoot: string, tenant: TenantId, topicId: TopicId): string | null {
  try {
    return fs.readFileSync(resolveInside(ingestDir(dataRoot, tenant, topicId), DIGEST_FILE), 'utf8');
  } catch {
    return null;
  }
}

/** The raw response files of one run, by name. */
export function rawFilesOfRun(dataRoot: string, tenant: TenantId, topicId: TopicId, stamp: string): string[] {
  return listNames(resolveInside(ingestDir(dataRoot, tenant, topicId), 'raw'), RAW_FILE).filter((name) => name.startsWith(`${stamp}-`));
}

/** One raw response file; the name must be one the raw sink writes, so no other path can be named. */
export function readRawFile(dataRoot: string, tenant: TenantId, topicId: TopicId, name: string): string | null {
  if (!RAW_FILE.test(name)) throw new SkryaError('INVALID_INPUT', 'not a raw response file name');
  const file = resolveInside(ingestDir(dataRoot, tenant, topicId), 'raw', name);
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

export interface ReplayEntry {
  replayId: ReplayId;
  report: ReplayReport | null;
  problem: string | null;
}

export function listReplays(dataRoot: string, tenant: TenantId, topicId: TopicId): ReplayEntry[] {
  const dir = replaysDir(dataRoot, tenant, topicId);
  let names: ReplayId[];
  try {
    names = fs.readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).filter(isReplayId).sort();
  } catch {
    return [];
  }
  return names.map((replayId) => readReplay(dataRoot, tenant, topicId, replayId));
}

export function readReplay(dataRoot: string, tenant: TenantId, topicId: TopicId, replayId: ReplayId): ReplayEntry {
  const file = resolveInside(replayDir(dataRoot, tenant, topicId, replayId), DIFF_JSON_FILE);
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8')) as ReplayReport;
    if (report.interface_version !== REPLAY_DIFF_VERSION || !Array.isArray(report.runs)) return { replayId, report: null, problem: `${DIFF_JSON_FILE} is not a ${REPLAY_DIFF_VERSION} report` };
    return { replayId, report, problem: null };
  } catch (error) {
    return { replayId, report: null, problem: `no readable ${DIFF_JSON_FILE}: ${(error as Error).message}` };
  }
}
