/**
 * Topics ordered by the time they are next due: a binary min-heap with lazy removal. Scheduling,
 * rescheduling and removing a topic cost O(log n); taking the due ones costs O(due · log n), so a
 * tick with nothing due costs nothing however many topics a monitor owns. A rescheduled or
 * removed topic's old heap entry stays until it surfaces and is then skipped (its version is stale).
 */
interface Entry {
  dueAt: number;
  key: string;
  version: number;
}

export interface DueSchedule {
  /** Schedules `key` at `dueAt` (ms since the epoch), replacing any earlier schedule of it. */
  schedule(key: string, dueAt: number): void;
  remove(key: string): void;
  /** Removes and returns up to `limit` keys due at or before `now`, earliest first. */
  takeDue(now: number, limit: number): Array<{ key: string; dueAt: number }>;
  /** When the earliest scheduled key is due, or null when nothing is scheduled. */
  nextDueAt(): number | null;
  readonly size: number;
}

export function createDueSchedule(): DueSchedule {
  const heap: Entry[] = [];
  const current = new Map<string, number>();
  let versions = 0;

  const earlier = (a: Entry, b: Entry) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.key < b.key);

  function push(entry: Entry): void {
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!earlier(heap[index]!, heap[parent]!)) break;
      [heap[index], heap[parent]] = [heap[parent]!, heap[index]!];
      index = parent;
    }
  }

  function pop(): Entry | undefined {
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let index = 0;
      for (;;) {
        const left = 2 * index + 1;
        const right = left + 1;
        let smallest = index;
        if (left < heap.length && earlier(heap[left]!, heap[smallest]!)) smallest = left;
        if (right < heap.length && earlier(heap[right]!, heap[smallest]!)) smallest = right;
        if (smallest === index) break;
        [heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!];
        index = smallest;
      }
    }
    return top;
  }

  /** Drops stale entries from the top, so heap[0] is live (or the heap is empty). */
  function skipStale(): void {
    while (heap.length > 0 && current.get(heap[0]!.key) !== heap[0]!.version) pop();
  }

  return {
    schedule(key, dueAt) {
      versions += 1;
      current.set(key, versions);
      push({ dueAt, key, version: versions });
      // Rescheduling leaves stale entries behind; rebuild when they outnumber the live ones.
      if (heap.length > 2 * current.size + 1024) {
        const live = heap.filter((entry) => current.get(entry.key) === entry.version);
        heap.length = 0;
        for (const entry of live) push(entry);
      }
    },
    remove(key) {
      current.delete(key);
    },
    takeDue(now, limit) {
      const due: Array<{ key: string; dueAt: number }> = [];
      for (skipStale(); due.length < limit && heap.length > 0 && heap[0]!.dueAt <= now; skipStale()) {
        const entry = pop()!;
        current.delete(entry.key);
        due.push({ key: entry.key, dueAt: entry.dueAt });
      }
      return due;
    },
    nextDueAt() {
      skipStale();
      return heap[0]?.dueAt ?? null;
    },
    get size() {
      return current.size;
    },
  };
}
