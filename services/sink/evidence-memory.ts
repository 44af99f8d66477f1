/**
 * A topic's memory of the evidence its good runs found, kept and cut alike:
 * <ingest-dir>/evidence-memory.json, beside the files it explains, written by the sink (the only
 * writer of the tree; one topic's batches reach one sink at a time, its key's partition).
 *
 * Bounded: the newest MEMORY_MAX_RUNS good runs, and none older than MEMORY_WINDOW_DAYS before
 * the newest. Per run it holds identities (canonical URL, or the content hash without one) and
 * content hashes; kept items also their id, title and URL, for the change report. A run is
 * remembered under its timestamp, so writing it again (a redelivery) replaces it, and a run is
 * always compared with the runs before it only, however late it arrives.
 */
import { z } from 'zod';
import { storeKey, type SinkStore, type StoredText } from '../../runtime/sink-store.ts';

export const MEMORY_FILE = 'evidence-memory.json';
export const MEMORY_MAX_RUNS = 50;
export const MEMORY_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

const keptSchema = z.object({ key: z.string(), hash: z.string(), id: z.string(), title: z.string(), url: z.string().nullable() });
const rememberedRunSchema = z.object({
  stamp: z.string(),
  run_id: z.string(),
  requested_at: z.string(),
  kept: z.array(keptSchema),
  /** Found but cut at max_items: [identity, content hash]. */
  cut: z.array(z.tuple([z.string(), z.string()])),
});
const memorySchema = z.object({ version: z.literal(1), runs: z.array(rememberedRunSchema) });

export type RememberedRun = z.infer<typeof rememberedRunSchema>;
export type EvidenceMemory = z.infer<typeof memorySchema>;

export interface Evidence {
  id: string;
  title: string;
  url: string | null;
  canonical_url: string | null;
  content_hash: string;
}

/** What identifies one piece of evidence across runs: its canonical URL, or its text without one. */
export const evidenceKey = (item: Pick<Evidence, 'canonical_url' | 'content_hash'>): string => item.canonical_url ?? `content:${item.content_hash}`;

export function emptyMemory(): EvidenceMemory {
  return { version: 1, runs: [] };
}

/** The memory of the folder `dir` in `store`, and the stored version it was read at (for a conditional write back). */
export interface ReadMemory {
  memory: EvidenceMemory;
  stored: StoredText | null;
}

/**
 * The memories this process last wrote or read, by their text. Every good run the sink reads the
 * memory the run before wrote (with 50 runs in it, 300 KB of JSON that took 0.5-0.7 ms to parse and
 * check against the schema): a text it knows is not parsed again. Safe to share because a memory is
 * never changed in place (`remember` makes a new one) and equal texts hold equal memories.
 */
const knownMemories = new Map<string, EvidenceMemory>();
const KNOWN_MEMORIES = 8;

function know(text: string, memory: EvidenceMemory): void {
  knownMemories.delete(text);
  knownMemories.set(text, memory);
  if (knownMemories.size > KNOWN_MEMORIES) knownMemories.delete(knownMemories.keys().next().value!);
}

/** A missing or unreadable file is an empty memory (the next good run starts it again). */
export async function readMemory(store: SinkStore, dir: string): Promise<ReadMemory> {
  const stored = await store.read(storeKey(dir, MEMORY_FILE));
  if (stored === null) return { memory: emptyMemory(), stored };
  const known = knownMemories.get(stored.content);
  if (known !== undefined) return { memory: known, stored };
  try {
    const parsed = memorySchema.safeParse(JSON.parse(stored.content));
    if (!parsed.success) return { memory: emptyMemory(), stored };
    know(stored.content, parsed.data);
    return { memory: parsed.data, stored };
  } catch {
    return { memory: emptyMemory(), stored };
  }
}

/** Writes the memory back, only over the version it was read at. */
export async function writeMemory(store: SinkStore, dir: string, memory: EvidenceMemory, readAt: StoredText | null): Promise<void> {
  const text = `${JSON.stringify(memory)}\n`;
  await store.write(storeKey(dir, MEMORY_FILE), text, readAt);
  know(text, memory);
}

export function rememberedRun(run: { stamp: string; runId: string; requestedAt: string; kept: readonly Evidence[]; cut: readonly Evidence[] }): RememberedRun {
  return {
    stamp: run.stamp,
    run_id: run.runId,
    requested_at: run.requestedAt,
    kept: run.kept.map((item) => ({ key: evidenceKey(item), hash: item.content_hash, id: item.id, title: item.title, url: item.url })),
    cut: run.cut.map((item) => [evidenceKey(item), item.content_hash]),
  };
}

/** The memory with `run` in it (replacing a run of the same timestamp), then bounded. */
export function remember(memory: EvidenceMemory, run: RememberedRun): EvidenceMemory {
  const runs = [...memory.runs.filter((entry) => entry.stamp !== run.stamp), run].sort((a, b) => (a.stamp < b.stamp ? -1 : a.stamp > b.stamp ? 1 : 0));
  const newest = Date.parse(runs.at(-1)!.requested_at);
  const inWindow = runs.filter((entry) => Date.parse(entry.requested_at) >= newest - MEMORY_WINDOW_DAYS * DAY_MS);
  return { version: 1, runs: inWindow.slice(-MEMORY_MAX_RUNS) };
}

/** The remembered runs before the run at `stamp`, within the window before it, oldest first. */
export function runsBefore(memory: EvidenceMemory, stamp: string, requestedAt: string): RememberedRun[] {
  const since = Date.parse(requestedAt) - MEMORY_WINDOW_DAYS * DAY_MS;
  return memory.runs.filter((entry) => entry.stamp < stamp && Date.parse(entry.requested_at) >= since);
}
