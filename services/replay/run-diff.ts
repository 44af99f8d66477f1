/**
 * What a replay changed in one run: its replayed document against the original
 * normalized/<timestamp>.json of the same run, item by item, matched by canonical URL (the item id
 * when an item has no URL). New, changed (content hash or verdict), removed and rescored items, each list
 * in key order, so the same two documents always give the same diff.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

const documentSchema = z.object({
  run_id: z.string(),
  items: z.array(z.object({
    id: z.string(),
    title: z.string(),
    url: z.string().nullable(),
    canonical_url: z.string().nullable(),
    /** The scorer's hash of the item's text; documents written before it was added lack it. */
    content_hash: z.string().optional(),
    content: z.string().nullable(),
    summary: z.string().nullable(),
    verdict: z.string(),
    score: z.number().nullable(),
  })),
  stats: z.object({ complete: z.boolean() }),
});
type DocumentItem = z.infer<typeof documentSchema>['items'][number];

export interface ItemRef {
  key: string;
  id: string;
  title: string;
  verdict: string;
  score: number | null;
}

export interface ChangedItem {
  key: string;
  title: string;
  changes: Array<'content' | 'verdict'>;
  original: { id: string; verdict: string; content_hash: string };
  replayed: { id: string; verdict: string; content_hash: string };
}

export interface RescoredItem {
  key: string;
  title: string;
  original_score: number | null;
  replayed_score: number | null;
}

export interface RunDiff {
  run_id: string;
  file: string;
  /** missing: no original file; unreadable: not a skrya.ingest.v1 document. Then every item is new. */
  original: 'found' | 'missing' | 'unreadable';
  complete: { original: boolean | null; replayed: boolean };
  counts: { original: number; replayed: number; new: number; changed: number; removed: number; rescored: number; unchanged: number };
  new: ItemRef[];
  changed: ChangedItem[];
  removed: ItemRef[];
  rescored: RescoredItem[];
}

/** The scorer's content hash, or for older documents a hash of the text they show. */
function contentHash(item: DocumentItem): string {
  return item.content_hash ?? createHash('sha256').update(JSON.stringify([item.title, item.content, item.summary])).digest('hex').slice(0, 32);
}

/** Items by match key; a key seen twice in one document gets #2, #3 … in document order. */
function keyed(items: readonly DocumentItem[]): Map<string, DocumentItem> {
  const byKey = new Map<string, DocumentItem>();
  for (const item of items) {
    const base = item.canonical_url ?? item.url ?? `id:${item.id}`;
    let key = base;
    for (let copy = 2; byKey.has(key); copy += 1) key = `${base}#${copy}`;
    byKey.set(key, item);
  }
  return byKey;
}

const byKey = (a: { key: string }, b: { key: string }) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
const ref = (key: string, item: DocumentItem): ItemRef => ({ key, id: item.id, title: item.title, verdict: item.verdict, score: item.score });

export type OriginalDocument = { kind: 'missing' } | { kind: 'found'; json: unknown };

export function diffRun(run: { runId: string; file: string }, original: OriginalDocument, replayedJson: unknown): RunDiff {
  const replayed = documentSchema.parse(replayedJson);
  const parsedOriginal = original.kind === 'found' ? documentSchema.safeParse(original.json) : null;
  const status = original.kind === 'missing' ? 'missing' : parsedOriginal?.success ? 'found' : 'unreadable';
  const before = keyed(parsedOriginal?.success ? parsedOriginal.data.items : []);
  const after = keyed(replayed.items);

  const added: ItemRef[] = [];
  const changed: ChangedItem[] = [];
  const removed: ItemRef[] = [];
  const rescored: RescoredItem[] = [];
  let unchanged = 0;
  for (const [key, item] of after) {
    const old = before.get(key);
    if (!old) {
      added.push(ref(key, item));
      continue;
    }
    const oldHash = contentHash(old);
    const newHash = contentHash(item);
    // The id embeds the scorer's hash of the full text, so it also catches changes the document trims.
    const changes: ChangedItem['changes'] = [];
    if (oldHash !== newHash || old.id !== item.id) changes.push('content');
    if (old.verdict !== item.verdict) changes.push('verdict');
    if (changes.length > 0) {
      changed.push({ key, title: item.title, changes, original: { id: old.id, verdict: old.verdict, content_hash: oldHash }, replayed: { id: item.id, verdict: item.verdict, content_hash: newHash } });
    }
    if (old.score !== item.score) rescored.push({ key, title: item.title, original_score: old.score, replayed_score: item.score });
    if (changes.length === 0 && old.score === item.score) unchanged += 1;
  }
  for (const [key, item] of before) if (!after.has(key)) removed.push(ref(key, item));

  return {
    run_id: run.runId,
    file: run.file,
    original: status,
    complete: { original: parsedOriginal?.success ? parsedOriginal.data.stats.complete : null, replayed: replayed.stats.complete },
    counts: { original: before.size, replayed: after.size, new: added.length, changed: changed.length, removed: removed.length, rescored: rescored.length, unchanged },
    new: added.sort(byKey),
    changed: changed.sort(byKey),
    removed: removed.sort(byKey),
    rescored: rescored.sort(byKey),
  };
}
