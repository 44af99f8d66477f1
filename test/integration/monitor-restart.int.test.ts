/**
 * The monitor's schedule survives restarts: its state lives in the compacted monitor-state topic,
 * written in the same Kafka transaction as each request. A monitor restarted mid-schedule neither
 * fires a window twice nor misses one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import type { RunningStages } from '../../services/run-services.ts';
import { readTopicToEnd } from '../../runtime/topic-readers.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness('monitor-restart');
  // kafka-ops: recency_hours 48, no cadence (daily); rust-async: cron every 6 hours.
  harness.addTopic('acme', 'kafka-ops', 'kafka-ops');
  harness.addTopic('acme', 'rust-async', 'rust-async');
});

afterAll(async () => {
  await harness?.close();
});

async function monitorAt(time: string): Promise<RunningStages> {
  const stages = await harness.start(['monitor'], { clock: () => new Date(time), monitorIntervalMs: 3_600_000 });
  return stages;
}

describe('monitor restarted mid-schedule', () => {
  it('fires each due window exactly once across restarts, with no gap between windows', async () => {
    // First start: both topics have never run, so both fire.
    await (await monitorAt('2026-11-30T06:00:00.000Z')).stop();
    // Restarted 10 minutes later: nothing is due; the state read back from Kafka says so.
    await (await monitorAt('2026-11-30T06:10:00.000Z')).stop();
    // Restarted at 12:05: rust-async's cron (0 */6) is due again; kafka-ops (daily) is not.
    await (await monitorAt('2026-11-30T12:05:00.000Z')).stop();

    const { kafka } = harness.pipeline;
    const { serde, naming } = harness.pipeline.port;
    // The last monitor's transaction is readable once its commit markers are written, a moment
    // after the commit returned: wait for the third window, then hold the topic to exactly three.
    const requests = await waitUntil('the three windows are readable', async () => {
      const fired = (await readTopicToEnd({ kafka, serde, naming, topic: 'retrieval-requests' })).map((message) => message.value);
      return fired.length >= 3 ? fired : null;
    }, 30_000);
    const windows = (topicId: string) => requests.filter((request: RetrievalRequest) => request.topic_id === topicId).map((request) => request.time_window);
    expect(requests).toHaveLength(3);
    expect(windows('kafka-ops')).toEqual([{ since: '2026-11-28T06:00:00.000Z', until: '2026-11-30T06:00:00.000Z' }]);
    expect(windows('rust-async')).toEqual([
      { since: '2026-11-27T06:00:00.000Z', until: '2026-11-30T06:00:00.000Z' },
      { since: '2026-11-30T06:00:00.000Z', until: '2026-11-30T12:05:00.000Z' },
    ]);
    expect(requests.every((request) => request.trigger === 'SCHEDULE')).toBe(true);
    // The same transactions' state records: each partition gets its commit marker on its own.
    const state = await waitUntil('the three states are readable', async () => {
      const records = await readTopicToEnd({ kafka, serde, naming, topic: 'monitor-state' });
      return records.length >= 3 ? records : null;
    }, 30_000);
    // State is sharded by key: order holds per topic (one partition each), not across topics.
    const byTopic = state.map(({ value }) => [value.topic_id, value.last_window_until]).sort(([a], [b]) => a!.localeCompare(b!));
    expect(byTopic).toEqual([
      ['kafka-ops', '2026-11-30T06:00:00.000Z'],
      ['rust-async', '2026-11-30T06:00:00.000Z'],
      ['rust-async', '2026-11-30T12:05:00.000Z'],
    ]);
  });
});
