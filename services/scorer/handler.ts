/**
 * scorer: raw-results → scored-results. Each provider response becomes one scored item message per
 * result (dropped ones too, with their verdict and reasons, so every drop is auditable); the run-end
 * marker is forwarded with the scorer's counts. A response that cannot be normalized is
 * dead-lettered with NORMALIZE_FAILED and the run still closes.
 */
import { runKey as runKeyOf, scoredRunEnd, topicKeyOf } from '../../domain/run/run.ts';
import { deadLetter, emit, type Handler, type Outcome } from '../../runtime/handler.ts';
import type { RawResult, RunCounts } from '../../schemas/messages.ts';
import { DEFAULT_SCORING_MODEL } from '../../domain/scoring-model/default-model.ts';
import type { ScoringModel } from '../../domain/scoring-model/scoring-model.ts';
import { builtinParsers, type ResponseParser } from './normalize-response.ts';
import type { ScorePool } from './score-pool.ts';
import { createResponseScorer, type ScoredResponse } from './score-response.ts';

const emptyCounts = (): RunCounts => ({ raw_responses: 0, raw_items: 0, accepted: 0, downweighted: 0, quarantined: 0, dropped: 0, normalize_failures: 0 });

const COUNTER: Record<string, keyof RunCounts> = { ACCEPTED: 'accepted', DOWNWEIGHTED: 'downweighted', QUARANTINED: 'quarantined', DROPPED: 'dropped' };

/**
 * With a pool, responses are scored in its worker threads with the pool's model (handle returns a
 * promise); without one, on the event loop with `model` (handle returns the outcomes directly, as
 * replays and tests use it). The model defaults to the shipped one.
 */
export function createScorer(options: { parsers?: ReadonlyMap<string, ResponseParser>; pool?: ScorePool; model?: ScoringModel } = {}): Handler<'raw-results'> {
  const { pool } = options;
  const model = options.model ?? pool?.model ?? DEFAULT_SCORING_MODEL;
  if (pool && pool.model.tag !== model.tag) throw new Error(`the scoring pool scores with ${pool.model.tag}, the scorer was asked for ${model.tag}`);
  const scoreResponse = createResponseScorer({ parsers: options.parsers ?? builtinParsers(), model });
  // Per-run counts for the marker. In memory: after a rebalance mid-run they restart, and the
  // collector counts the items it receives itself, so only normalize_failures can be short.
  const tallies = new Map<string, { counts: RunCounts; itemMessages: number }>();

  function tallyOf(runKey: string) {
    const tally = tallies.get(runKey) ?? { counts: emptyCounts(), itemMessages: 0 };
    tallies.set(runKey, tally);
    return tally;
  }

  function runEnd(value: Extract<RawResult, { kind: 'RUN_END' }>, key: string, runKey: string): Outcome[] {
    const tally = tallyOf(runKey);
    tallies.delete(runKey);
    return [emit('scored-results', key, scoredRunEnd(value, tally))];
  }

  function scored(value: Extract<RawResult, { kind: 'RESPONSE' }>, key: string, runKey: string, response: ScoredResponse): Outcome[] {
    const tally = tallyOf(runKey);
    tally.counts.raw_responses += 1;
    if (response.kind === 'normalize-failed') {
      tally.counts.normalize_failures += 1;
      return [deadLetter(response.code, response.message)];
    }
    const { items } = response;
    tally.counts.raw_items += items.length;
    tally.itemMessages += items.length;
    for (const item of items) tally.counts[COUNTER[item.verdict]!] += 1;
    const scope = { tenant: value.tenant, topic_id: value.topic_id, run_id: value.run_id, request: value.request };
    return items.map((item) => emit('scored-results', key, { ...scope, kind: 'ITEM', producer: value.producer, item, run_end: null }));
  }

  // Responses the pool started scoring before their turn (prepare), by the decoded value that
  // handle gets again; one prepared and never handled is let go with its value.
  const started = new WeakMap<RawResult, Promise<ScoredResponse>>();

  return {
    input: 'raw-results',
    onAssignment: () => tallies.clear(),
    ...(pool && {
      prepare({ value }) {
        if (value.kind !== 'RESPONSE' || started.has(value)) return;
        const scoring = pool.score(value);
        // A failure reaches handle when the response's turn comes; one never handled must not end the process.
        scoring.catch(() => {});
        started.set(value, scoring);
      },
    }),
    handle({ value }) {
      const key = topicKeyOf(value);
      const runKey = runKeyOf(value);
      if (value.kind === 'RUN_END') return runEnd(value, key, runKey);
      if (!pool) return scored(value, key, runKey, scoreResponse(value));
      const scoring = started.get(value) ?? pool.score(value);
      // Taken once: a retried handle scores afresh.
      started.delete(value);
      return scoring.then((response) => scored(value, key, runKey, response));
    },
  };
}
