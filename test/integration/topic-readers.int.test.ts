/**
 * Reading fixed offset ranges with a throwaway group: the idle limit measures waiting on the
 * broker, not the reader's own work, so a slow consumer of the records is not taken for an outage.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRODUCER_CONFIG } from '../../runtime/publishers.ts';
import { readOffsetRanges, wholeTopicRanges } from '../../runtime/topic-readers.ts';
import { physicalTopic } from '../../topics/topics.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';

let harness: Harness;

beforeAll(async () => {
  harness = await createHarness('topic-readers');
});

afterAll(async () => {
  await harness?.close();
});

describe('reading offset ranges', () => {
  it('does not fail as idle while a record takes longer to handle than the idle limit', async () => {
    const { kafka, port } = harness.pipeline;
    const topic = physicalTopic(port.naming, 'dead-letters');
    const producer = kafka.producer(PRODUCER_CONFIG);
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ key: 'a', value: 'only' }] });
    await producer.disconnect();

    // Long enough for the group join on a loaded machine (the limit runs from the subscription).
    const idleTimeoutMs = 4_000;
    const handled: string[] = [];
    await readOffsetRanges({
      kafka,
      naming: port.naming,
      topic,
      ranges: await wholeTopicRanges(kafka, topic),
      purpose: 'idle-test',
      idleTimeoutMs,
      onRecord: async (record) => {
        // Longer than the idle limit: a limit running during this would end the read with BROKER_UNAVAILABLE.
        await sleep(idleTimeoutMs + 1_000);
        handled.push(record.value!.toString('utf8'));
      },
    });
    expect(handled).toEqual(['only']);
  });
});
