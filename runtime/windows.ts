/**
 * Windowed stages: inputs gathered per key (a run) until a message ends the window or it has been
 * quiet too long, then closed into outcomes. The window owns everything that makes this safe
 * under restarts, so a stage only says how to gather and how to close:
 * - the runner never commits past the first offset of a window still open, so a crash re-reads it;
 * - windows closed while an earlier one is still open are named in the commit's note, and the
 *   re-read after a restart skips them instead of closing them a second time, partially;
 * - a straggler for a window closed lately is ignored, not opened as a new window.
 */
import { createHash } from 'node:crypto';
import type { z } from 'zod';
import type { Logger } from './logger.ts';
import { COMMIT_NOTE_MAX_BYTES, type Handler, type Outcome } from './handler.ts';
import type { TOPICS, TopicName } from '../topics/topics.ts';

type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

export interface WindowSpec<T extends TopicName, S> {
  input: T;
  /** The window a message belongs to. */
  keyOf(value: ValueOf<T>): string;
  /** A new window's state, from its first message (which `add` then receives too). */
  open(value: ValueOf<T>): S;
  /** Gathers one message; 'close' when it is the window's last. */
  add(state: S, value: ValueOf<T>): 'open' | 'close';
  /** The outcomes of a closed window; `timedOut` when its end never came and it went quiet. */
  close(state: S, timedOut: boolean): Outcome[];
  /** How long a window may go without a message before it is closed as it is. */
  quietTimeoutMs: number;
  logger: Logger;
  clock?: () => number;
}

interface OpenWindow<S> {
  key: string;
  partition: number;
  firstOffset: bigint;
  lastOffset: bigint;
  lastSeenMs: number;
  state: S;
}

/** A closed window as a commit note names it: a short hash of its key and its last input offset. */
interface ClosedWindow {
  hash: string;
  lastOffset: bigint;
}

/** Windows closed lately: a straggler for one of them is ignored. */
const CLOSED_MEMORY = 10_000;

/** 64 bits of the key: about 200 closed windows fit in one commit note. */
function windowHash(key: string): string {
  return createHash('sha256').update(key).digest('base64url').slice(0, 11);
}

const NOTE_ENTRY = /^([A-Za-z0-9_-]{11})@(\d{1,19})$/;
// The note's field keeps the name it had when runs were the only windows, so notes committed
// before still restore.
const NOTE_FIELD = 'closedRuns';

/** Names as many closed windows as fit in a commit note, newest first: the latest closes are the likeliest to be re-read. */
function encodeNote(pending: readonly ClosedWindow[], onOverflow: (named: number) => void): string | null {
  const entries: string[] = [];
  let bytes = `{"${NOTE_FIELD}":[]}`.length;
  for (const window of [...pending].reverse()) {
    const entry = `${window.hash}@${window.lastOffset}`;
    if (bytes + entry.length + 3 > COMMIT_NOTE_MAX_BYTES) {
      onOverflow(entries.length);
      break;
    }
    entries.push(entry);
    bytes += entry.length + 3;
  }
  return entries.length === 0 ? null : JSON.stringify({ [NOTE_FIELD]: entries });
}

/** The closed windows a committed note names; null when the note is not a window note. */
function decodeNote(note: string): ClosedWindow[] | null {
  let entries: unknown;
  try {
    entries = (JSON.parse(note) as Record<string, unknown>)[NOTE_FIELD];
  } catch {
    entries = undefined;
  }
  if (!Array.isArray(entries)) return null;
  const closed: ClosedWindow[] = [];
  for (const entry of entries) {
    const parsed = typeof entry === 'string' ? NOTE_ENTRY.exec(entry) : null;
    if (parsed) closed.push({ hash: parsed[1]!, lastOffset: BigInt(parsed[2]!) });
  }
  return closed;
}

export function windowedHandler<T extends TopicName, S>(spec: WindowSpec<T, S>): Handler<T> {
  const now = spec.clock ?? Date.now;
  const open = new Map<string, OpenWindow<S>>();
  const recentlyClosed = new Set<string>();
  /** Per partition: closed windows whose input may lie past the committed offset. */
  const closedPastCommit = new Map<number, ClosedWindow[]>();

  function rememberClosed(hash: string, partition: number, lastOffset: bigint): void {
    recentlyClosed.add(hash);
    if (recentlyClosed.size > CLOSED_MEMORY) recentlyClosed.delete(recentlyClosed.values().next().value!);
    const list = closedPastCommit.get(partition) ?? [];
    const entry = list.find((window) => window.hash === hash);
    if (entry) entry.lastOffset = entry.lastOffset > lastOffset ? entry.lastOffset : lastOffset;
    else list.push({ hash, lastOffset });
    // Commits prune the list; without them (a replay) it keeps only as many as recentlyClosed does.
    if (list.length > CLOSED_MEMORY) list.shift();
    closedPastCommit.set(partition, list);
  }

  function close(window: OpenWindow<S>, timedOut: boolean): Outcome[] {
    open.delete(window.key);
    rememberClosed(windowHash(window.key), window.partition, window.lastOffset);
    return spec.close(window.state, timedOut);
  }

  return {
    input: spec.input,
    onAssignment() {
      // Everything open will be re-read from the committed offsets.
      open.clear();
    },
    heldFrom(partition) {
      let lowest: bigint | null = null;
      for (const window of open.values()) if (window.partition === partition && (lowest === null || window.firstOffset < lowest)) lowest = window.firstOffset;
      return lowest === null ? null : lowest.toString();
    },
    commitNote(partition, offset) {
      const pending = (closedPastCommit.get(partition) ?? []).filter((window) => window.lastOffset >= BigInt(offset));
      closedPastCommit.set(partition, pending);
      return encodeNote(pending, (named) => spec.logger.warn({ partition, named, left: pending.length - named }, 'too many closed windows past the committed offset to name them all; after a restart the others may be closed again (the sink keeps the first batch)'));
    },
    restoreCommitNote(partition, note) {
      const closed = decodeNote(note);
      if (closed === null) spec.logger.warn({ partition }, 'the committed note is not a window note; ignored');
      for (const window of closed ?? []) rememberClosed(window.hash, partition, window.lastOffset);
    },
    handle({ value, partition, offset }): Outcome[] {
      const key = spec.keyOf(value);
      const hash = windowHash(key);
      if (recentlyClosed.has(hash)) {
        // Remembered as closed while it is still past the committed offset, so a restart skips it too.
        rememberClosed(hash, partition, BigInt(offset));
        spec.logger.warn({ window: key, offset }, 'message for a window already closed; ignored');
        return [];
      }
      let window = open.get(key);
      if (!window) {
        window = { key, partition, firstOffset: BigInt(offset), lastOffset: BigInt(offset), lastSeenMs: now(), state: spec.open(value) };
        open.set(key, window);
      }
      window.lastSeenMs = now();
      window.lastOffset = BigInt(offset);
      return spec.add(window.state, value) === 'close' ? close(window, false) : [];
    },
    tick(): Outcome[] {
      const deadline = now() - spec.quietTimeoutMs;
      return [...open.values()].filter((window) => window.lastSeenMs < deadline).flatMap((window) => close(window, true));
    },
  };
}
