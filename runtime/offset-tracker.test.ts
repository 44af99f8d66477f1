import { describe, expect, it } from 'vitest';
import { createOffsetTracker, type OffsetTracker, type PlannedCommit } from './offset-tracker.ts';

/** One step against the tracker, then what it plans for partition 0 (or for all, after 'all'). */
type Step =
  | { delivered: string; partition?: number }
  | { held: string | null; partition?: number }
  | { note: string | null }
  | { paused: boolean }
  | { handling: number }
  | { committed: PlannedCommit }
  | { reset: true };

function replay(steps: Step[]): { tracker: OffsetTracker; plan: () => PlannedCommit | null; planAll: () => PlannedCommit[] } {
  const held = new Map<number, string | null>();
  let note: string | null = null;
  const tracker = createOffsetTracker({ heldFrom: (partition) => held.get(partition) ?? null, noteAt: () => note });
  for (const step of steps) {
    if ('delivered' in step) tracker.delivered(step.partition ?? 0, step.delivered);
    else if ('held' in step) held.set(step.partition ?? 0, step.held);
    else if ('note' in step) note = step.note;
    else if ('paused' in step) tracker.setPaused(step.paused);
    else if ('handling' in step) tracker.handling(step.handling);
    else if ('committed' in step) tracker.committed(step.committed);
    else tracker.reset();
  }
  return { tracker, plan: () => tracker.plan(0), planAll: () => tracker.planAll() };
}

const at = (offset: string, note: string | null = null, partition = 0): PlannedCommit => ({ partition, offset, note });

describe('createOffsetTracker', () => {
  it.each<[string, Step[], PlannedCommit | null]>([
    ['nothing delivered: nothing to commit', [], null],
    ['delivered input is committed up to the next offset', [{ delivered: '5' }], at('5')],
    ['an unchanged offset is not committed again', [{ delivered: '5' }, { committed: at('5') }], null],
    ['a further delivery is committed', [{ delivered: '5' }, { committed: at('5') }, { delivered: '9' }], at('9')],
    ['held input stops the commit at its first offset', [{ held: '3' }, { delivered: '9' }], at('3')],
    ['a hold past the delivered input does not move it on', [{ held: '12' }, { delivered: '9' }], at('9')],
    ['a hold released later lets the commit move on', [{ held: '3' }, { delivered: '9' }, { committed: at('3') }, { held: null }], at('9')],
    ['the same offset with a new note is committed again', [{ held: '3' }, { delivered: '9' }, { committed: at('3') }, { note: 'closed:B' }], at('3', 'closed:B')],
    ['the same offset with the same note is not', [{ held: '3' }, { delivered: '9' }, { note: 'n' }, { committed: at('3', 'n') }], null],
    ['paused: nothing is committed', [{ delivered: '5' }, { paused: true }], null],
    ['resumed: the delivery made while paused is committed', [{ delivered: '5' }, { paused: true }, { delivered: '7' }, { paused: false }], at('7')],
    ['a commit behind the last one is never planned', [{ delivered: '9' }, { committed: at('9') }, { held: '4' }], null],
    // Two commits crossed (a tick's older plan acknowledged after a batch's newer one): the broker
    // holds 5 now, so 9 is planned again instead of being taken as done.
    ['an older commit acknowledged after a newer one is what the broker holds: the newer is planned again', [{ delivered: '9' }, { committed: at('9') }, { committed: at('5') }], at('9')],
    ['and once the newer is acknowledged again, nothing more', [{ delivered: '9' }, { committed: at('9') }, { committed: at('5') }, { committed: at('9') }], null],
    ['an older note acknowledged after a newer one at the same offset is planned again', [{ held: '3' }, { delivered: '9' }, { note: 'new' }, { committed: at('3', 'new') }, { committed: at('3', 'old') }], at('3', 'new')],
    // A window closed by the batch is out of the holds and named by the note before its outputs are sent.
    ['while a batch is handling the partition, a released hold and a new note are not committed', [{ held: '3' }, { delivered: '9' }, { committed: at('3') }, { handling: 0 }, { held: null }, { note: 'closed:B' }], null],
    ['once the batch has delivered, they are', [{ held: '3' }, { delivered: '9' }, { committed: at('3') }, { handling: 0 }, { held: null }, { note: 'closed:B' }, { delivered: '12' }], at('12', 'closed:B')],
    ['a new assignment ends a batch that never delivered', [{ delivered: '5' }, { handling: 0 }, { reset: true }, { delivered: '5' }], at('5')],
    ['a delivery report older than one already seen is ignored', [{ delivered: '9' }, { delivered: '4' }], at('9')],
    ['a new assignment forgets deliveries and commits', [{ delivered: '9' }, { committed: at('9') }, { reset: true }], null],
    ['after a new assignment the same offset is committed afresh', [{ delivered: '9' }, { committed: at('9') }, { reset: true }, { delivered: '9' }], at('9')],
  ])('%s', (_name, steps, expected) => {
    expect(replay(steps).plan()).toEqual(expected);
  });

  it('plans every delivered partition, each against its own holds, and none while paused', () => {
    const { tracker, planAll } = replay([{ delivered: '5', partition: 0 }, { delivered: '8', partition: 1 }, { held: '6', partition: 1 }, { delivered: '2', partition: 2 }]);
    tracker.committed(at('2', null, 2));
    expect(planAll()).toEqual([at('5', null, 0), at('6', null, 1)]);
    tracker.handling(1);
    expect(planAll()).toEqual([at('5', null, 0)]);
    tracker.delivered(1, '8');
    tracker.setPaused(true);
    expect(planAll()).toEqual([]);
  });

  it('asks for the note at the offset it will commit', () => {
    const asked: string[] = [];
    const tracker = createOffsetTracker({ heldFrom: () => '4', noteAt: (partition, offset) => (asked.push(`${partition}@${offset}`), null) });
    tracker.delivered(3, '10');
    tracker.plan(3);
    expect(asked).toEqual(['3@4']);
  });
});
