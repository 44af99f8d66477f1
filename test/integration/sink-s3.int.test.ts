/**
 * The sink's files in an S3-compatible bucket (runtime/sink-store.ts), against a local S3Mock
 * (infra/s3-mock.ts) and the real Kafka stack: two sink processes (batch and raw sinks each) write
 * one tenant's tree into one bucket under a prefix; one is SIGKILLed mid-stream and the other takes
 * over; every run file is whole and exactly once. Then the bucket becomes unreachable (the sinks
 * reach it through a proxy the test closes): the sink says why, commits nothing, and once the bucket
 * is back every run lands exactly. A sink given a bucket that does not exist stops at start, named.
 */
import '../../runtime/kafkajs-replacements.ts';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import kafkajs from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Mock, type S3Mock } from '../../infra/s3-mock.ts';
import { createPublisher, type Publisher } from '../../runtime/publishers.ts';
import { consumerGroup, physicalTopic } from '../../topics/topics.ts';
import { anyExited, serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { groupLag, judgeWorkload, planWorkload, publishStep, publishingSteps, type PlannedRun } from '../support/fault-workload.ts';
import { createHarness, type Harness } from '../support/pipeline-harness.ts';
import { rawFileName } from '../../services/sink/raw-sink.ts';
import { freePort } from '../support/service-ports.ts';

const BUCKET = 'skrya-fleet';
const PREFIX = 'fleet/';
const CREDENTIALS = { AWS_ACCESS_KEY_ID: 'skrya-test', AWS_SECRET_ACCESS_KEY: 'skrya-test-secret' };

let harness: Harness;
let workDir: string;
let s3mock: S3Mock;
let proxy: ToggleProxy;
let publisher: Publisher;
let admin: ReturnType<Harness['pipeline']['kafka']['admin']>;
const processes: ServiceProcess[] = [];

interface ToggleProxy {
  port: number;
  open(): Promise<void>;
  /** Refuses new connections and cuts the open ones: the bucket is unreachable. */
  close(): Promise<void>;
}

/** A TCP proxy to S3Mock the test can cut and restore, as a network outage between sinks and the store. */
async function toggleProxy(target: number): Promise<ToggleProxy> {
  const port = await freePort();
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  return {
    port,
    async open() {
      server = net.createServer((client) => {
        const upstream = net.connect({ host: '127.0.0.1', port: target });
        track(client);
        track(upstream);
        client.pipe(upstream).pipe(client);
      });
      await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    },
    async close() {
      const closing = new Promise((resolve) => server?.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closing;
      server = null;
    },
  };
}

const s3 = () => new S3Client({ endpoint: s3mock.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: CREDENTIALS.AWS_ACCESS_KEY_ID, secretAccessKey: CREDENTIALS.AWS_SECRET_ACCESS_KEY } });

/** The bucket's objects under the prefix, copied into a folder laid out as the local data tree, so the workload judge reads them. */
async function mirrorBucket(client: S3Client, only: (key: string) => boolean = () => true): Promise<{ root: string; keys: string[] }> {
  const root = fs.mkdtempSync(path.join(workDir, 'mirror-'));
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: PREFIX, ContinuationToken: token }));
    for (const object of page.Contents ?? []) keys.push(object.Key!.slice(PREFIX.length));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  for (const key of keys.filter(only)) {
    const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${PREFIX}${key}` }));
    fs.mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    fs.writeFileSync(path.join(root, key), await answer.Body!.transformToString('utf8'));
  }
  return { root, keys };
}

async function judgeBucket(client: S3Client, runs: readonly PlannedRun[]) {
  const mirror = await mirrorBucket(client, (key) => key.includes('/normalized/'));
  try {
    return judgeWorkload(mirror.root, runs);
  } finally {
    fs.rmSync(mirror.root, { recursive: true, force: true });
  }
}

/** Per sink in the group: input it has committed on the partitions it holds (none while the group rebalances). */
async function committedPerSink(): Promise<number[]> {
  const group = consumerGroup(harness.pipeline.port.naming, 'sink');
  const topic = physicalTopic(harness.pipeline.port.naming, 'ingest-normalized');
  const { groups } = await admin.describeGroups([group]);
  if (groups[0]?.state !== 'Stable') return [];
  const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
  const at = new Map((committed?.partitions ?? []).map((entry) => [entry.partition, Math.max(0, Number(entry.offset))]));
  return groups[0].members.map((member) => [...(kafkajs.AssignerProtocol.MemberAssignment.decode(member.memberAssignment)?.assignment[topic] ?? [])]
    .reduce((sum, partition) => sum + (at.get(partition) ?? 0), 0));
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  const { pipeline } = harness;
  return serviceEnv({ brokers: pipeline.config.SKRYA_KAFKA_BROKERS, registryUrl: pipeline.config.SKRYA_REGISTRY_URL, prefix: pipeline.port.naming.prefix, dataRoot: path.resolve(harness.dataRoot) }, {
    SKRYA_SCORER_WORKERS: '0',
    SKRYA_SINK_S3_BUCKET: BUCKET,
    SKRYA_SINK_S3_PREFIX: PREFIX,
    SKRYA_SINK_S3_ENDPOINT: `http://127.0.0.1:${proxy.port}`,
    ...CREDENTIALS,
    ...extra,
  });
}

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-sink-s3-'));
  harness = await createHarness('sink-s3');
  const cacheDir = path.resolve(harness.pipeline.config.SKRYA_CACHE_DIR);
  s3mock = await startS3Mock({ cacheDir, storeDir: path.join(workDir, 's3mock'), port: await freePort(), buckets: [BUCKET], logFile: path.join(workDir, 's3mock.log') });
  proxy = await toggleProxy(Number(new URL(s3mock.endpoint).port));
  await proxy.open();
  publisher = await createPublisher({ kafka: harness.pipeline.kafka, serde: harness.pipeline.port.serde, naming: harness.pipeline.port.naming, stage: 'sink-s3-test' });
  admin = harness.pipeline.kafka.admin();
  await admin.connect();
}, 600_000);

afterAll(async () => {
  await Promise.all(processes.map((process) => process.kill()));
  await publisher?.close();
  await admin?.disconnect();
  await proxy?.close();
  await s3mock?.stop();
  await harness?.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('the sink on an S3-compatible bucket', () => {
  const firstRuns = planWorkload({ tenant: 'acme', topics: 16, runsPerTopic: 2, responsesPerRun: 2, itemsPerResponse: 3, label: 's3' });
  // Another tenant: the workload's topic ids and timestamps repeat, and its files must not collide with acme's.
  const outageRuns = planWorkload({ tenant: 'globex', topics: 6, runsPerTopic: 1, responsesPerRun: 2, itemsPerResponse: 3, label: 's3-outage' });
  let survivor: ServiceProcess;

  it('two sinks write one tenant\'s files into one bucket, whole and exactly once, one of them killed mid-stream', async () => {
    const sinks = [0, 1].map((index) => spawnService(['sink', 'sink-raw'], { env: env(), logDir: path.join(workDir, `sink-${index}`), readyTimeoutMs: 600_000 }));
    processes.push(spawnService(['scorer', 'collector'], { env: env(), logDir: workDir, readyTimeoutMs: 600_000 }), ...sinks);
    await Promise.all(processes.map((process) => process.ready));
    await waitUntil('2 sinks sharing ingest-normalized', async () => (await committedPerSink()).length === 2, 300_000, { intervalMs: 500, failIf: () => anyExited(processes) });

    const steps = publishingSteps(firstRuns);
    const half = Math.floor(steps.length / 2);
    for (const step of steps.slice(0, half)) await publishStep(publisher, step);
    // Both sinks have written part of the tenant's tree before one of them dies.
    await waitUntil('both sinks writing', async () => {
      const perSink = await committedPerSink();
      return perSink.length === 2 && perSink.every((count) => count > 0);
    }, 300_000, { intervalMs: 500, failIf: () => anyExited(processes) });
    await sinks[0]!.kill();
    for (const step of steps.slice(half)) await publishStep(publisher, step);
    survivor = sinks[1]!;
    const alive = processes.filter((process) => !process.hasExited());

    const client = s3();
    // Every stage's input committed too, the collector's included (its tick's commits no longer leave it behind).
    const naming = harness.pipeline.port.naming;
    await waitUntil('every run in the bucket exactly, and every stage\'s input committed', async () => {
      const verdict = await judgeBucket(client, firstRuns);
      if (verdict.exact !== firstRuns.length) return false;
      const lags = await Promise.all([groupLag(admin, naming, 'sink', 'ingest-normalized'), groupLag(admin, naming, 'sink-raw', 'raw-results'), groupLag(admin, naming, 'collector', 'scored-results'), groupLag(admin, naming, 'scorer', 'raw-results')]);
      return lags.every((lag) => lag === 0);
    }, 600_000, { intervalMs: 1000, failIf: () => anyExited(alive) });
    const verdict = await judgeBucket(client, firstRuns);
    expect(verdict.wrongRuns).toEqual([]);
    expect(verdict).toMatchObject({ runs: firstRuns.length, exact: firstRuns.length, lostItems: 0, duplicatedItems: 0, missingRuns: [], strayFiles: [] });

    // The rest of each topic's tree is there too, and nothing went to the local disk.
    const { root, keys } = await mirrorBucket(client);
    fs.rmSync(root, { recursive: true, force: true });
    const topics = [...new Set(firstRuns.map((run) => run.topicId))];
    for (const topic of topics) {
      for (const name of ['latest-ingest.json', 'digest.md', 'evidence-memory.json']) expect(keys).toContain(`acme/runs/${topic}/ingest/${name}`);
    }
    const rawKeys = firstRuns.flatMap((run) => run.messages.flatMap((message) => (message.kind === 'RESPONSE' ? [`acme/runs/${run.topicId}/ingest/raw/${rawFileName(message)}`] : [])));
    expect(keys.filter((key) => key.includes('/ingest/raw/')).sort()).toEqual([...new Set(rawKeys)].sort());
    expect(fs.existsSync(path.join(harness.dataRoot, 'acme', 'runs'))).toBe(false);
  }, 1_800_000);

  it('an unreachable bucket holds the input uncommitted, says why, and every run lands once it is back', async () => {
    expect(survivor.hasExited()).toBe(false);
    const alive = processes.filter((process) => !process.hasExited());
    const failures = () => survivor.log().split('"code":"STORAGE_UNAVAILABLE"').length - 1;
    const failuresBefore = failures();
    await proxy.close();
    for (const step of publishingSteps(outageRuns)) await publishStep(publisher, step);
    // The outage's batches reach the sink, fail, and stay uncommitted.
    await waitUntil('the sink naming the unreachable bucket and holding its input', async () => failures() > failuresBefore
      && (await groupLag(admin, harness.pipeline.port.naming, 'sink', 'ingest-normalized')) > 0, 300_000, { intervalMs: 500, failIf: () => anyExited(alive) });
    expect(survivor.log()).toContain(`s3://${BUCKET}/fleet at http://127.0.0.1:${proxy.port}`);
    expect(survivor.log()).toContain('nothing is committed until the bucket answers');

    await proxy.open();
    const client = s3();
    const allRuns = [...firstRuns, ...outageRuns];
    await waitUntil('every run in the bucket exactly after the outage, and committed', async () => {
      const verdict = await judgeBucket(client, allRuns);
      return verdict.exact === allRuns.length && (await groupLag(admin, harness.pipeline.port.naming, 'sink', 'ingest-normalized')) === 0;
    }, 600_000, { intervalMs: 1000, failIf: () => anyExited(alive) });
    const verdict = await judgeBucket(client, allRuns);
    expect(verdict).toMatchObject({ exact: allRuns.length, lostItems: 0, duplicatedItems: 0, strayFiles: [] });
    for (const process of alive) expect(await process.stop(60_000)).toBe(0);
  }, 1_800_000);

  it('a sink given a bucket that does not exist stops at start and names it', async () => {
    const sink = spawnService('sink', { env: env({ SKRYA_SINK_S3_BUCKET: 'no-such-bucket', SKRYA_SINK_S3_ENDPOINT: s3mock.endpoint }), logDir: path.join(workDir, 'sink-missing-bucket'), readyTimeoutMs: 600_000 });
    processes.push(sink);
    expect(await sink.exited).toBe(1);
    expect(sink.log()).toContain(`s3://no-such-bucket/fleet at ${s3mock.endpoint}: checking the bucket failed: the bucket does not exist`);
  }, 600_000);
});
