import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HandlerContext, IncomingMessage, Outcome } from '../../runtime/handler.ts';
import { scoredResultSchema, type RawResult, type ScoredResult } from '../../schemas/messages.ts';
import { rawResponseFixture, rawRunEndFixture } from '../../test/fixtures/messages.ts';
import { createScorer } from './handler.ts';
import { createScorePool, type ScorePool } from './score-pool.ts';
import { builtinParsers } from './normalize-response.ts';
import { parseRunId } from '../../runtime/ids.ts';

type Response = Extract<RawResult, { kind: 'RESPONSE' }>;

const context: HandlerContext = { heartbeat: async () => {}, signal: new AbortController().signal };
const parsers = builtinParsers();
const FEED = fs.readFileSync(path.resolve(import.meta.dirname, '../../examples/ai-browser/feeds/tech-news.rss.xml'), 'utf8');

function incoming(value: RawResult, offset = 0): IncomingMessage<RawResult> {
  return { topic: 'raw-results', partition: 0, offset: String(offset), key: 'acme/ai-browser', value, headers: {}, timestamp: '0' };
}

function response(overrides: Partial<Response['response']> = {}, producer: Partial<Response['producer']> = { name: 'feed_reader' }, runId?: string): Response {
  const raw = rawResponseFixture(overrides) as Response;
  return { ...raw, ...(runId ? { run_id: parseRunId(runId) } : {}), producer: { ...raw.producer, ...producer }, request: { ...raw.request, window_until: '2026-11-30T00:00:00Z' } };
}

function runEnd(runId?: string, responseCount = 3): RawResult {
  const end = rawRunEndFixture() as Extract<RawResult, { kind: 'RUN_END' }>;
  return { ...end, ...(runId ? { run_id: parseRunId(runId) } : {}), run_end: { ...end.run_end, response_count: responseCount } };
}

function emitted(outcomes: Outcome[]): ScoredResult[] {
  return outcomes.map((outcome) => {
    if (outcome.kind !== 'emit') throw new Error(`expected emit, got ${outcome.kind}`);
    expect(outcome.topic).toBe('scored-results');
    expect(outcome.key).toBe('acme/ai-browser');
    return scoredResultSchema.parse(outcome.value);
  });
}

describe('createScorer', () => {
  it('emits one scored item per result, dropped ones included, and forwards the run end with its counts', async () => {
    const scorer = createScorer({ parsers });
    const items = emitted(await scorer.handle(incoming(response({ payload: FEED })), context));
    expect(items.length).toBeGreaterThanOrEqual(5);
    expect(items.every((message) => message.kind === 'ITEM')).toBe(true);
    const verdicts = items.map((message) => message.item!.verdict);
    expect(verdicts).toContain('DROPPED');

    const unparseable = await scorer.handle(incoming(response({ sequence: 1, payload: '<rss><channel><item><title>cut off' })), context);
    expect(unparseable).toEqual([{ kind: 'deadLetter', code: 'NORMALIZE_FAILED', message: expect.any(String) }]);

    const [marker, ...rest] = emitted(await scorer.handle(incoming(runEnd(undefined, 2)), context));
    expect(rest).toEqual([]);
    expect(marker!.kind).toBe('RUN_END');
    const count = (verdict: string) => verdicts.filter((entry) => entry === verdict).length;
    expect(marker!.run_end).toMatchObject({
      item_messages: items.length,
      counts: {
        raw_responses: 2,
        raw_items: items.length,
        accepted: count('ACCEPTED'),
        downweighted: count('DOWNWEIGHTED'),
        quarantined: count('QUARANTINED'),
        dropped: count('DROPPED'),
        normalize_failures: 1,
      },
      provider_status: rawRunEndFixture().run_end!.provider_status,
      degradation_log_json: '[]',
    });
  });

  it.each([
    ['a provider without a parser', response({}, { name: 'no_such_provider' })],
    ['a runtime skill whose JSON holds no list', response({ payload: '{"error": "quota"}', content_type: 'application/json' }, { kind: 'runtime-skill', name: 'agent-reach' })],
  ])('dead-letters %s with NORMALIZE_FAILED', async (_name, value) => {
    const scorer = createScorer({ parsers });
    expect(await scorer.handle(incoming(value), context)).toEqual([{ kind: 'deadLetter', code: 'NORMALIZE_FAILED', message: expect.any(String) }]);
    const [marker] = emitted(await scorer.handle(incoming(runEnd()), context));
    expect(marker!.run_end!.counts).toMatchObject({ normalize_failures: 1, raw_items: 0 });
  });

  it('normalizes runtime-skill output with the generic reader', async () => {
    const payload = JSON.stringify({ results: [{ url: 'https://www.theverge.com/2026/11/27/firefox', title: 'Firefox 146 adds a local model', snippet: 'Sidebar assistant update.', source: 'The Verge' }] });
    const items = emitted(await createScorer({ parsers }).handle(incoming(response({ payload, content_type: 'application/json' }, { kind: 'runtime-skill', name: 'agent-reach' })), context));
    expect(items.map((message) => [message.item!.title, message.item!.producer_name, message.item!.verdict])).toEqual([['Firefox 146 adds a local model', 'agent-reach', 'ACCEPTED']]);
  });

  it('keeps the counts of interleaved runs apart and starts over after a marker', async () => {
    const scorer = createScorer({ parsers });
    await scorer.handle(incoming(response({ payload: FEED }, { name: 'feed_reader' }, 'run-a')), context);
    await scorer.handle(incoming(response({ payload: 'garbage' }, { name: 'feed_reader' }, 'run-b')), context);
    const [endA] = emitted(await scorer.handle(incoming(runEnd('run-a')), context));
    const [endB] = emitted(await scorer.handle(incoming(runEnd('run-b')), context));
    const [endAagain] = emitted(await scorer.handle(incoming(runEnd('run-a')), context));
    expect(endA!.run_end!.counts.normalize_failures).toBe(0);
    expect(endA!.run_end!.item_messages).toBeGreaterThan(0);
    expect(endB!.run_end!.counts).toMatchObject({ normalize_failures: 1, raw_items: 0 });
    expect(endAagain!.run_end!.item_messages).toBe(0);
  });

  it('forgets partial counts on a new assignment', async () => {
    const scorer = createScorer({ parsers });
    await scorer.handle(incoming(response({ payload: 'garbage' })), context);
    scorer.onAssignment!();
    const [marker] = emitted(await scorer.handle(incoming(runEnd()), context));
    expect(marker!.run_end!.counts.normalize_failures).toBe(0);
  });

  it('with a pool, scores a response prepared ahead once and handles it as it would unprepared; a run end needs no preparing', async () => {
    const pool = createScorePool(1);
    let scored = 0;
    const counting: ScorePool = { ...pool, score: (message) => ((scored += 1), pool.score(message)) };
    try {
      const messages = [response({ payload: FEED }, { name: 'feed_reader' }, 'run-prepared'), response({ payload: FEED, sequence: 1 }, { name: 'feed_reader' }, 'run-prepared'), runEnd('run-prepared', 2)];
      const prepared = createScorer({ parsers, pool: counting });
      messages.forEach((message, offset) => prepared.prepare!(incoming(message, offset)));
      expect(scored).toBe(2);
      const outcomes: Outcome[][] = [];
      for (const [offset, message] of messages.entries()) outcomes.push(await prepared.handle(incoming(message, offset), context));
      expect(scored).toBe(2);
      const unprepared = createScorer({ parsers, pool });
      for (const [offset, message] of messages.entries()) expect(await unprepared.handle(incoming(message, offset), context)).toEqual(outcomes[offset]);
      expect(emitted(outcomes[2]!)[0]!.run_end!.counts.raw_responses).toBe(2);
      // A retried handle (the same message again) scores afresh instead of reusing a spent result.
      await prepared.handle(incoming(messages[0]!), context);
      expect(scored).toBe(3);
    } finally {
      await pool.close();
    }
  });

  it('without a pool there is nothing to start ahead', () => {
    expect(createScorer({ parsers }).prepare).toBeUndefined();
  });
});
