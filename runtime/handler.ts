/**
 * The handler contract: what a stage is to the runner. A stage's `handle(message, context)` returns
 * typed outcomes (emit, drop with a reason, dead-letter with an error code) or a deferred completion
 * for work that finishes later. Windowed stages (a run open until its marker) are built with
 * `windowedHandler` (windows.ts), which supplies the hold, tick and commit-note members.
 */
import type { ErrorCode } from './errors.ts';
import type { TOPICS, TopicName } from '../topics/topics.ts';
import type { z } from 'zod';

export type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

/** What a handler decides for one input. An empty list is a decision too. */
export type Outcome =
  | { kind: 'emit'; topic: TopicName; key: string; value: unknown; headers?: Record<string, string> }
  | { kind: 'drop'; reason: string }
  | { kind: 'deadLetter'; code: ErrorCode; message: string };

/**
 * Work on an input that finishes after `handle` returns (a retrieval run). The runner holds the
 * input's offset until the completion's outcomes are acknowledged. A completion of null was
 * abandoned (the service is stopping): the input stays held and is redone after a restart. A
 * rejected completion is a bug: the service crashes.
 */
export interface Later {
  kind: 'later';
  completion: Promise<Outcome[] | null>;
}

export const emit = <T extends TopicName>(topic: T, key: string, value: ValueOf<T>, headers?: Record<string, string>): Outcome => ({ kind: 'emit', topic, key, value, ...(headers ? { headers } : {}) });
export const drop = (reason: string): Outcome => ({ kind: 'drop', reason });
export const deadLetter = (code: ErrorCode, message: string): Outcome => ({ kind: 'deadLetter', code, message });
export const later = (completion: Promise<Outcome[] | null>): Later => ({ kind: 'later', completion });

export interface IncomingMessage<T> {
  topic: TopicName;
  partition: number;
  offset: string;
  key: string | null;
  value: T;
  headers: Record<string, string>;
  timestamp: string;
}

export interface HandlerContext {
  /** Long handlers (provider calls) call this so the group does not evict the consumer. */
  heartbeat: () => Promise<void>;
  signal: AbortSignal;
}

/** A stage's handler; only a stage whose work finishes later (the retriever) returns `later`. */
export interface Handler<T extends TopicName, Result extends Outcome | Later = Outcome> {
  input: T;
  handle(message: IncomingMessage<ValueOf<T>>, context: HandlerContext): Promise<Result[]> | Result[];
  /**
   * Called with each input of a fetched batch a few inputs before its turn (decoded, not yet
   * handled), so a stage whose handling waits on other threads (the scorer's workers) starts that
   * work early and the threads are not idle while the event loop sends, commits and fetches.
   * It must not change what `handle` decides: inputs are still handled one at a time, in order,
   * and an input prepared may never be handled (the batch was cut short by a rebalance).
   */
  prepare?(message: IncomingMessage<ValueOf<T>>): void;
  /**
   * Stateful stages (the collector) keep inputs in memory until a run closes: the runner never
   * commits past the lowest offset such a handler still holds, so a crash re-reads them.
   */
  heldFrom?(partition: number): string | null;
  /** Periodic work such as closing runs whose end marker never came. */
  tick?(now: Date): Promise<Outcome[]> | Outcome[];
  /** A new partition assignment: held state will be re-read from the committed offsets. */
  onAssignment?(): void;
  /**
   * Stored with each commit as its Kafka commit metadata (at most COMMIT_NOTE_MAX_BYTES): what the
   * handler already finished past the committed offset (runs it closed while an earlier one is
   * still held), so the input re-read after a restart is not worked on twice.
   */
  commitNote?(partition: number, offset: string): string | null;
  /** The note committed with a partition's offset, handed back before its input is re-read. */
  restoreCommitNote?(partition: number, note: string): void;
}

/** Kafka refuses commit metadata above offset.metadata.max.bytes (4,096 by default). */
export const COMMIT_NOTE_MAX_BYTES = 4_000;

