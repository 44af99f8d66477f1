/**
 * What the broker benchmarks share: a pipeline under its own topic prefix and temp data root
 * (topics deleted afterwards), encoding and pre-producing messages with the runner's producer
 * settings, and watching an output topic's offsets to time a flow from first to last output.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Admin, Kafka } from 'kafkajs';
import { loadConfig } from '../runtime/config.ts';
import { createLogger } from '../runtime/logger.ts';
import { connectPipeline, type Pipeline } from '../runtime/pipeline.ts';
import { HEADERS, PRODUCER_CONFIG } from '../runtime/runner.ts';
import { TOPICS, physicalTopic, valueSubject, type TopicName } from '../topics/topics.ts';
import type { z } from 'zod';
import { sleep } from './measure.ts';

type ValueOf<T extends TopicName> = z.infer<(typeof TOPICS)[T]['contract']>;

export interface BenchContext {
  label: string;
  pipeline: Pipeline;
  dataRoot: string;
  admin: Admin;
  topic(name: TopicName): string;
  /** A 6-partition topic under this prefix for the bare passthrough. */
  createExtraTopic(name: string, partitions?: number): Promise<string>;
  close(): Promise<void>;
}

export async function createBenchContext(label: string): Promise<BenchContext> {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-bench-${label}-`));
  const prefix = `bench.${label}.${randomBytes(4).toString('hex')}.`;
  const config = loadConfig({ ...process.env, SKRYA_TOPIC_PREFIX: prefix, SKRYA_DATA_ROOT: dataRoot, SKRYA_LOG_LEVEL: 'warn', SKRYA_METRICS_PORT: '0' });
  const pipeline = await connectPipeline({ config, logger: createLogger({ level: 'warn', name: `bench-${label}` }), clientId: `bench-${label}` });
  const admin = pipeline.kafka.admin();
  await admin.connect();
  return {
    label,
    pipeline,
    dataRoot,
    admin,
    topic: (name) => physicalTopic(pipeline.naming, name),
    async createExtraTopic(name, partitions = 6) {
      const topic = `${prefix}${name}`;
      await admin.createTopics({ topics: [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: String(16 * 1024 * 1024) }] }], waitForLeaders: true });
      return topic;
    },
    async close() {
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
      await admin.deleteTopics({ topics }).catch(() => {});
      await admin.disconnect();
      fs.rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

export interface EncodedMessage {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/** Avro-encodes messages with the headers the runner puts on every message, as the upstream stage would. */
export async function encodeMessages<T extends TopicName>(context: BenchContext, topic: T, stage: string, messages: ReadonlyArray<{ key: string; value: ValueOf<T> }>): Promise<EncodedMessage[]> {
  const { serde, naming } = context.pipeline;
  const encoded: EncodedMessage[] = [];
  for (const { key, value } of messages) {
    const scope = value as { tenant?: string; topic_id?: string; run_id?: string };
    encoded.push({
      key,
      value: await serde.encode(topic, value),
      headers: {
        [HEADERS.traceId]: randomUUID(),
        [HEADERS.stage]: stage,
        [HEADERS.subject]: valueSubject(naming, topic),
        [HEADERS.schemaId]: String(serde.schemaId(topic)),
        ...(scope.tenant ? { [HEADERS.tenant]: scope.tenant } : {}),
        ...(scope.topic_id ? { [HEADERS.topicId]: scope.topic_id } : {}),
        ...(scope.run_id ? { [HEADERS.runId]: scope.run_id } : {}),
      },
    });
  }
  return encoded;
}

/** Produces with the runner's settings (idempotent, acks=-1), `chunk` messages a request. */
export async function produceAll(kafka: Kafka, topic: string, messages: readonly EncodedMessage[], chunk = 500): Promise<void> {
  const producer = kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  try {
    for (let start = 0; start < messages.length; start += chunk) {
      await producer.send({ topic, acks: -1, messages: messages.slice(start, start + chunk) });
    }
  } finally {
    await producer.disconnect();
  }
}

export async function topicCount(admin: Admin, topic: string): Promise<number> {
  const offsets = await admin.fetchTopicOffsets(topic);
  return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
}

export interface FlowWatch {
  /** performance.now() of the first poll that saw new output, and how many were there then. */
  firstAt: number;
  firstCount: number;
  lastAt: number;
  count: number;
  timedOut: boolean;
  /** Share of that time this process's event loop was busy: near 1 = CPU-bound here, low = waiting on the broker. */
  busy: number;
}

const POLL_MS = 20;

/**
 * Polls the topic's high watermarks until `expected` messages beyond `baseline` are there (or the
 * timeout passes). The rate is taken between the first poll that saw output and the last, so
 * group join and connection set-up are not counted.
 */
export async function watchOutput(admin: Admin, topic: string, options: { baseline: number; expected: number; timeoutMs: number }): Promise<FlowWatch> {
  const deadline = performance.now() + options.timeoutMs;
  let firstAt = Number.NaN;
  let firstCount = 0;
  let firstLoop = performance.eventLoopUtilization();
  for (;;) {
    const count = (await topicCount(admin, topic)) - options.baseline;
    const now = performance.now();
    if (count > 0 && Number.isNaN(firstAt)) {
      firstAt = now;
      firstCount = count;
      firstLoop = performance.eventLoopUtilization();
    }
    const timedOut = now > deadline;
    if (count >= options.expected || timedOut) {
      return { firstAt, firstCount, lastAt: now, count, timedOut: count < options.expected, busy: performance.eventLoopUtilization(firstLoop).utilization };
    }
    await sleep(POLL_MS);
  }
}

export interface FlowRate {
  inputs: number;
  outputs: number;
  /** Seconds between the first and the last output seen. */
  seconds: number;
  inputsPerSecond: number;
  outputsPerSecond: number;
  timedOut: boolean;
  busy: number;
}

/** Output rate between first and last output, converted to inputs by the flow's fan-out. */
export function flowRate(watch: FlowWatch, inputs: number, outputs: number): FlowRate {
  const seconds = (watch.lastAt - watch.firstAt) / 1000;
  const outputsPerSecond = seconds > 0 ? (watch.count - watch.firstCount) / seconds : Number.NaN;
  return { inputs, outputs, seconds, inputsPerSecond: outputsPerSecond * (inputs / outputs), outputsPerSecond, timedOut: watch.timedOut, busy: watch.busy };
}
