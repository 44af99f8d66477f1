/**
 * The limit: a bare kafkajs consume→produce loop over the same messages, shaped like the runner
 * (same consumer settings, same producer settings, 3 partitions at a time, a flush every 500
 * records, commit after the acknowledgement) but without decoding, handling or encoding.
 * What a stage reaches as a share of this is what its own work costs. kafkajs here is the stages'
 * kafkajs, with Skrya's replacements (runtime/kafkajs-replacements.ts).
 */
import { randomBytes } from 'node:crypto';
import type { EachBatchPayload, Message } from 'kafkajs';
import { PRODUCER_CONFIG } from '../runtime/publishers.ts';
import { flowRate, topicCount, watchOutput, type BenchContext, type FlowRate } from './kafka-bench.ts';

const FLUSH_EVERY = 500;

export async function runPassthrough(context: BenchContext, options: { inputTopic: string; outputTopic: string; inputs: number; timeoutMs: number }): Promise<FlowRate> {
  const { kafka } = context.pipeline;
  const producer = kafka.producer(PRODUCER_CONFIG);
  const consumer = kafka.consumer({
    groupId: `${context.label}-passthrough-${randomBytes(4).toString('hex')}`,
    sessionTimeout: 45_000,
    rebalanceTimeout: 60_000,
    heartbeatInterval: 3_000,
    allowAutoTopicCreation: false,
    maxBytes: 32 * 1024 * 1024,
    maxBytesPerPartition: 16 * 1024 * 1024,
  });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await producer.connect();
  await consumer.connect();
  await consumer.subscribe({ topic: options.inputTopic, fromBeginning: true });
  const baseline = await topicCount(context.admin, options.outputTopic);

  async function eachBatch({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    let pending: Message[] = [];
    let lastProcessed: string | null = null;
    const flushAndCommit = async () => {
      if (pending.length > 0) await producer.sendBatch({ acks: -1, topicMessages: [{ topic: options.outputTopic, messages: pending }] });
      pending = [];
      if (lastProcessed !== null) await consumer.commitOffsets([{ topic: options.inputTopic, partition: batch.partition, offset: (BigInt(lastProcessed) + 1n).toString() }]);
      await heartbeat();
    };
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) break;
      pending.push({ key: message.key, value: message.value, headers: message.headers ?? {} });
      resolveOffset(message.offset);
      lastProcessed = message.offset;
      if (pending.length >= FLUSH_EVERY) await flushAndCommit();
    }
    await flushAndCommit();
  }

  try {
    await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, partitionsConsumedConcurrently: 3, eachBatch });
    const watch = await watchOutput(context.admin, options.outputTopic, { joined, baseline, expected: options.inputs, timeoutMs: options.timeoutMs });
    return flowRate(watch, options.inputs, options.inputs);
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
}
