/**
 * The fleet as the operator's first page shows it: every tenant's topics with their cadence, last
 * and next run, what the last run kept and screened out, the sources that could not be connected or
 * failed, and the tenant's quota use today. Files come from the data tree; the monitor's schedule
 * state and the quota claims come from Kafka through the readers passed in.
 */
import { listTopics, sourcesFile } from '../../runtime/data-paths.ts';
import { describeError } from '../../runtime/errors.ts';
import type { MonitorState } from '../../schemas/messages.ts';
import { lastRunUntil, loadSourcesFile, nextRunAfter } from '../../services/monitor/index.ts';
import { loadTenantConfig } from '../../services/retriever/index.ts';
import { canSeeTenant, type Viewer } from '../access.ts';
import { latestGoodStamp, recentRuns, type RunRecord } from './run-files.ts';
import type { TenantId, TopicId } from '../../runtime/ids.ts';

export interface ProviderProblem {
  provider: string;
  capability: string;
  status: string;
  message: string | null;
}

export interface TopicRow {
  tenant: TenantId;
  topicId: TopicId;
  cadence: string | null;
  problem: string | null;
  lastRun: RunRecord | null;
  latestGoodStamp: string | null;
  /** ISO time the monitor fires next, or null when it is due at its next tick. */
  nextRunAt: string | null;
  providerProblems: ProviderProblem[];
  /** Kept items per run, oldest first, for the sparkline of items over time. */
  history: Array<{ stamp: string; kept: number; quarantined: number; dropped: number; status: string }>;
}

export interface TenantRow {
  tenant: TenantId;
  requestsPerDay: number | null;
  itemsPerRun: number | null;
  /** Runs claimed today (UTC) on tenant-usage; null when it could not be read. */
  runsToday: number | null;
  problem: string | null;
  topics: TopicRow[];
}

export interface FleetReaders {
  /** The monitor's last window per `<tenant>/<topic-id>` (the compacted monitor-state topic). */
  monitorState(): Promise<Map<string, MonitorState>>;
  /** Distinct runs a tenant claimed on a UTC day (the tenant-usage log). */
  runsOnDay(): Promise<(tenant: TenantId, day: string) => number>;
}

export interface Fleet {
  tenants: TenantRow[];
  /** What could not be read from Kafka; the rest of the page still stands. */
  notes: string[];
}

function cadenceLabel(cadence: ReturnType<typeof loadSourcesFile>['cadence']): string {
  if (cadence === null) return 'daily (default)';
  return typeof cadence === 'string' ? cadence : `every ${cadence.every_minutes} min`;
}

function topicRow(dataRoot: string, tenant: TenantId, topicId: TopicId, state: Map<string, MonitorState> | null, now: Date): TopicRow {
  const runs = recentRuns(dataRoot, tenant, topicId);
  const lastRun = runs.at(-1) ?? null;
  const history = runs.flatMap((run) => (run.document ? [{ stamp: run.stamp, kept: run.document.stats.kept, quarantined: run.document.stats.quarantined, dropped: run.document.stats.dropped, status: run.document.status }] : []));
  const row: TopicRow = {
    tenant,
    topicId,
    cadence: null,
    problem: null,
    lastRun,
    latestGoodStamp: latestGoodStamp(dataRoot, tenant, topicId),
    nextRunAt: null,
    providerProblems: (lastRun?.document?.stats.providers ?? []).filter((status) => status.status !== 'ok').map(({ provider, capability, status, message }) => ({ provider, capability, status, message })),
    history,
  };
  try {
    const topic = loadSourcesFile(sourcesFile(dataRoot, tenant, topicId));
    row.cadence = cadenceLabel(topic.cadence);
    // The monitor's own state first, as it decides; without it, the window in latest-ingest.json.
    const last = state?.get(`${tenant}/${topicId}`)?.last_window_until ?? lastRunUntil(dataRoot, tenant, topicId);
    const next = last === null ? null : nextRunAfter(topic.cadence, new Date(last));
    row.nextRunAt = next === null || next.getTime() <= now.getTime() ? null : next.toISOString();
  } catch (error) {
    row.problem = describeError(error);
  }
  return row;
}

export async function loadFleet(dataRoot: string, viewer: Viewer, readers: FleetReaders, now: Date): Promise<Fleet> {
  const notes: string[] = [];
  const [state, runsOnDay] = await Promise.all([
    readers.monitorState().catch((error: unknown) => {
      notes.push(`monitor state not read from Kafka (${describeError(error)}); next runs are estimated from latest-ingest.json`);
      return null;
    }),
    readers.runsOnDay().catch((error: unknown) => {
      notes.push(`quota use not read from Kafka (${describeError(error)})`);
      return null;
    }),
  ]);
  const byTenant = new Map<TenantId, TopicRow[]>();
  for (const { tenant, topicId } of listTopics(dataRoot)) {
    if (!canSeeTenant(viewer, tenant)) continue;
    byTenant.set(tenant, [...(byTenant.get(tenant) ?? []), topicRow(dataRoot, tenant, topicId, state, now)]);
  }
  const today = now.toISOString().slice(0, 10);
  const tenants: TenantRow[] = [];
  for (const [tenant, topics] of byTenant) {
    const row: TenantRow = { tenant, requestsPerDay: null, itemsPerRun: null, runsToday: runsOnDay === null ? null : runsOnDay(tenant, today), problem: null, topics };
    try {
      const config = await loadTenantConfig(dataRoot, tenant);
      row.requestsPerDay = config.quotas.requests_per_day;
      row.itemsPerRun = config.quotas.items_per_run;
    } catch (error) {
      row.problem = describeError(error);
    }
    tenants.push(row);
  }
  return { tenants, notes };
}
