/**
 * A windowed handler and the offset tracker wired as the runner wires them: what a commit planned
 * in the middle of a batch (by the tick loop or by finished deferred work) may say about a window the
 * batch has closed but whose outputs it has not yet sent.
 */
import { describe, expect, it } from 'vitest';
import type { Handler, IncomingMessage, ValueOf } from './handler.ts';
import { createLogger } from './logger.ts';
import { createOffsetTracker } from './offset-tracker.ts';
import { windowedHandler } from './windows.ts';

type Value = ValueOf<'scored-results'>;
const context = { heartbeat: async () => {}, signal: new AbortController().signal };
/** Only what the spec below reads: the window's key and whether this message ends it. */
const message = (offset: number, run: string, last: boolean): IncomingMessage<Value> => ({ topic: 'scored-results', partition: 0, offset: String(offset), key: run, value: { run, last } as unknown as Value, headers: {}, timestamp: '0' });

function collectorLike(): Handler<'scored-results'> {
  return windowedHandler<'scored-results', { run: string; count: number }>({
    input: 'scored-results',
    keyOf: (value) => (value as unknown as { run: string }).run,
    open: (value) => ({ run: (value as unknown as { run: string }).run, count: 0 }),
    add: (state, value) => ((state.count += 1), (value as unknown as { last: boolean }).last ? 'close' : 'open'),
    close: (state) => [{ kind: 'emit', topic: 'ingest-normalized', key: state.run, value: state }],
    quietTimeoutMs: 60_000,
    logger: createLogger({ level: 'silent', name: 'windows-test' }),
  });
}

describe('a window closed in a batch whose outputs are not yet sent', () => {
  function scene() {
    const handler = collectorLike();
    const offsets = createOffsetTracker({ heldFrom: (partition) => handler.heldFrom!(partition), noteAt: (partition, offset) => handler.commitNote!(partition, offset) });
    // Earlier batches: run A opened at offset 0, run B at 1; everything delivered, committed at A's first offset.
    handler.handle(message(0, 'A', false), context);
    handler.handle(message(1, 'B', false), context);
    offsets.delivered(0, '2');
    offsets.committed(offsets.plan(0)!);
    // This batch: B's last message closes it; its output now waits in the batch for the send.
    offsets.handling(0);
    const outputs = handler.handle(message(2, 'B', true), context);
    return { handler, offsets, outputs };
  }

  it('is not named as closed by a commit planned meanwhile, so a crash before the send re-reads and closes it again', () => {
    const { offsets, outputs } = scene();
    expect(outputs).toHaveLength(1);
    expect(offsets.planAll()).toEqual([]);
  });

  it('is named once the batch has sent its outputs', () => {
    const { handler, offsets } = scene();
    offsets.delivered(0, '3');
    const commit = offsets.plan(0);
    expect(commit).toMatchObject({ partition: 0, offset: '0' });
    // Restored after a restart, the note makes the re-read skip B instead of closing it a second time.
    const restarted = collectorLike();
    restarted.restoreCommitNote!(0, commit!.note!);
    expect(restarted.handle(message(1, 'B', false), context)).toEqual([]);
    expect(restarted.heldFrom!(0)).toBeNull();
    expect(handler.heldFrom!(0)).toBe('0');
  });
});
