/**
 * What changed for a topic's readers with this run, against the evidence its earlier good runs
 * found (the topic's memory, evidence-memory.ts), kept or cut:
 *
 * - new: kept now, never found before in the memory's window;
 * - changed: kept now and in the previous good run, with different content;
 * - moved_in: kept now, found before but not kept by the previous good run (it was cut, or
 *   missing for a while): an item crossing the cut is reported as such, never as new;
 * - moved_out: kept by the previous good run, still found now, but cut at max_items;
 * - removed: kept by the previous good run and no longer found by its sources at all.
 *
 * The answer depends only on the runs before this one, so it is the same however often and
 * however late a batch is delivered.
 */
import { storeKey, type SinkStore } from '../../runtime/sink-store.ts';
import { evidenceKey, rememberedRun, type Evidence, type RememberedRun } from './evidence-memory.ts';

export interface ChangeRef {
  id: string;
  title: string;
  url: string | null;
}

export interface RunChanges {
  previous_run_id: string | null;
  new: ChangeRef[];
  changed: ChangeRef[];
  moved_in: ChangeRef[];
  moved_out: ChangeRef[];
  removed: ChangeRef[];
}

export type ComparableItem = Evidence;

const ref = ({ id, title, url }: ChangeRef): ChangeRef => ({ id, title, url });

/** Changes of a run that kept `kept` and cut `cut`, against `prior` (the remembered good runs before it, oldest first). */
export function changesSince(prior: readonly RememberedRun[], current: { kept: readonly Evidence[]; cut: readonly Evidence[] }): RunChanges {
  const previous = prior.at(-1);
  if (previous === undefined) return { previous_run_id: null, new: [], changed: [], moved_in: [], moved_out: [], removed: [] };
  const seen = new Set<string>();
  for (const run of prior) {
    for (const entry of run.kept) seen.add(entry.key);
    for (const [key] of run.cut) seen.add(key);
  }
  const previousKept = new Map(previous.kept.map((entry) => [entry.key, entry]));
  const keptNow = new Set(current.kept.map(evidenceKey));
  const foundNow = new Set([...keptNow, ...current.cut.map(evidenceKey)]);
  const changes: RunChanges = { previous_run_id: previous.run_id, new: [], changed: [], moved_in: [], moved_out: [], removed: [] };
  for (const item of current.kept) {
    const key = evidenceKey(item);
    const before = previousKept.get(key);
    if (!seen.has(key)) changes.new.push(ref(item));
    else if (before === undefined) changes.moved_in.push(ref(item));
    else if (before.hash !== item.content_hash) changes.changed.push(ref(item));
  }
  for (const entry of previous.kept) {
    if (keptNow.has(entry.key)) continue;
    (foundNow.has(entry.key) ? changes.moved_out : changes.removed).push(ref(entry));
  }
  return changes;
}

/** Changes against one previous run's kept items (what a topic without a memory falls back on). */
export function diffRuns(previous: { run_id: string; items: readonly ComparableItem[] } | null, current: readonly ComparableItem[]): RunChanges {
  const prior = previous === null ? [] : [rememberedRun({ stamp: '', runId: previous.run_id, requestedAt: '', kept: previous.items, cut: [] })];
  return changesSince(prior, { kept: current, cut: [] });
}

/**
 * The good run written just before `stamp` in a topic's normalized/ folder, or null: where a topic
 * whose memory is missing (written before there was one) starts. Failed and incomplete runs are skipped.
 */
export async function previousRun(store: SinkStore, dir: string, stamp: string): Promise<{ run_id: string; items: ComparableItem[] } | null> {
  const names = await store.list(storeKey(dir, 'normalized'));
  const older = names.filter((name) => name.endsWith('.json') && name.slice(0, -5) < stamp).sort().reverse();
  for (const name of older) {
    const stored = await store.read(storeKey(dir, 'normalized', name));
    if (stored === null) return null;
    try {
      const document = JSON.parse(stored.content) as { run_id: string; status?: unknown; items: ComparableItem[] };
      if (document.status === 'failed' || document.status === 'incomplete') continue;
      return { run_id: document.run_id, items: document.items.filter((item) => typeof item.content_hash === 'string') };
    } catch {
      return null;
    }
  }
  return null;
}

export function renderChanges(changes: RunChanges): string {
  if (changes.previous_run_id === null) return '\n## Changes\n\nFirst run of this topic: nothing to compare with yet.\n';
  const section = (title: string, items: ChangeRef[]) =>
    items.length === 0 ? [] : [`**${title} (${items.length})**`, ...items.map((item) => `- ${item.url ? `[${item.title}](${item.url})` : item.title}`), ''];
  const lines = [
    '',
    `## Changes since ${changes.previous_run_id}`,
    '',
    ...section('New', changes.new),
    ...section('Changed', changes.changed),
    ...section('Moved above the cut', changes.moved_in),
    ...section('Moved below the cut', changes.moved_out),
    ...section('Removed', changes.removed),
  ];
  if (changes.new.length + changes.changed.length + changes.moved_in.length + changes.moved_out.length + changes.removed.length === 0) lines.push('No new, changed or removed items.', '');
  return lines.join('\n');
}
