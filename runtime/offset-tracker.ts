/**
 * Offset bookkeeping for one consumer, kept apart from Kafka so it can be tested without a broker.
 * An input's offset may be committed once every output made from it is acknowledged, but never
 * past input something still holds (an open window, work finishing later), and never while
 * periodic work has outputs in flight. A commit behind the last acknowledged one is never planned,
 * and an unchanged offset with an unchanged note is not sent again.
 *
 * The broker keeps whichever commit it applied last, lower or not, and acknowledges commits in the
 * order it applied them. Two commits of one partition can cross (the collector's tick planned one
 * before a batch committed further, and sent it after): the broker then holds the older offset. So
 * the last acknowledgement, not the highest, is what the broker holds, and the newer offset is
 * planned again; keeping the highest left the group behind by the crossed span for good (the
 * collector's lag of 1-19 messages when idle, README "Running on a cluster").
 *
 * Nothing is planned for a partition while a batch of it is being handled: a window the batch
 * closed is already out of the holds and in the note, but its outputs wait in the batch until it
 * sends them. A commit planned meanwhile (by the tick or by finished deferred work) named the run
 * as closed; a crash before the send then lost it, because the re-read skipped it (the registry
 * outage test lost three runs that way when the collector was killed).
 */

export interface PlannedCommit {
  partition: number;
  offset: string;
  /** Kafka commit metadata: what was already finished past `offset` (see Holds.noteAt). */
  note: string | null;
}

/** What keeps input from being committed, asked at each commit. */
export interface Holds {
  /** The lowest offset still held on a partition, or null. */
  heldFrom(partition: number): string | null;
  /** What to store with a commit at `offset`: work finished past it, so a re-read skips it. */
  noteAt?(partition: number, offset: string): string | null;
}

export interface OffsetTracker {
  /** A new assignment: forget what this member delivered and committed. */
  reset(): void;
  /** A batch of `partition` is handling input whose outputs are not yet acknowledged: nothing is planned for it until `delivered`. */
  handling(partition: number): void;
  /** Every output made from the input below `nextOffset` on `partition` is acknowledged (and its batch's handling is over). */
  delivered(partition: number, nextOffset: string): void;
  /** True while periodic work has outputs not yet acknowledged: nothing is committed meanwhile. */
  setPaused(paused: boolean): void;
  /** The commit to send for one partition now, or null when there is none (paused, handling, unchanged or behind). */
  plan(partition: number): PlannedCommit | null;
  /** The commits to send for every partition delivered to. */
  planAll(): PlannedCommit[];
  /** The broker accepted a commit: it now holds this offset, even if an earlier acknowledgement was further on. */
  committed(commit: PlannedCommit): void;
}

const lower = (a: string, b: string) => (BigInt(a) < BigInt(b) ? a : b);

export function createOffsetTracker(holds: Holds): OffsetTracker {
  const deliveredUpTo = new Map<number, string>();
  const lastCommitted = new Map<number, { offset: bigint; note: string | null }>();
  const handlingBatch = new Set<number>();
  let paused = false;

  function plan(partition: number): PlannedCommit | null {
    const delivered = deliveredUpTo.get(partition);
    if (delivered === undefined || paused || handlingBatch.has(partition)) return null;
    const held = holds.heldFrom(partition);
    const offset = held === null ? delivered : lower(held, delivered);
    const note = holds.noteAt?.(partition, offset) ?? null;
    const previous = lastCommitted.get(partition);
    if (previous && (BigInt(offset) < previous.offset || (BigInt(offset) === previous.offset && note === previous.note))) return null;
    return { partition, offset, note };
  }

  return {
    reset() {
      deliveredUpTo.clear();
      lastCommitted.clear();
      handlingBatch.clear();
    },
    handling(partition) {
      handlingBatch.add(partition);
    },
    delivered(partition, nextOffset) {
      handlingBatch.delete(partition);
      const previous = deliveredUpTo.get(partition);
      if (previous === undefined || BigInt(nextOffset) > BigInt(previous)) deliveredUpTo.set(partition, nextOffset);
    },
    setPaused(value) {
      paused = value;
    },
    plan,
    planAll() {
      return [...deliveredUpTo.keys()].map(plan).filter((commit): commit is PlannedCommit => commit !== null);
    },
    committed({ partition, offset, note }) {
      lastCommitted.set(partition, { offset: BigInt(offset), note });
    },
  };
}
