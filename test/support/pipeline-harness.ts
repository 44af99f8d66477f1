/**
 * Runs pipeline stages in this process against the real broker and registry, each harness with its
 * own topic prefix and data root, and waits for files instead of sleeping.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { copyTopicFolder } from '../../cli/commands/topic.ts';
import { ingestDir, topicDir } from '../../runtime/data-paths.ts';
import { parseTenantId, parseTopicId, topicKey, type TopicRef } from '../../runtime/ids.ts';
import { createLogger } from '../../runtime/logger.ts';
import { connectPipeline, type Pipeline } from '../../runtime/pipeline.ts';
import { createPublisher, type Publisher } from '../../runtime/publishers.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { buildRetrievalRequest } from '../../services/monitor/build-request.ts';
import { loadSourcesFile } from '../../services/monitor/sources-file.ts';
import { runStages, type RunStagesOptions, type RunningStages, type ServiceName } from '../../services/run-services.ts';
import { physicalTopic, type TopicName } from '../../topics/topics.ts';
import { TEST_REGISTRY_WAIT_MS, readMessages, testConfig } from './kafka-context.ts';

export const FIXTURE_TOPICS = path.resolve('test/fixtures/topics');
const CLI = fileURLToPath(new URL('../../bin/skrya.js', import.meta.url));

export interface Harness {
  pipeline: Pipeline;
  dataRoot: string;
  publisher: Publisher;
  start(stages: readonly ServiceName[], options?: RunStagesOptions): Promise<RunningStages>;
  addTopic(tenant: string, topicId: string, fixture: string): void;
  /** The request the monitor would build for a topic's sources.json over the window, not yet published. */
  buildRequest(tenant: string, topicId: string, window?: { since: string; until: string }): RetrievalRequest;
  request(tenant: string, topicId: string, window?: { since: string; until: string }): Promise<RetrievalRequest>;
  latest(tenant: string, topicId: string): string;
  close(): Promise<void>;
}

export async function waitFor<T>(what: string, probe: () => T | null | undefined | false, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** latest-ingest.json of a topic once it holds the given run (or any run), parsed. */
export function readLatestIfRun(file: string, runId?: string): { run_id: string; items: Array<Record<string, unknown>>; stats: Record<string, unknown> } | null {
  try {
    const document = JSON.parse(fs.readFileSync(file, 'utf8')) as { run_id: string; items: Array<Record<string, unknown>>; stats: Record<string, unknown> };
    return runId === undefined || document.run_id === runId ? document : null;
  } catch {
    return null;
  }
}

/** Logs at the config's SKRYA_LOG_LEVEL (warn unless overridden), to stderr or to `logDestination` for a test that reads the log. */
export async function createHarness(label: string, overrides: Record<string, string> = {}, providerEnv: Record<string, string> = {}, logDestination?: NodeJS.WritableStream): Promise<Harness> {
  const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-${label}-`));
  const config = testConfig({ SKRYA_TOPIC_PREFIX: `t.${label}.${randomBytes(4).toString('hex')}.`, SKRYA_DATA_ROOT: dataRoot, SKRYA_RUN_TIMEOUT_MS: '20000', ...overrides });
  const logger = createLogger({ level: config.SKRYA_LOG_LEVEL, name: label, destination: logDestination });
  const pipeline = await connectPipeline({ config, logger, clientId: `test-${label}`, providerEnv, registryWaitMs: TEST_REGISTRY_WAIT_MS });
  const publisher = await createPublisher({ kafka: pipeline.kafka, serde: pipeline.port.serde, naming: pipeline.port.naming, stage: 'test' });
  const running: RunningStages[] = [];
  // Tests name topics with plain strings; they are parsed here, as the CLI parses its options.
  const refOf = (tenant: string, topicId: string): TopicRef => ({ tenant: parseTenantId(tenant), topicId: parseTopicId(topicId) });
  const buildRequest: Harness['buildRequest'] = (tenant, topicId, window = { since: '2026-10-01T00:00:00Z', until: '2026-11-30T00:00:00Z' }) => {
    const ref = refOf(tenant, topicId);
    const topic = loadSourcesFile(path.join(topicDir(dataRoot, ref.tenant, ref.topicId), 'sources.json'));
    return buildRetrievalRequest({ ...ref, topic, now: new Date(window.until), trigger: 'CLI', ...window });
  };
  return {
    pipeline,
    dataRoot,
    publisher,
    async start(stages, options = {}) {
      const stagesRunning = await runStages(pipeline, stages, options);
      running.push(stagesRunning);
      return stagesRunning;
    },
    addTopic(tenant, topicId, fixture) {
      const ref = refOf(tenant, topicId);
      copyTopicFolder(path.join(FIXTURE_TOPICS, fixture), topicDir(dataRoot, ref.tenant, ref.topicId));
    },
    buildRequest,
    async request(tenant, topicId, window) {
      const request = buildRequest(tenant, topicId, window);
      await publisher.publish('retrieval-requests', topicKey(refOf(tenant, topicId)), request);
      return request;
    },
    latest: (tenant, topicId) => {
      const ref = refOf(tenant, topicId);
      return path.join(ingestDir(dataRoot, ref.tenant, ref.topicId), 'latest-ingest.json');
    },
    async close() {
      for (const stages of running) await stages.stop();
      await publisher.close();
      const admin = pipeline.kafka.admin();
      await admin.connect();
      const topics = (await admin.listTopics()).filter((topic) => topic.startsWith(pipeline.config.SKRYA_TOPIC_PREFIX));
      await admin.deleteTopics({ topics }).catch(() => {});
      await admin.disconnect();
      fs.rmSync(dataRoot, { recursive: true, force: true });
    },
  };
}

/** Every message currently on one of a harness's topics (reads until `count`). */
export function readTopic(harness: Harness, topic: TopicName, count: number, timeoutMs?: number) {
  return readMessages(harness.pipeline.kafka, physicalTopic(harness.pipeline.port.naming, topic), count, timeoutMs);
}

/** `skrya <args>` as a child process, on the harness's broker, registry, topic prefix and data root. */
export function runCli(harness: Harness, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    ...process.env,
    SKRYA_KAFKA_BROKERS: inject('kafkaBrokers'),
    SKRYA_REGISTRY_URL: inject('registryUrl'),
    SKRYA_TOPIC_PREFIX: harness.pipeline.config.SKRYA_TOPIC_PREFIX,
    SKRYA_DATA_ROOT: harness.dataRoot,
    SKRYA_LOG_LEVEL: 'error',
  };
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }));
  });
}

/** Files under a folder, relative, sorted. */
export function listFiles(root: string): string[] {
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true, withFileTypes: true }) as fs.Dirent[])
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}
