import { extractNumericClaims } from './numeric-claims.ts';

/**
 * Conflicts between sources (spec 001 phase 5: "冲突信息显性标注"): two items from different
 * sites that state a different number for the same unit ("500 contributors" vs "450
 * contributors"). Each item contributes its first claim per unit. Shown, never resolved.
 */
export interface ConflictItem {
  /** Who says it: the site, or the provider for items without a URL. */
  sourceLabel: string;
  title: string;
  url: string | null;
  text: string;
}

export interface Conflict {
  unit: string;
  /** One entry per differing source, in the order the items were given (best first). */
  claims: { sourceLabel: string; title: string; url: string | null; claim: string; value: number }[];
}

export function detectConflicts(items: readonly ConflictItem[], ignoredUnits: ReadonlySet<string> = new Set()): Conflict[] {
  const byUnit = new Map<string, Conflict['claims']>();
  for (const item of items) {
    const seenUnits = new Set<string>();
    for (const claim of extractNumericClaims(item.text, ignoredUnits)) {
      if (seenUnits.has(claim.unit)) continue;
      seenUnits.add(claim.unit);
      const claims = byUnit.get(claim.unit) ?? [];
      // One voice per site: a site repeating itself is not a second source.
      if (!claims.some((existing) => existing.sourceLabel === item.sourceLabel)) {
        claims.push({ sourceLabel: item.sourceLabel, title: item.title, url: item.url, claim: claim.text, value: claim.value });
      }
      byUnit.set(claim.unit, claims);
    }
  }
  const conflicts: Conflict[] = [];
  for (const [unit, claims] of byUnit) {
    if (new Set(claims.map((claim) => claim.value)).size < 2) continue;
    conflicts.push({ unit, claims });
  }
  return conflicts;
}
