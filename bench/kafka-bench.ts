/**
 * What the broker benchmarks share: a pipeline under its own topic prefix and temp data root
 * (topics deleted afterwards), encoding and pre-producing messages with the runner's producer
 * settings, and watching an output topic's offsets to time a flow from first to last output.
 */
import type { EventLoopUtilization } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Admin, Kafka } from 'kafkajs';
import { loadConfig } from '../runtime/config.ts';
import { createTopicsServed } from '../runtime/kafka.ts';
import { createLogger } from '../runtime/logger.ts';
import { connectPipeline, type Pipeline } from '../runtime/pipeline.ts';
import { HEADERS } from '../runtime/headers.ts';
import { PRODUCER_CONFIG } from '../runtime/publishers.ts';
import { TOPICS, TOPIC_NAMES, physicalTopic, valueSubject, type TopicName } from '../topics/topics.ts';
import type { z } from 'zod';
import { sleep, startProcessWindow } from './measure.ts';

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

/** `overrides`: settings for this benchmark's pipeline, e.g. SKRYA_TOPIC_PARTITIONS for its topics. */
export async function createBenchContext(label: string, overrides: Record<string, string> = {}): Promise<BenchContext> {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-bench-${label}-`));
  const prefix = `bench.${label}.${randomBytes(4).toString('hex')}.`;
  const config = loadConfig({ ...process.env, SKRYA_TOPIC_PREFIX: prefix, SKRYA_DATA_ROOT: dataRoot, SKRYA_LOG_LEVEL: 'warn', SKRYA_METRICS_PORT: '0', ...overrides });
  const pipeline = await connectPipeline({ config, logger: createLogger({ level: 'warn', name: `bench-${label}` }), clientId: `bench-${label}` });
  const admin = pipeline.kafka.admin();
  await admin.connect();
  return {
    label,
    pipeline,
    dataRoot,
    admin,
    topic: (name) => physicalTopic(pipeline.port.naming, name),
    async createExtraTopic(name, partitions = 6) {
      const topic = `${prefix}${name}`;
      await createTopicsServed(admin, [{ topic, numPartitions: partitions, replicationFactor: 1, configEntries: [{ name: 'max.message.bytes', value: String(16 * 1024 * 1024) }] }]);
      return topic;
    },
    async close() {
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(prefix));
      await admin.deleteTopics({ topics }).catch(() => {});
      await admin.disconnect();
      await deleteSubjects(config.SKRYA_REGISTRY_URL, TOPIC_NAMES.map((name) => valueSubject(pipeline.port.naming, name)));
      fs.rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

/** Removes the subjects a benchmark registered, so repeated runs do not pile up schemas (best effort). */
export async function deleteSubjects(registryUrl: string, subjects: readonly string[]): Promise<void> {
  for (const subject of subjects) {
    for (const query of ['', '?permanent=true']) {
      await fetch(`${registryUrl}/subjects/${encodeURIComponent(subject)}${query}`, { method: 'DELETE' }).catch(() => undefined);
    }
  }
}

export interface EncodedMessage {
  key: string;
  value: Buffer;
  headers: Record<string, string>;
}

/** Avro-encodes messages with the headers the runner puts on every message, as the upstream stage would. */
export async function encodeMessages<T extends TopicName>(context: BenchContext, topic: T, stage: string, messages: ReadonlyArray<{ key: string; value: ValueOf<T> }>): Promise<EncodedMessage[]> {
  const { serde, naming } = context.pipeline.port;
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
  /** performance.now() when the consumer joined its group (consumption starts), and of the last poll. */
  startAt: number;
  lastAt: number;
  count: number;
  timedOut: boolean;
  /** Share of that time this process's event loop was busy: near 1 = CPU-bound here, low = waiting on the broker. */
  busy: number;
  /** CPU seconds this process got per wall second (all its threads): well under `busy` = other processes took the cores. */
  cpuShare: number;
  /** Share of that time each of the stage's worker threads was busy (the scorer's scoring workers; empty without any). */
  workersBusy: number[];
  /** Share of all the machine's cores busy over that time, every process's work (the broker's too): near 1 = the machine had no CPU to spare. */
  machineBusy: number;
  /** First touches of fresh memory by this process over that time (minor page faults), all its threads. */
  pageFaults: number;
}

const POLL_MS = 20;

/**
 * Waits for the consumer to join (`joined`), then polls the topic's high watermarks until
 * `expected` messages beyond `baseline` are there (or the timeout passes). Timing starts at the
 * join, not at the first output: stages flush in bursts of up to 500 records, so a first-to-last
 * output window would leave out the work behind the first burst.
 */
export async function watchOutput(admin: Admin, topic: string, options: { joined: Promise<void>; baseline: number; expected: number; timeoutMs: number; workers?: () => readonly EventLoopUtilization[] }): Promise<FlowWatch> {
  await options.joined;
  const startAt = performance.now();
  const window = startProcessWindow();
  const workersAtStart = options.workers?.() ?? [];
  const faultsAtStart = process.resourceUsage().minorPageFault;
  const deadline = startAt + options.timeoutMs;
  for (;;) {
    const count = (await topicCount(admin, topic)) - options.baseline;
    const now = performance.now();
    if (count >= options.expected || now > deadline) {
      const workersBusy = (options.workers?.() ?? []).map((reading, worker) => performance.eventLoopUtilization(reading, workersAtStart[worker]).utilization);
      return { startAt, lastAt: now, count, timedOut: count < options.expected, ...window.end(), workersBusy, pageFaults: process.resourceUsage().minorPageFault - faultsAtStart };
    }
    await sleep(POLL_MS);
  }
}

export interface FlowRate {
  inputs: number;
  outputs: number;
  /** Seconds from the consumer joining its group to the last output. */
  seconds: number;
  inputsPerSecond: number;
  outputsPerSecond: number;
  timedOut: boolean;
  busy: number;
  cpuShare: number;
  workersBusy: number[];
  machineBusy: number;
  /** Minor page faults of this process over the window, per input message it got through (a timed-out window counts only those). */
  pageFaultsPerInput: number;
}

/** Output rate from join to last output, converted to inputs by the flow's fan-out. */
export function flowRate(watch: FlowWatch, inputs: number, outputs: number): FlowRate {
  const seconds = (watch.lastAt - watch.startAt) / 1000;
  const outputsPerSecond = seconds > 0 ? watch.count / seconds : Number.NaN;
  const inputsPerOutput = inputs / outputs;
  const inputsDone = watch.count * inputsPerOutput;
  return { inputs, outputs, seconds, inputsPerSecond: outputsPerSecond * inputsPerOutput, outputsPerSecond, timedOut: watch.timedOut, busy: watch.busy, cpuShare: watch.cpuShare, workersBusy: watch.workersBusy, machineBusy: watch.machineBusy, pageFaultsPerInput: inputsDone > 0 ? watch.pageFaults / inputsDone : Number.NaN };
}
