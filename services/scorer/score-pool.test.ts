import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RawResult } from '../../schemas/messages.ts';
import { rawResponseFixture } from '../../test/fixtures/messages.ts';
import { builtinParsers } from './normalize-response.ts';
import { createScorePool } from './score-pool.ts';
import { createResponseScorer, type ResponseMessage } from './score-response.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import { compileScoringModel } from '../../domain/scoring-model/scoring-model.ts';

const FEED = fs.readFileSync(path.resolve(import.meta.dirname, '../../examples/ai-browser/feeds/tech-news.rss.xml'), 'utf8');

function feedResponse(sequence: number, payload = FEED): ResponseMessage {
  const raw = rawResponseFixture({ payload, sequence }) as Extract<RawResult, { kind: 'RESPONSE' }>;
  return { ...raw, producer: { ...raw.producer, name: 'feed_reader' }, request: { ...raw.request, window_until: '2026-11-30T00:00:00Z' } };
}

const pool = createScorePool(2);
// Responses parsed on this thread, their results scored in the workers (the live scorer's pool).
const parsingHere = createScorePool(2, { parseOn: 'caller' });
afterAll(() => Promise.all([pool.close(), parsingHere.close()]));

describe.each([{ parseOn: 'workers', scorePool: pool }, { parseOn: 'caller', scorePool: parsingHere }])('createScorePool parsing on the $parseOn', ({ scorePool }) => {
  it('scores responses side by side and gives exactly what scoring on the event loop gives', async () => {
    const messages = Array.from({ length: 6 }, (_unused, sequence) => feedResponse(sequence));
    const inWorkers = await Promise.all(messages.map((message) => scorePool.score(message)));
    const scoreResponse = createResponseScorer({ parsers: builtinParsers(), model: DEFAULT_SCORING_MODEL });
    const onTheLoop = messages.map((message) => scoreResponse(message));
    expect(inWorkers).toEqual(onTheLoop);
    expect(inWorkers[0]).toMatchObject({ kind: 'scored' });
    expect((inWorkers[0] as { items: unknown[] }).items.length).toBeGreaterThanOrEqual(5);
  });

  it('reports a response that cannot be normalized as such, with its code', async () => {
    expect(await scorePool.score(feedResponse(0, '<rss><channel><item><title>cut off'))).toEqual({ kind: 'normalize-failed', code: 'NORMALIZE_FAILED', message: expect.stringContaining('feed_reader') });
  });

  it('passes an unexpected error in a worker back as a failure instead of hanging', async () => {
    const broken = { ...feedResponse(0), request: null } as unknown as ResponseMessage;
    await expect(scorePool.score(broken)).rejects.toThrow(/scoring worker/);
  });
});

describe('createScorePool (worker threads)', () => {
  it('scores with the model it was given, in every worker', async () => {
    const definition = structuredClone(DEFAULT_SCORING_MODEL.definition);
    definition.id = 'authority-status';
    definition.ranking.weights.status = { keyword: 0.05, freshness: 0.05, authority: 0.8, rank: 0.05, agreement: 0.05 };
    const model = compileScoringModel(definition);
    const modelPool = createScorePool(1, { model });
    try {
      const message = feedResponse(0);
      const inWorker = await modelPool.score(message);
      expect(inWorker).toEqual(createResponseScorer({ parsers: builtinParsers(), model })(message));
      const items = (inWorker as { items: Array<{ components: { model: string; weight_authority: number } | null }> }).items.filter((item) => item.components !== null);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item.components).toMatchObject({ model: model.tag, weight_authority: 0.8 });
    } finally {
      await modelPool.close();
    }
  });

  it("reads each worker's busy time, which scoring adds to", async () => {
    const before = pool.utilization();
    expect(before).toHaveLength(2);
    await Promise.all(Array.from({ length: 6 }, (_unused, sequence) => pool.score(feedResponse(sequence))));
    const after = pool.utilization();
    // The least busy worker takes each response, so both scored some.
    for (const [worker, reading] of after.entries()) expect(performance.eventLoopUtilization(reading, before[worker]).active).toBeGreaterThan(0);
  });

  it('says when its workers can take work, and that they never will when none could start', async () => {
    await expect(pool.whenReady()).resolves.toBeUndefined();
    // A model its workers cannot compile: each fails while loading, before it is ready.
    const unusable = { ...DEFAULT_SCORING_MODEL, definition: { ...DEFAULT_SCORING_MODEL.definition, ranking: null } } as unknown as typeof DEFAULT_SCORING_MODEL;
    const broken = createScorePool(2, { model: unusable });
    try {
      await expect(broken.whenReady()).rejects.toThrow(/scoring worker/);
      await expect(broken.score(feedResponse(0))).rejects.toThrow('no scoring worker is alive');
    } finally {
      await broken.close();
    }
  });

  it('refuses work after close, and a pool needs a worker', async () => {
    const closing = createScorePool(1);
    await closing.close();
    await expect(closing.score(feedResponse(0))).rejects.toThrow('closed');
    expect(() => createScorePool(0)).toThrow(RangeError);
  });
});
