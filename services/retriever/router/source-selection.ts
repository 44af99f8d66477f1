/**
 * Rules 1–3: which of the usable sources to search, in what order, and how much weight each
 * carries when the budget is split.
 *
 * - Rule 2 gives the task type's combination (only the usable members).
 * - Rule 1 sets web's place and share: high → web first with ≥70 % of the budget; medium → web
 *   mixed with a local source (vector, else local_file); low → local sources first, web last as
 *   a supplement. Web is added whenever it is usable, since every freshness level names it.
 * - Rule 3 (when the caller says the subject has local material): every usable local source is
 *   searched before web and web only chases the gaps, with a smaller share. With freshness high,
 *   rule 1 keeps web first and ≥70 %: material on disk cannot confirm something from today.
 * - Counter goes last when rule 4 turned it on: it challenges what the other sources found.
 */
import type { RouteFreshness, RouteInput, SourceType } from './route-input.ts';
import type { CounterDecision } from './counter-search.ts';
import { LOCAL_SOURCES, TASK_COMBINATIONS, isLocalSource } from './source-combinations.ts';

export interface SourceCandidate {
  source: SourceType;
  /** Relative weight among the non-web sources when the budget is split. */
  weight: number;
  reasons: string[];
}

export interface SourceSelection {
  /** In search order. */
  candidates: SourceCandidate[];
  /** Web's share of the budget when other sources are selected too. */
  webPercent: number;
  /** Web's guaranteed minimum share (rule 1, freshness high). */
  webFloorPercent: number;
  /** Rule 3 applied: web only searches the gaps local sources leave. */
  localFirst: boolean;
}

export const HIGH_FRESHNESS_WEB_PERCENT = 70;

/** Web's share: rule 1 fixes 70 % for high; the others are our reading of "mixed" and "supplement". */
const WEB_PERCENT: Record<RouteFreshness, { plain: number; localFirst: number }> = {
  high: { plain: HIGH_FRESHNESS_WEB_PERCENT, localFirst: HIGH_FRESHNESS_WEB_PERCENT },
  medium: { plain: 50, localFirst: 30 },
  low: { plain: 20, localFirst: 10 },
};

const RECOMMENDED_WEIGHT = 2;
const SUPPLEMENT_WEIGHT = 1;

const WEB_REASON: Record<RouteFreshness, string> = {
  high: 'rule 1: freshness high (≤24h) → web 优先（≥70% 预算）',
  medium: 'rule 1: freshness medium (≤30天) → web + vector/local_file 混合',
  low: 'rule 1: freshness low (不限) → vector/local_file 优先，web 补充',
};

/** Search-order rank; equal ranks keep the order the rules added the sources in. */
function rank(source: SourceType, freshness: RouteFreshness, localFirst: boolean): number {
  if (source === 'counter') return 4;
  if (source === 'web') {
    if (freshness === 'high') return 0;
    return freshness === 'low' || localFirst ? 3 : 2;
  }
  if (isLocalSource(source) && (freshness === 'low' || localFirst)) return 1;
  return 2;
}

export function selectSources(
  input: Pick<RouteInput, 'task_type' | 'freshness_required' | 'local_material'>,
  usable: readonly SourceType[],
  counter: Pick<CounterDecision, 'enabled' | 'trigger'>,
): SourceSelection {
  const chosen = new Map<SourceType, SourceCandidate>();
  const add = (source: SourceType, weight: number, reason: string) => {
    if (!usable.includes(source)) return;
    const existing = chosen.get(source);
    if (existing === undefined) {
      chosen.set(source, { source, weight, reasons: [reason] });
    } else {
      existing.weight = Math.max(existing.weight, weight);
      existing.reasons.push(reason);
    }
  };
  const freshness = input.freshness_required;
  const usableLocals = LOCAL_SOURCES.filter((source) => usable.includes(source));
  const localFirst = input.local_material && usableLocals.length > 0;

  const combination = TASK_COMBINATIONS[input.task_type];
  for (const source of combination) {
    if (source !== 'counter') add(source, RECOMMENDED_WEIGHT, `rule 2: ${input.task_type} → ${combination.join(' + ')}`);
  }

  add('web', SUPPLEMENT_WEIGHT, WEB_REASON[freshness]);
  const hasLocal = [...chosen.keys()].some(isLocalSource);
  if (freshness !== 'high' && !hasLocal && usableLocals[0] !== undefined) {
    add(usableLocals[0], SUPPLEMENT_WEIGHT, WEB_REASON[freshness]);
  }

  if (localFirst) {
    for (const source of usableLocals) add(source, RECOMMENDED_WEIGHT, 'rule 3: 本地有已知相关材料 → 优先检索本地，识别信息缺口');
    add('web', SUPPLEMENT_WEIGHT, 'rule 3: 仅缺口部分走 web');
  }

  // Nothing the rules recommend is usable (say only graph for breaking news): search what exists.
  if (chosen.size === 0) {
    for (const source of usable) {
      if (source !== 'counter') add(source, SUPPLEMENT_WEIGHT, 'no source recommended by rules 1–3 is available; using what is');
    }
  }

  if (counter.enabled && counter.trigger !== null) add('counter', RECOMMENDED_WEIGHT, counter.trigger);

  const ordered = [...chosen.values()]
    .map((candidate, index) => ({ candidate, index, rank: rank(candidate.source, freshness, localFirst) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ candidate }) => candidate);

  const share = WEB_PERCENT[freshness];
  return {
    candidates: ordered,
    webPercent: localFirst ? share.localFirst : share.plain,
    webFloorPercent: freshness === 'high' ? HIGH_FRESHNESS_WEB_PERCENT : 0,
    localFirst,
  };
}
