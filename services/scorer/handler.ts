/**
 * scorer: raw-results → scored-results. Each provider response becomes one scored item message per
 * result (dropped ones too, with their verdict and reasons, so every drop is auditable); the run-end
 * marker is forwarded with the scorer's counts. A response that cannot be normalized is
 * dead-lettered with NORMALIZE_FAILED and the run still closes.
 */
import { isSkryaError } from '../../runtime/errors.ts';
import { topicKey } from '../../runtime/ids.ts';
import { deadLetter, emit, type Handler, type Outcome } from '../../runtime/runner.ts';
import type { RunCounts } from '../../schemas/messages.ts';
import { builtinParsers, normalizeResponse, type ResponseParser } from './normalize-response.ts';
import { scoreResults } from './score-results.ts';

const emptyCounts = (): RunCounts => ({ raw_responses: 0, raw_items: 0, accepted: 0, downweighted: 0, quarantined: 0, dropped: 0, normalize_failures: 0 });

const COUNTER: Record<string, keyof RunCounts> = { ACCEPTED: 'accepted', DOWNWEIGHTED: 'downweighted', QUARANTINED: 'quarantined', DROPPED: 'dropped' };

export function createScorer(options: { parsers?: ReadonlyMap<string, ResponseParser> } = {}): Handler<'raw-results'> {
  const parsers = options.parsers ?? builtinParsers();
  // Per-run counts for the marker. In memory: after a rebalance mid-run they restart, and the
  // collector counts the items it receives itself, so only normalize_failures can be short.
  const tallies = new Map<string, { counts: RunCounts; itemMessages: number }>();

  return {
    input: 'raw-results',
    onAssignment: () => tallies.clear(),
    handle({ value }): Outcome[] {
      const key = topicKey({ tenant: value.tenant, topicId: value.topic_id });
      const runKey = `${key}/${value.run_id}`;
      const tally = tallies.get(runKey) ?? { counts: emptyCounts(), itemMessages: 0 };
      tallies.set(runKey, tally);
      const scope = { tenant: value.tenant, topic_id: value.topic_id, run_id: value.run_id, request: value.request };

      if (value.kind === 'RUN_END') {
        tallies.delete(runKey);
        const { run_end: end } = value;
        return [emit('scored-results', key, {
          ...scope,
          kind: 'RUN_END',
          producer: value.producer,
          item: null,
          run_end: {
            item_messages: tally.itemMessages,
            counts: { ...tally.counts, raw_responses: end.response_count },
            started_at: end.started_at,
            finished_at: end.finished_at,
            provider_status: end.provider_status,
            degradation_log_json: end.degradation_log_json,
            plan_json: end.plan_json,
          },
        })];
      }

      tally.counts.raw_responses += 1;
      let results;
      try {
        results = normalizeResponse(value, parsers);
      } catch (error) {
        if (!isSkryaError(error) || error.retriable) throw error;
        tally.counts.normalize_failures += 1;
        return [deadLetter(error.code, error.message)];
      }
      const items = scoreResults(value, results);
      tally.counts.raw_items += items.length;
      tally.itemMessages += items.length;
      for (const item of items) tally.counts[COUNTER[item.verdict]!] += 1;
      return items.map((item) => emit('scored-results', key, { ...scope, kind: 'ITEM', producer: value.producer, item, run_end: null }));
    },
  };
}
