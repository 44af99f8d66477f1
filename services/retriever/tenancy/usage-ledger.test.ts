import { describe, expect, it } from 'vitest';
import { createMemoryUsageLedger, createUsageBook, decideQuota, quotaExceededStatus, utcDay, type UsageLedger } from './usage-ledger.ts';
import { parseRunId, parseTenantId } from '../../../runtime/ids.ts';

const claim = (runId: string, tenant = 'acme', day = '2026-11-30') => ({ tenant: parseTenantId(tenant), day, runId: parseRunId(runId) });

describe('createUsageBook', () => {
  it('places runs by first appearance, per tenant and day; a repeated claim keeps its place', () => {
    const book = createUsageBook();
    expect(book.record(claim('a'))).toBe(1);
    expect(book.record(claim('b'))).toBe(2);
    expect(book.record(claim('a'))).toBe(1);
    expect(book.record(claim('a', 'globex'))).toBe(1);
    expect(book.record(claim('c', 'acme', '2026-12-01'))).toBe(1);
    expect(book.counted(parseTenantId('acme'), '2026-11-30')).toBe(2);
    expect(book.placeOf(claim('zzz'))).toBeNull();
  });
});

describe('utcDay', () => {
  it.each([
    ['2026-11-30T23:59:59.999Z', '2026-11-30'],
    ['2026-12-01T00:30:00+02:00', '2026-11-30'],
    ['2026-12-01T00:00:00Z', '2026-12-01'],
  ])('%s counts on %s', (iso, day) => {
    expect(utcDay(iso)).toBe(day);
  });
});

/** A ledger that counts the claims it was asked to write. */
function countingLedger(): UsageLedger & { claims: number } {
  const inner = createMemoryUsageLedger();
  const ledger = {
    claims: 0,
    claim: async (value: Parameters<UsageLedger['claim']>[0]) => {
      ledger.claims += 1;
      return inner.claim(value);
    },
    placeOf: inner.placeOf,
    counted: inner.counted,
    close: inner.close,
  };
  return ledger;
}

describe('decideQuota', () => {
  it('admits the first `limit` runs of a day and refuses the rest with the count and the limit', async () => {
    const ledger = countingLedger();
    const decisions = [];
    for (const runId of ['r1', 'r2', 'r3', 'r4']) decisions.push(await decideQuota(ledger, claim(runId), 2));
    expect(decisions).toEqual([{ admitted: true }, { admitted: true }, { admitted: false, requests: 3, limit: 2 }, { admitted: false, requests: 3, limit: 2 }]);
    // Runs past a full day are refused from what was read, without a claim.
    expect(ledger.claims).toBe(2);
  });

  it('decides a redelivered run as the first time', async () => {
    const ledger = createMemoryUsageLedger();
    await ledger.claim(claim('early'));
    await ledger.claim(claim('late'));
    expect(await decideQuota(ledger, claim('early'), 1)).toEqual({ admitted: true });
    expect(await decideQuota(ledger, claim('late'), 1)).toEqual({ admitted: false, requests: 2, limit: 1 });
  });

  it.each([
    [null, { admitted: true }, 0],
    [0, { admitted: false, requests: 1, limit: 0 }, 0],
  ])('limit %j decides %j with %i claims', async (limit, expected, claims) => {
    const ledger = countingLedger();
    expect(await decideQuota(ledger, claim('r1'), limit)).toEqual(expected);
    expect(ledger.claims).toBe(claims);
  });

  it('other tenants and other days are counted apart', async () => {
    const ledger = createMemoryUsageLedger();
    await decideQuota(ledger, claim('r1'), 1);
    expect(await decideQuota(ledger, claim('r2', 'globex'), 1)).toEqual({ admitted: true });
    expect(await decideQuota(ledger, claim('r3', 'acme', '2026-12-01'), 1)).toEqual({ admitted: true });
  });

  it('says why in the run status', () => {
    expect(quotaExceededStatus({ admitted: false, requests: 51, limit: 50 })).toMatchObject({ status: 'skipped', code: 'TENANT_QUOTA_EXCEEDED', message: 'quota exceeded: 51 requests today, limit 50', calls: 0 });
  });
});
