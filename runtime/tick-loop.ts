/**
 * A stage's periodic work (a windowed stage closing runs whose marker never came). Its outputs stay
 * queued until the broker acknowledges them (a failed send is retried on the next tick), and only then
 * are the offsets it released committed, with any commit a batch skipped meanwhile: a closed run is
 * committed without waiting for new input. An output that can never be encoded is a bug: the service
 * crashes, and the uncommitted input is re-read after the restart.
 */
import { isSkryaError } from './errors.ts';
import type { Outcome } from './handler.ts';
import type { Logger } from './logger.ts';
import type { OffsetTracker, PlannedCommit } from './offset-tracker.ts';
import type { Outbound, ProducedRecord } from './outbound.ts';

type Emit = Extract<Outcome, { kind: 'emit' }>;

export interface TickLoopOptions {
  tick: (now: Date) => Promise<Outcome[]> | Outcome[];
  intervalMs: number;
  offsets: OffsetTracker;
  outbound: Outbound;
  send: (records: ProducedRecord[]) => Promise<void>;
  commit: (planned: PlannedCommit) => Promise<void>;
  onEmitted: () => void;
  logger: Logger;
}

export interface TickLoop {
  crashed: Promise<Error>;
  stop(): void;
}

export function startTickLoop(options: TickLoopOptions): TickLoop {
  const { offsets, logger } = options;
  const { promise: crashed, resolve: crash } = Promise.withResolvers<Error>();
  // A tick may release held input before its outputs are acknowledged; until they are, the
  // tracker is paused, or a crash would lose that input.
  let undelivered: Emit[] = [];

  async function runTick(): Promise<void> {
    offsets.setPaused(true);
    try {
      for (const outcome of await options.tick(new Date())) if (outcome.kind === 'emit') undelivered.push(outcome);
      if (undelivered.length > 0) {
        const records: ProducedRecord[] = [];
        for (const outcome of undelivered) records.push(await options.outbound.toRecord(outcome, {}));
        await options.send(records);
        for (let sent = 0; sent < records.length; sent++) options.onEmitted();
        undelivered = [];
      }
    } catch (error) {
      if (isSkryaError(error) && !error.retriable) {
        logger.fatal({ err: error }, 'periodic work produced an output that cannot be written');
        clearInterval(timer);
        crash(error);
        return;
      }
      logger.error({ err: error, undelivered: undelivered.length }, 'periodic work failed; its outputs are sent again on the next tick');
      return;
    } finally {
      offsets.setPaused(undelivered.length > 0);
    }
    // Unchanged offsets are not planned again, so this costs nothing when nothing moved.
    for (const planned of offsets.planAll()) {
      // Best effort: the partition's next batch commits anyway.
      await options.commit(planned).catch((error: unknown) => logger.warn({ err: error, partition: planned.partition }, 'commit after periodic work failed'));
    }
  }

  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    void runTick().finally(() => {
      ticking = false;
    });
  }, options.intervalMs);

  return { crashed, stop: () => clearInterval(timer) };
}
