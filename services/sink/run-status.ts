/**
 * Whether a run is good enough to become the topic's latest-ingest.json.
 *
 * - ok: sources answered and something was kept.
 * - empty: sources answered and nothing was found in the window; a good run that says so.
 * - failed: no source answered (every provider failed, none could be connected, or the tenant's
 *   settings stopped the run before any call).
 * - incomplete: the run closed without its end marker, so what it holds may be a part.
 *
 * Failed and incomplete runs are recorded (their normalized/<timestamp>.json says why) but never
 * replace the last good run. Decided from the batch alone, so a redelivery decides the same.
 */
import type { IngestBatch, ProviderStatus } from '../../schemas/messages.ts';

/** The provider name of statuses the retriever adds for the tenant's own settings (quota, item cap); not a source. */
const TENANT_STATUS_PROVIDER = 'tenant';

export const RUN_STATUSES = ['ok', 'empty', 'failed', 'incomplete'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export interface RunOutcome {
  status: RunStatus;
  /** True for ok and empty: the run may become latest-ingest.json. */
  good: boolean;
  /** Why, in a sentence: what an operator reads in the digest and in the run's file. */
  reason: string;
}

const MAX_REASON_SOURCES = 6;

function describeStatus(status: ProviderStatus): string {
  const what = status.capability && status.capability !== '*' ? `${status.provider} (${status.capability})` : status.provider;
  const detail = [status.code, status.message].filter((part): part is string => Boolean(part)).join(': ');
  return `${what} ${status.status}${detail ? ` — ${detail}` : ''}`;
}

function listStatuses(statuses: readonly ProviderStatus[]): string {
  const shown = statuses.slice(0, MAX_REASON_SOURCES).map(describeStatus);
  const more = statuses.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

export function runStatusOf(batch: Pick<IngestBatch, 'items' | 'cut' | 'stats'>): RunOutcome {
  const { stats } = batch;
  if (!stats.complete) {
    return { status: 'incomplete', good: false, reason: `the run did not finish: ${stats.incomplete_reason ?? 'no run-end marker'}` };
  }
  const sources = stats.provider_status.filter((status) => status.provider !== TENANT_STATUS_PROVIDER);
  const answered = sources.filter((status) => status.status === 'ok');
  if (answered.length === 0) {
    if (sources.length > 0) return { status: 'failed', good: false, reason: `every source failed: ${listStatuses(sources)}` };
    const tenant = stats.provider_status.filter((status) => status.provider === TENANT_STATUS_PROVIDER && status.status !== 'ok');
    if (tenant.length > 0) return { status: 'failed', good: false, reason: `no source was called: ${listStatuses(tenant)}` };
    // A run end without any provider status (an old producer): trust what it delivered.
    if (stats.counts.raw_responses === 0) return { status: 'failed', good: false, reason: 'no source answered: the run has no provider response' };
  }
  const found = batch.items.length + batch.cut.length;
  if (found === 0) {
    const dropped = stats.counts.dropped > 0 ? `; ${stats.counts.dropped} result(s) were dropped by validation or screening` : '';
    const who = answered.length > 0 ? `${answered.length} source(s) answered` : 'the sources answered';
    return { status: 'empty', good: true, reason: `${who} and found nothing in the window${dropped}` };
  }
  const failed = sources.filter((status) => status.status === 'error');
  return {
    status: 'ok',
    good: true,
    reason: failed.length > 0
      ? `${answered.length} source(s) answered, ${failed.length} failed: ${listStatuses(failed)}`
      : answered.length > 0 ? `${answered.length} source(s) answered` : `the run delivered ${stats.counts.raw_responses} response(s)`,
  };
}
