import { describe, expect, it } from 'vitest';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ResponseMessage, ScoredResponse, ScorePool } from '../scorer/index.ts';
import { createReadAheadPool } from './read-ahead-pool.ts';

const scoredBy = (where: string): ScoredResponse => ({ kind: 'normalize-failed', code: 'NORMALIZE_FAILED', message: where });

/** A pool whose workers answer only when told to, and say that they scored it; ready once `start` is called. */
function heldPool(size: number) {
  const held: Array<() => void> = [];
  let start!: () => void;
  const ready = new Promise<void>((resolve) => (start = resolve));
  const pool: ScorePool = {
    size,
    model: DEFAULT_SCORING_MODEL,
    score: () => new Promise((resolve) => held.push(() => resolve(scoredBy('worker')))),
    whenReady: () => ready,
    utilization: () => [],
    close: async () => {},
  };
  return { pool, start, handedOver: () => held.length, releaseAll: () => held.splice(0).forEach((release) => release()) };
}

/** A read-ahead pool over `pool` once its workers are ready. */
async function readyReadAhead({ pool, start }: ReturnType<typeof heldPool>) {
  const readAhead = createReadAheadPool(pool, () => scoredBy('loop'));
  start();
  await readAhead.whenReady();
  return readAhead;
}

const messages = (count: number) => Array.from({ length: count }, () => ({}) as ResponseMessage);

describe('createReadAheadPool', () => {
  it.each([{ workers: 1, inWorkers: 2 }, { workers: 2, inWorkers: 4 }])('gives $workers worker(s) $inWorkers responses ahead and the event loop those whose turn comes first', async ({ workers, inWorkers }) => {
    const held = heldPool(workers);
    const readAhead = await readyReadAhead(held);
    const { releaseAll } = held;
    const read = messages(6);
    for (const message of read) readAhead.readAhead(message);
    releaseAll();
    const results = await Promise.all(read.map((message) => readAhead.score(message)));
    expect(results.map((result) => (result as { message: string }).message)).toEqual(read.map((_unused, index) => (index < inWorkers ? 'worker' : 'loop')));
  });

  it('hands a queued response to a worker as soon as one answers', async () => {
    const held = heldPool(1);
    const readAhead = await readyReadAhead(held);
    const { releaseAll } = held;
    const read = messages(3);
    for (const message of read) readAhead.readAhead(message);
    releaseAll();
    await new Promise(setImmediate);
    releaseAll();
    const results = await Promise.all(read.map((message) => readAhead.score(message)));
    expect(results).toEqual([scoredBy('worker'), scoredBy('worker'), scoredBy('worker')]);
  });

  it('sends responses to the workers again once they have answered', async () => {
    const held = heldPool(1);
    const readAhead = await readyReadAhead(held);
    const { releaseAll } = held;
    const [first, second, third] = messages(3);
    readAhead.readAhead(first!);
    readAhead.readAhead(second!);
    releaseAll();
    await readAhead.score(first!);
    await readAhead.score(second!);
    readAhead.readAhead(third!);
    releaseAll();
    expect(await readAhead.score(third!)).toEqual(scoredBy('worker'));
  });

  it('scores on the event loop until the workers are ready, then hands them what is queued', async () => {
    const held = heldPool(1);
    const readAhead = createReadAheadPool(held.pool, () => scoredBy('loop'));
    const read = messages(4);
    for (const message of read) readAhead.readAhead(message);
    expect(held.handedOver()).toBe(0);
    expect(await readAhead.score(read[0]!)).toEqual(scoredBy('loop'));
    held.start();
    await readAhead.whenReady();
    expect(held.handedOver()).toBe(2);
    held.releaseAll();
    const results = await Promise.all(read.slice(1).map((message) => readAhead.score(message)));
    expect(results).toEqual([scoredBy('worker'), scoredBy('worker'), scoredBy('loop')]);
  });

  it('fails the next turn when the workers could not start', async () => {
    const notStarting: ScorePool = { ...heldPool(1).pool, whenReady: () => Promise.reject(new Error('a scoring worker failed: no model')) };
    const readAhead = createReadAheadPool(notStarting, () => scoredBy('loop'));
    const [message] = messages(1);
    readAhead.readAhead(message!);
    await expect(readAhead.whenReady()).rejects.toThrow();
    await expect(readAhead.score(message!)).rejects.toThrow('no model');
  });

  it('passes a worker failure to the turn that asks for it', async () => {
    const failing: ScorePool = { size: 1, model: DEFAULT_SCORING_MODEL, score: () => Promise.reject(new Error('a scoring worker exited with code 1')), whenReady: async () => {}, utilization: () => [], close: async () => {} };
    const readAhead = createReadAheadPool(failing, () => scoredBy('loop'));
    await readAhead.whenReady();
    const [message] = messages(1);
    readAhead.readAhead(message!);
    await expect(readAhead.score(message!)).rejects.toThrow('exited with code 1');
  });
});
