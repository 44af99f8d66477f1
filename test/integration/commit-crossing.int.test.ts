/**
 * Commits that cross, against the real broker. The collector commits from two places: after each
 * batch, and after each tick (which plans every partition's commit, then sends them one by one).
 * A batch can commit a partition further while the tick's older commit for it is still to be
 * sent; the broker then applies the older one last and keeps it. The offset tracker takes the last
 * acknowledgement as what the broker holds, so the newer offset is sent again and the group ends
 * at the end of its input when idle (before, the collector's group stayed 1-19 messages behind).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handler } from '../../runtime/handler.ts';
import { startService, type RunningService } from '../../runtime/runner.ts';
import { consumerGroup, physicalTopic } from '../../topics/topics.ts';
import { retrievalRequestFixture } from '../fixtures/messages.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { createKafkaTestContext, type KafkaTestContext } from '../support/kafka-context.ts';

let context: KafkaTestContext;
let service: RunningService | undefined;

beforeAll(async () => {
  context = await createKafkaTestContext('crossing', ['retrieval-requests', 'dead-letters']);
});

afterAll(async () => {
  await service?.stop();
  await context?.close();
});

/** Input not yet committed by a service's group on retrieval-requests, every partition. */
async function uncommitted(service: string): Promise<number> {
  const topic = physicalTopic(context.naming, 'retrieval-requests');
  const [committed] = await context.admin.fetchOffsets({ groupId: consumerGroup(context.naming, service), topics: [topic] });
  const ends = await context.admin.fetchTopicOffsets(topic);
  return ends.reduce((sum, end) => {
    const done = BigInt(committed!.partitions.find((entry) => entry.partition === end.partition)?.offset ?? '-1');
    return sum + Number(BigInt(end.high) - (done < 0n ? BigInt(end.low) : done));
  }, 0);
}

describe('commits that cross', () => {
  it('the broker keeps the commit it applied last, even one behind an earlier (why the tracker trusts the last acknowledgement)', async () => {
    const groupId = consumerGroup(context.naming, 'premise');
    const topic = physicalTopic(context.naming, 'retrieval-requests');
    await context.admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '9' }] });
    await context.admin.setOffsets({ groupId, topic, partitions: [{ partition: 0, offset: '5' }] });
    const [committed] = await context.admin.fetchOffsets({ groupId, topics: [topic] });
    expect(committed!.partitions.find((entry) => entry.partition === 0)?.offset).toBe('5');
  });

  it('a service whose batches and ticks commit the same partitions at once ends with every input committed', async () => {
    const handler: Handler<'retrieval-requests'> = { input: 'retrieval-requests', handle: () => [], tick: () => [] };
    service = await startService({ service: 'crossing', kafka: context.kafka, serde: context.serde, naming: context.naming, logger: context.logger, handler, tickIntervalMs: 5 });
    await service.ready;
    const producer = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const value = await context.serde.encode('retrieval-requests', retrievalRequestFixture());
    for (let round = 0; round < 40; round++) {
      const messages = Array.from({ length: 60 }, (_unused, index) => ({ key: 'acme/ai-browser', partition: index % 6, value }));
      await producer.send({ topic: physicalTopic(context.naming, 'retrieval-requests'), acks: -1, messages });
    }
    await producer.disconnect();
    let left = -1;
    await waitUntil('every input committed once idle', async () => (left = await uncommitted('crossing')) === 0, 120_000, { intervalMs: 500 }).catch((error: unknown) => {
      throw new Error(`${String(error)}; ${left} inputs left uncommitted`, { cause: error });
    });
  }, 240_000);
});
