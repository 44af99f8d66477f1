/**
 * A shard's new owner fences the producer of its previous owner before it reads the shard's state.
 * The previous owner here is a transactional producer of the shard standing in for a monitor
 * process: one killed with its transaction open (the new owner aborts it and still loads, though
 * the shard's state partition then ends in an aborted transaction), and one that has not yet heard
 * of the rebalance and writes after the new owner loaded (refused: had it committed, the new owner
 * would fire its topics a second time, as the kill test once saw).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Producer, Transaction } from 'kafkajs';
import { parseRunId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';
import { PRODUCER_CONFIG } from '../../runtime/publishers.ts';
import { shardOfKey, type ShardOwners } from '../../runtime/shard-owners.ts';
import { readCompactedTopic } from '../../runtime/topic-readers.ts';
import type { MonitorState } from '../../schemas/messages.ts';
import { MONITOR_SHARDS, physicalTopic, shardTransactionalId } from '../../topics/topics.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness('shard-fencing');
});

afterAll(async () => {
  await harness?.close();
});

function stateOf(topicId: string, runId: string): MonitorState {
  return { tenant: parseTenantId('tenant-fence'), topic_id: parseTopicId(topicId), last_run_id: parseRunId(runId), last_window_since: '2026-12-01T00:00:00.000Z', last_window_until: '2026-12-02T00:00:00.000Z', fired_at: '2026-12-02T00:00:00.000Z' };
}

/** A transaction of the shard's previous owner (of `service`'s group), begun before the new owner starts. */
async function previousOwner(service: string, shard: number): Promise<{ producer: Producer; transaction: Transaction }> {
  const { kafka, port } = harness.pipeline;
  const producer = kafka.producer({ ...PRODUCER_CONFIG, transactionalId: shardTransactionalId(port.naming, service, shard) });
  await producer.connect();
  return { producer, transaction: await producer.transaction() };
}

async function writeState(transaction: Transaction, key: string, state: MonitorState): Promise<void> {
  const { port } = harness.pipeline;
  await transaction.send({ topic: physicalTopic(port.naming, 'monitor-state'), messages: [{ key, value: await port.serde.encode('monitor-state', state) }] });
}

/** The new owner: the only member of `service`'s group, so it owns every shard; resolves once they are loaded. */
async function newOwner(service: string, loaded: Map<number, Map<string, MonitorState>>): Promise<ShardOwners> {
  const { pipeline } = harness;
  const owners = await pipeline.port.shardOwners({
    logger: pipeline.logger,
    service,
    configTopic: 'topic-configs',
    stateTopic: 'monitor-state',
    handlers: { onAssignment: () => {}, onConfig: () => {}, onShardLoaded: (shard, state) => loaded.set(shard, state) },
  });
  await owners.ready;
  return owners;
}

const FENCED = { type: expect.stringMatching(/^(PRODUCER_FENCED|INVALID_PRODUCER_EPOCH)$/) };

describe('a shard handed to a new owner', () => {
  it('aborts the transaction its previous owner left open, and loads without it', async () => {
    const key = 'tenant-fence/topic-killed';
    const shard = shardOfKey(key, MONITOR_SHARDS);
    const previous = await previousOwner('fence-killed', shard);
    let owners: ShardOwners | undefined;
    try {
      await writeState(previous.transaction, key, stateOf('topic-killed', 'run-killed'));
      const loaded = new Map<number, Map<string, MonitorState>>();
      owners = await newOwner('fence-killed', loaded);
      expect(loaded.get(shard)?.has(key)).toBe(false);
      await expect(previous.transaction.commit()).rejects.toMatchObject(FENCED);
      // The shard's state partition now ends in the aborted transaction: a reader still reaches its end.
      const { kafka, port } = harness.pipeline;
      expect((await readCompactedTopic({ kafka, serde: port.serde, naming: port.naming, topic: 'monitor-state' })).has(key)).toBe(false);
    } finally {
      await owners?.stop();
      await previous.producer.disconnect();
    }
  });

  it('refuses a transaction of its previous owner written after it loaded, and its own goes through', async () => {
    const { kafka, port } = harness.pipeline;
    const key = 'tenant-fence/topic-late';
    const shard = shardOfKey(key, MONITOR_SHARDS);
    const previous = await previousOwner('fence-late', shard);
    let owners: ShardOwners | undefined;
    try {
      const loaded = new Map<number, Map<string, MonitorState>>();
      owners = await newOwner('fence-late', loaded);
      expect(loaded.get(shard)?.has(key)).toBe(false);

      const late = writeState(previous.transaction, key, stateOf('topic-late', 'run-late')).then(() => previous.transaction.commit());
      await expect(late).rejects.toMatchObject(FENCED);

      await owners.publish(shard, [{ topic: 'monitor-state', key, value: stateOf('topic-late', 'run-owner') }]);
      // A reader sees a transaction once the broker has written its commit marker, which it does after
      // the commit returns: read until the owner's state shows, as any later reader will see it.
      const committed = await waitUntil('the owner\'s committed state to be readable', async () => {
        const state = await readCompactedTopic({ kafka, serde: port.serde, naming: port.naming, topic: 'monitor-state' });
        return state.has(key) ? state : null;
      }, 60_000);
      expect(committed.get(key)?.last_run_id).toBe('run-owner');
    } finally {
      await owners?.stop();
      await previous.producer.disconnect();
    }
  });
});
