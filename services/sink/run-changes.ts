/**
 * What changed since the previous run of a topic: items that are new, changed (same canonical URL,
 * different content) or removed. The previous run is the newest normalized/<timestamp>.json older
 * than this run, so the answer is the same however often a batch is delivered.
 */
import fs from 'node:fs';
import { resolveInside } from '../../runtime/ids.ts';

export interface ChangeRef {
  id: string;
  title: string;
  url: string | null;
}

export interface RunChanges {
  previous_run_id: string | null;
  new: ChangeRef[];
  changed: ChangeRef[];
  removed: ChangeRef[];
}

export interface ComparableItem extends ChangeRef {
  canonical_url: string | null;
  content_hash: string;
}

const identity = (item: ComparableItem) => item.canonical_url ?? `content:${item.content_hash}`;
const ref = ({ id, title, url }: ComparableItem): ChangeRef => ({ id, title, url });

export function diffRuns(previous: { run_id: string; items: readonly ComparableItem[] } | null, current: readonly ComparableItem[]): RunChanges {
  const before = new Map((previous?.items ?? []).map((item) => [identity(item), item]));
  const now = new Set(current.map(identity));
  return {
    previous_run_id: previous?.run_id ?? null,
    new: previous === null ? [] : current.filter((item) => !before.has(identity(item))).map(ref),
    changed: current.filter((item) => {
      const old = before.get(identity(item));
      return old !== undefined && old.content_hash !== item.content_hash;
    }).map(ref),
    removed: (previous?.items ?? []).filter((item) => !now.has(identity(item))).map(ref),
  };
}

/** The run written just before `stamp` in a topic's normalized/ folder, or null for a first run. */
export function previousRun(dir: string, stamp: string): { run_id: string; items: ComparableItem[] } | null {
  let names: string[];
  try {
    names = fs.readdirSync(resolveInside(dir, 'normalized'));
  } catch {
    return null;
  }
  const older = names.filter((name) => name.endsWith('.json') && name.slice(0, -5) < stamp).sort().at(-1);
  if (!older) return null;
  try {
    const document = JSON.parse(fs.readFileSync(resolveInside(dir, 'normalized', older), 'utf8')) as { run_id: string; items: ComparableItem[] };
    return { run_id: document.run_id, items: document.items.filter((item) => typeof item.content_hash === 'string') };
  } catch {
    return null;
  }
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
    ...section('Removed', changes.removed),
  ];
  if (changes.new.length + changes.changed.length + changes.removed.length === 0) lines.push('No new, changed or removed items.', '');
  return lines.join('\n');
}
