/**
 * Splits a search budget between the selected sources in whole searches that add up exactly to
 * the total (largest-remainder method, integer arithmetic so 70 % of 10 is 7 and not 8).
 *
 * Every kept source gets at least one search and web at least its floor (rule 1: ≥70 % when
 * freshness is high). When the budget cannot give every source its minimum, the sources last in
 * search order are dropped: a source with zero searches would be selected in name only.
 */
import type { SourceType } from './route-input.ts';

export interface BudgetRequest {
  /** Selected sources in search order with their relative weights (web's weight is unused). */
  ordered: ReadonlyArray<{ source: SourceType; weight: number }>;
  total: number;
  /** Web's share in percent when other sources are kept as well. */
  webPercent: number;
  /** Web's guaranteed minimum in percent of the total. */
  webFloorPercent: number;
}

export interface SourceBudget {
  source: SourceType;
  searches: number;
}

function ceilPercent(total: number, percent: number): bigint {
  return (BigInt(total) * BigInt(percent) + 99n) / 100n;
}

/** Keeps sources in search order while their minimums fit in the total. */
function keptSources(request: BudgetRequest): Array<{ source: SourceType; weight: number; minimum: bigint }> {
  const total = BigInt(request.total);
  const webFloor = ceilPercent(request.total, request.webFloorPercent);
  const withMinimums = request.ordered.map((entry) => ({
    ...entry,
    minimum: entry.source === 'web' && webFloor > 1n ? webFloor : 1n,
  }));
  // Web's floor is reserved first: it is the one minimum rule 1 makes binding.
  let used = withMinimums.find((entry) => entry.source === 'web' && entry.minimum > 1n)?.minimum ?? 0n;
  return withMinimums.filter((entry) => {
    if (entry.source === 'web' && entry.minimum > 1n) return true;
    if (used + entry.minimum > total) return false;
    used += entry.minimum;
    return true;
  });
}

export function allocateBudget(request: BudgetRequest): SourceBudget[] {
  const kept = keptSources(request);
  if (kept.length === 0) return [];
  const total = BigInt(request.total);
  const hasWeb = kept.some((entry) => entry.source === 'web');
  const others = kept.filter((entry) => entry.source !== 'web');
  const otherWeight = BigInt(others.reduce((sum, entry) => sum + entry.weight, 0));
  const webPercent = BigInt(!hasWeb ? 0 : others.length === 0 ? 100 : request.webPercent);

  // Ideal shares as numerators over one common denominator, so every comparison is exact.
  const denominator = 100n * (otherWeight === 0n ? 1n : otherWeight);
  const ideal = kept.map((entry) =>
    entry.source === 'web' ? total * webPercent * (denominator / 100n) : total * (100n - webPercent) * BigInt(entry.weight),
  );

  // Minimums first; what is left goes where the ideal share most exceeds the minimum.
  const searches = kept.map((entry) => entry.minimum);
  const remaining = total - searches.reduce((sum, value) => sum + value, 0n);
  const deficits = kept.map((entry, index) => {
    const deficit = (ideal[index] ?? 0n) - entry.minimum * denominator;
    return deficit > 0n ? deficit : 0n;
  });
  const deficitSum = deficits.reduce((sum, value) => sum + value, 0n);
  if (remaining > 0n) {
    // Σ deficits ≥ remaining·denominator > 0 whenever something remains, so the division is safe.
    const quotas = deficits.map((deficit) => remaining * deficit);
    const floors = quotas.map((quota) => quota / deficitSum);
    floors.forEach((floor, index) => (searches[index] = (searches[index] ?? 0n) + floor));
    let leftover = remaining - floors.reduce((sum, value) => sum + value, 0n);
    const byRemainder = quotas
      .map((quota, index) => ({ index, remainder: quota % deficitSum }))
      .sort((a, b) => (b.remainder > a.remainder ? 1 : b.remainder < a.remainder ? -1 : a.index - b.index));
    for (const { index } of byRemainder) {
      if (leftover === 0n) break;
      searches[index] = (searches[index] ?? 0n) + 1n;
      leftover -= 1n;
    }
  }
  return kept.map((entry, index) => ({ source: entry.source, searches: Number(searches[index] ?? 0n) }));
}
