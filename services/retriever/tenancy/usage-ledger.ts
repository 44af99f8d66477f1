/**
 * Daily request quotas, counted the same by every retriever instance. Each run a tenant starts is
 * claimed on a log (the tenant-usage topic); all claims of one tenant and day share a partition,
 * so the log gives them one order everyone reads alike. A run's place in that order among the
 * day's distinct runs decides it: admitted when its place is within the limit. No lock and no
 * partition ownership are needed, two instances can never both admit the limit's last run, and a
 * redelivered request keeps the place its first claim got, so it is decided the same way again.
 */
import type { ProviderStatus } from '../../../schemas/messages.ts';
import type { RunId, TenantId } from '../../../runtime/ids.ts';

export interface UsageClaim {
  tenant: TenantId;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  runId: RunId;
}

export interface UsageLedger {
  /** Claims the run (once; a repeated claim keeps the first place) and resolves with its place, 1 = the day's first run. */
  claim(claim: UsageClaim): Promise<number>;
  /** The run's place when this instance has read its claim already. */
  placeOf(claim: UsageClaim): number | null;
  /** Distinct runs of the tenant that day read so far: never more than the truth. */
  counted(tenant: TenantId, day: string): number;
  close(): Promise<void>;
}

/** The day a request counts against: the UTC day it was made, so a redelivery counts the same day. */
export function utcDay(iso: string): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/** Places by order of first appearance; what both ledgers are built on. */
export interface UsageBook {
  /** Records a claim read from the log; returns its place. */
  record(claim: UsageClaim): number;
  placeOf(claim: UsageClaim): number | null;
  counted(tenant: TenantId, day: string): number;
}

export function createUsageBook(): UsageBook {
  const days = new Map<string, Map<string, number>>();
  const dayOf = (tenant: TenantId, day: string) => `${tenant}/${day}`;
  return {
    record(claim) {
      const key = dayOf(claim.tenant, claim.day);
      const runs = days.get(key) ?? new Map<string, number>();
      days.set(key, runs);
      const known = runs.get(claim.runId);
      if (known !== undefined) return known;
      runs.set(claim.runId, runs.size + 1);
      return runs.size;
    },
    placeOf: (claim) => days.get(dayOf(claim.tenant, claim.day))?.get(claim.runId) ?? null,
    counted: (tenant, day) => days.get(dayOf(tenant, day))?.size ?? 0,
  };
}

/** One process's ledger: right for a single retriever and for tests, not across instances. */
export function createMemoryUsageLedger(): UsageLedger {
  const book = createUsageBook();
  return {
    claim: async (claim) => book.record(claim),
    placeOf: (claim) => book.placeOf(claim),
    counted: (tenant, day) => book.counted(tenant, day),
    close: async () => {},
  };
}

export type QuotaDecision =
  | { admitted: true }
  /** `requests`: the tenant's requests today counting this one, as far as the log has been read. */
  | { admitted: false; requests: number; limit: number };

/**
 * Whether a run may start under its tenant's daily limit (null = unlimited, nothing claimed). A run
 * not yet claimed when the tenant's count already reaches the limit is refused without a claim: a
 * new claim could only land after those it has read, so its place would be past the limit anyway.
 */
export async function decideQuota(ledger: UsageLedger, claim: UsageClaim, limit: number | null): Promise<QuotaDecision> {
  if (limit === null) return { admitted: true };
  const place = ledger.placeOf(claim) ?? (ledger.counted(claim.tenant, claim.day) >= limit ? null : await ledger.claim(claim));
  if (place === null) return { admitted: false, requests: ledger.counted(claim.tenant, claim.day) + 1, limit };
  return place <= limit ? { admitted: true } : { admitted: false, requests: place, limit };
}

/** Statuses a run carries for what its tenant's settings did to it, beside the providers' own. */
export const TENANT_STATUS_PROVIDER = 'tenant';

export function quotaExceededStatus(decision: Extract<QuotaDecision, { admitted: false }>): ProviderStatus {
  return {
    provider: TENANT_STATUS_PROVIDER,
    capability: '*',
    status: 'skipped',
    code: 'TENANT_QUOTA_EXCEEDED',
    message: `quota exceeded: ${decision.requests} requests today, limit ${decision.limit}`,
    calls: 0,
    results: 0,
  };
}

export function itemsCutStatus(requested: number, limit: number): ProviderStatus {
  return {
    provider: TENANT_STATUS_PROVIDER,
    capability: '*',
    status: 'ok',
    code: null,
    message: `items per run cut to ${limit} by the tenant quota (the request asked for ${requested})`,
    calls: 0,
    results: 0,
  };
}

export function tenantErrorStatus(code: string, message: string, capability = '*'): ProviderStatus {
  return { provider: TENANT_STATUS_PROVIDER, capability, status: 'error', code, message, calls: 0, results: 0 };
}
