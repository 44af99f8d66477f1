/**
 * Infrastructure outages, on a private stack (its own ports and state folder; the shared stack is
 * never touched): the broker stopped and restarted while runs are half-way through the pipeline, and
 * the registry down for 30 s while messages written with a schema version the stages have never seen
 * arrive and a stage is restarted. The stages wait and recover on their own (no service process
 * exits), and afterwards every run's file holds each of its items exactly once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SchemaType, SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStackComponent, stopStackComponent } from '../../infra/local-stack.ts';
import type { Pipeline } from '../../runtime/pipeline.ts';
import { SUBJECT_COMPATIBILITY } from '../../runtime/serde.ts';
import { createPublisher, type Publisher } from '../../runtime/publishers.ts';
import { TOPICS, physicalTopic, valueSubject } from '../../topics/topics.ts';
import { FILE_PATH_STAGES } from '../support/fault-campaign.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { startPrivateStack, type PrivateStack } from '../support/fault-stack.ts';
import { groupLag, judgeWorkload, planWorkload, publishStep, publishingSteps, topicSize, type PlannedRun } from '../support/fault-workload.ts';

const BROKER_OUTAGE_MS = 15_000;
const report = (line: string) => process.stderr.write(`[fault-outage] ${line}\n`);
let stack: PrivateStack;

beforeAll(async () => {
  const started = Date.now();
  stack = await startPrivateStack(report);
  report(`private stack up on ${stack.brokers} and ${stack.registryUrl} in ${Date.now() - started} ms`);
}, 240_000);

afterAll(async () => {
  await stack?.down();
});

interface Scene {
  pipeline: Pipeline;
  runs: PlannedRun[];
  services: Map<string, ServiceProcess>;
  publisher: Publisher;
  logDir: string;
  spawn(service: string): ServiceProcess;
  /** Every stage has committed its whole input (checked in pipeline order); fails if a service exited. */
  settle(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

async function scene(label: string): Promise<Scene> {
  const { pipeline, dataRoot, close } = await stack.connect(label);
  const logDir = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-${label}-logs-`));
  // A 10 s session: longer than a registry retry's pause (5 s at most) plus the attempt, shorter than the broker outage.
  const env = serviceEnv({ brokers: stack.brokers, registryUrl: stack.registryUrl, prefix: pipeline.config.SKRYA_TOPIC_PREFIX, dataRoot }, { SKRYA_CONSUMER_SESSION_TIMEOUT_MS: '10000' });
  const spawn = (service: string) => spawnService(service, { env, logDir, readyTimeoutMs: 120_000 });
  const services = new Map(FILE_PATH_STAGES.map(({ service }) => [service, spawn(service)]));
  const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'fault-test' });
  await Promise.all([...services.values()].map((service) => service.ready));
  const runs = planWorkload({ tenant: 'acme', topics: 4, runsPerTopic: 5, responsesPerRun: 2, itemsPerResponse: 5, label });
  return {
    pipeline,
    runs,
    services,
    publisher,
    logDir,
    spawn,
    async settle(timeoutMs) {
      const admin = pipeline.kafka.admin();
      await admin.connect();
      try {
        await waitUntil('every stage to commit its whole input', async () => {
          for (const { service, input } of FILE_PATH_STAGES) if ((await groupLag(admin, pipeline.port.naming, service, input)) !== 0) return false;
          return true;
        }, timeoutMs, { intervalMs: 500, failIf: () => anyExited(services.values()) });
      } finally {
        await admin.disconnect();
      }
    },
    async close() {
      await Promise.all([...services.values()].map((service) => service.kill()));
      await publisher.close();
      await close();
    },
  };
}

async function stopAll(services: Map<string, ServiceProcess>): Promise<Record<string, number | string>> {
  const codes: Record<string, number | string> = {};
  for (const [service, process] of services) codes[service] = await process.stop();
  return codes;
}

async function expectEveryItemExactlyOnce(current: Scene): Promise<void> {
  const admin = current.pipeline.kafka.admin();
  await admin.connect();
  try {
    // Waiting out an outage is never a reason to dead-letter.
    expect(await topicSize(admin, current.pipeline.port.naming, 'dead-letters')).toBe(0);
  } finally {
    await admin.disconnect();
  }
  const verdict = judgeWorkload(path.resolve(current.pipeline.config.SKRYA_DATA_ROOT), current.runs);
  expect(verdict.missingRuns).toEqual([]);
  expect(verdict.wrongRuns).toEqual([]);
  expect(verdict.strayFiles).toEqual([]);
  expect(verdict).toMatchObject({ runs: current.runs.length, exact: current.runs.length, lostItems: 0, duplicatedItems: 0 });
}

/**
 * Runs an outage (which publishes the whole workload around it) on a fresh scene, then expects
 * every stage to catch up, every item to land exactly once and every service to exit cleanly.
 * The service logs are kept, and named in the error, only when something fails.
 */
async function expectRecovery(label: string, outage: (current: Scene) => Promise<void>): Promise<void> {
  const current = await scene(label);
  try {
    await outage(current);
    await current.settle(120_000);
    await expectEveryItemExactlyOnce(current);
    expect(await stopAll(current.services)).toEqual({ scorer: 0, collector: 0, sink: 0 });
    fs.rmSync(current.logDir, { recursive: true, force: true });
  } catch (error) {
    throw new Error(`service logs in ${current.logDir}: ${String(error)}`, { cause: error });
  } finally {
    await current.close();
  }
}

describe('the broker stopped and restarted mid-run', () => {
  it('the stages wait for it, recover, and every item lands exactly once', () => expectRecovery('fault-broker', async (current) => {
    const steps = publishingSteps(current.runs);
    const half = Math.floor(steps.length / 2);
    for (const step of steps.slice(0, half)) await publishStep(current.publisher, step);

    // Mid-run: every topic has a run whose items are published and whose end marker is not.
    const logged = new Map([...current.services].map(([service, process]) => [service, process.log().length]));
    const stoppedAt = Date.now();
    await stopStackComponent(stack.settings, 'kafka');
    // Down until every stage has noticed (kafkajs logs the refused connection), bounded.
    await waitUntil('every stage to notice the broker is gone', async () => [...current.services].every(([service, process]) => process.log().slice(logged.get(service)).includes('ECONNREFUSED')), 60_000, { failIf: () => anyExited(current.services.values()) });
    // And for BROKER_OUTAGE_MS in all, longer than the group session (6 s): the group forgets the
    // members, which must re-join rather than crash. An outage's length, not a wait for a condition.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, BROKER_OUTAGE_MS - (Date.now() - stoppedAt))));
    await startStackComponent(stack.settings, 'kafka');
    report(`broker down for ${Date.now() - stoppedAt} ms`);

    for (const step of steps.slice(half)) await publishStep(current.publisher, step);
  }), 240_000);
});

describe('the registry down for 30 s', () => {
  it('a stage meeting an unseen schema id waits for it, a stage restarted meanwhile waits to start, and nothing is lost', () => expectRecovery('fault-registry', async (current) => {
    const { pipeline } = current;
    const steps = publishingSteps(current.runs);
    const third = Math.floor(steps.length / 3);
    for (const step of steps.slice(0, third)) await publishStep(current.publisher, step);

    // A compatible second version of raw-results, registered now: the stages have never seen its id.
    const registry = new SchemaRegistry({ host: stack.registryUrl });
    const v1 = TOPICS['raw-results'].avro as { fields: object[] };
    const v2 = { ...v1, fields: [...v1.fields, { name: 'fault_note', type: ['null', 'string'], default: null }] };
    const { id: v2Id } = await registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(v2) }, { subject: valueSubject(pipeline.port.naming, 'raw-results'), compatibility: SUBJECT_COMPATIBILITY as never });
    expect(v2Id).not.toBe(pipeline.port.serde.schemaId('raw-results'));
    const producer = pipeline.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();

    const stoppedAt = Date.now();
    await stopStackComponent(stack.settings, 'registry');
    // While it is down: the next third written with v2 (the scorer must look its id up), and the
    // collector killed and restarted (it must register its schemas before it can start).
    for (const step of steps.slice(third, 2 * third)) {
      await producer.send({
        topic: physicalTopic(pipeline.port.naming, 'raw-results'),
        acks: -1,
        messages: await Promise.all(step.map(async ({ key, message }) => ({ key, value: await registry.encode(v2Id, { ...message, fault_note: 'written with v2' }) }))),
      });
    }
    await current.services.get('collector')!.kill();
    current.services.set('collector', current.spawn('collector'));
    await waitUntil('the scorer to retry the unknown schema id', async () => current.services.get('scorer')!.log().includes('"code":"REGISTRY_UNAVAILABLE"'), 30_000, { failIf: () => anyExited(current.services.values()) });

    // Deliberately down for 30 s in all (an outage's length, not a wait for a condition).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - stoppedAt))));
    expect(anyExited(current.services.values())).toBeNull();
    await startStackComponent(stack.settings, 'registry');
    report(`registry unavailable for ${Date.now() - stoppedAt} ms`);

    await producer.disconnect();
    for (const step of steps.slice(2 * third)) await publishStep(current.publisher, step);
  }), 240_000);
});
