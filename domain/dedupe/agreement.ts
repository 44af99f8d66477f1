import { stripWww } from '../ranking/authority.ts';
import { hostOf } from '../ranking/score-item.ts';
import type { SourceRef } from './dedupe-items.ts';

/**
 * Agreement between sources as a ranking signal: a document that several providers returned, or
 * that several sites carry, is more likely to matter. The score counts it as a weighted component
 * (agreementComponent in domain/ranking/fusion.ts, issue 21); `bonus` (each independent source
 * beyond the first adds AGREEMENT_BONUS_PER_SOURCE, at most AGREEMENT_BONUS_CAP) is the earlier
 * flat bonus, kept for callers that read it and no longer added to scores. A source is independent when its
 * (provider, host) pair is new: brave + exa finding one URL is two, one provider finding a
 * syndicated story on three sites is three, one provider returning a URL for two sub-queries is one.
 */
export const AGREEMENT_BONUS_PER_SOURCE = 0.05;
export const AGREEMENT_BONUS_CAP = 0.15;

export interface Agreement {
  independentSources: number;
  /** Distinct provider names, in source order (the digest's source tags). */
  providers: string[];
  bonus: number;
}

export function agreementOf(sources: readonly SourceRef[]): Agreement {
  // Most documents have one copy: no set of pairs to build for it.
  if (sources.length === 1) return { independentSources: 1, providers: [sources[0]!.provider], bonus: 0 };
  const pairs = new Set<string>();
  const providers: string[] = [];
  for (const source of sources) {
    pairs.add(`${source.provider}\u0000${stripWww(hostOf(source.url) ?? '')}`);
    if (!providers.includes(source.provider)) providers.push(source.provider);
  }
  const independentSources = pairs.size;
  const bonus = Math.min(AGREEMENT_BONUS_CAP, AGREEMENT_BONUS_PER_SOURCE * Math.max(0, independentSources - 1));
  return { independentSources, providers, bonus: Math.round(bonus * 1e6) / 1e6 };
}
