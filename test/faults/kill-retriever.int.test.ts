/**
 * kill -9 of the retriever mid-stream: it runs as a separate `skrya run retriever` process over two
 * topics whose sources are local feeds and notes, while the scorer, collector and sink run in this
 * process. Requests are published in bursts, each in one send, and the retriever is SIGKILLed once it
 * has committed a random few of a burst (its progress, not a clock, picks the moment: a loaded
 * machine cannot make every kill land after the work) and restarted at once, so runs are cut
 * half-way and executed again by its successor.
 * Afterwards every request has its run file, complete, holding exactly the items a run of that
 * topic holds without any kill: nothing lost, nothing duplicated. SKRYA_FAULT_SEED replays the
 * kill schedule.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir } from '../../runtime/data-paths.ts';
import { topicKey } from '../../runtime/ids.ts';
import type { RetrievalRequest } from '../../schemas/messages.ts';
import { compactTimestamp } from '../../services/sink/file-names.ts';
import { createRandom } from '../../domain/learned/random.ts';
import { serviceEnv, spawnService, waitUntil, type ServiceProcess } from '../support/fault-processes.ts';
import { groupLag } from '../support/fault-workload.ts';
import { createHarness, readLatestIfRun, waitFor, type Harness } from '../support/pipeline-harness.ts';

const SEED = Number(process.env.SKRYA_FAULT_SEED ?? Date.now() % 2_147_483_647);
const TENANT = 'acme';
const TOPICS = ['rust-async', 'kafka-ops'] as const;
const BURSTS = 3;
const REQUESTS_PER_TOPIC_PER_BURST = 8;

let harness: Harness;
let logDir: string;

beforeAll(async () => {
  harness = await createHarness('fault-retriever');
  for (const topic of TOPICS) harness.addTopic(TENANT, topic, topic);
  await harness.start(['scorer', 'collector', 'sink']);
  logDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-retriever-logs-'));
});

afterAll(async () => {
  await harness?.close();
});

/** Request windows a minute apart: each request gets its own run id and run file. */
function windowAt(index: number): { since: string; until: string } {
  return { since: '2026-10-01T00:00:00Z', until: new Date(Date.parse('2026-11-30T00:00:00Z') + index * 60_000).toISOString() };
}

function runFile(request: RetrievalRequest): string {
  return path.join(ingestDir(harness.dataRoot, request.tenant, request.topic_id), 'normalized', `${compactTimestamp(request.requested_at)}.json`);
}

/** An item's identity across runs of the same topic (item ids include the run id). */
function identities(document: { items: Array<Record<string, unknown>> }): string[] {
  return document.items.map((item) => String(item.canonical_url ?? item.title)).sort();
}

/** A whole burst in one send: on the topic before the retriever can have finished any of it. */
async function publishBurst(requests: readonly RetrievalRequest[]): Promise<void> {
  await harness.publisher.publishAll('retrieval-requests', requests.map((request) => ({ key: topicKey({ tenant: request.tenant, topicId: request.topic_id }), value: request })));
}

describe('the retriever killed with SIGKILL mid-stream and restarted', () => {
  it('still gives every request one complete run file with each of its items exactly once', async () => {
    const random = createRandom(SEED);
    const report = (line: string) => process.stderr.write(`[fault-retriever seed=${SEED}] ${line}\n`);
    const { config, kafka } = harness.pipeline;
    const { naming } = harness.pipeline.port;
    const spawnOptions = { env: serviceEnv({ brokers: config.SKRYA_KAFKA_BROKERS, registryUrl: config.SKRYA_REGISTRY_URL, prefix: config.SKRYA_TOPIC_PREFIX, dataRoot: harness.dataRoot }), logDir, readyTimeoutMs: 60_000 };
    const admin = kafka.admin();
    await admin.connect();
    let retriever: ServiceProcess = spawnService('retriever', spawnOptions);
    try {
      await retriever.ready;
      // What a run of each topic holds when nothing goes wrong.
      const expected = new Map<string, string[]>();
      for (const topic of TOPICS) {
        const control = await harness.request(TENANT, topic, windowAt(0));
        expected.set(topic, identities(await waitFor(`control run of ${topic}`, () => readLatestIfRun(runFile(control), control.run_id))));
      }

      const requests: RetrievalRequest[] = [];
      const lags: number[] = [];
      let index = 1;
      for (let burst = 0; burst < BURSTS; burst += 1) {
        const burstRequests: RetrievalRequest[] = [];
        for (let count = 0; count < REQUESTS_PER_TOPIC_PER_BURST; count += 1, index += 1) {
          for (const topic of TOPICS) burstRequests.push(harness.buildRequest(TENANT, topic, windowAt(index)));
        }
        const lagBefore = await groupLag(admin, naming, 'retriever', 'retrieval-requests');
        await publishBurst(burstRequests);
        requests.push(...burstRequests);
        // Killed once it has committed 1 to half of the burst: busy with the rest when it dies.
        const committedBeforeKill = 1 + Math.floor(random() * (burstRequests.length / 2));
        const target = lagBefore + burstRequests.length - committedBeforeKill;
        await waitUntil(`the retriever to commit ${committedBeforeKill} of burst ${burst + 1}`, async () => (await groupLag(admin, naming, 'retriever', 'retrieval-requests')) <= target, 120_000, { intervalMs: 5, failIf: () => (retriever.hasExited() ? 'the retriever exited' : null) });
        await retriever.kill();
        // Counted after the kill: a dead process commits nothing more.
        const lag = await groupLag(admin, naming, 'retriever', 'retrieval-requests');
        lags.push(lag);
        report(`kill -9 retriever (pid ${retriever.pid}) once it had committed at least ${committedBeforeKill} of burst ${burst + 1}/${BURSTS}; ${lag} requests uncommitted`);
        retriever = spawnService('retriever', spawnOptions);
        await retriever.ready;
      }

      // Killed mid-stream at least once: requests were still uncommitted when it died.
      expect(lags.some((lag) => lag > 0)).toBe(true);
      await waitFor('every request\'s run file', () => requests.every((request) => readLatestIfRun(runFile(request), request.run_id) !== null), 180_000);
      for (const request of requests) {
        const document = readLatestIfRun(runFile(request), request.run_id)!;
        expect(document.stats, `${request.topic_id} ${request.run_id}`).toMatchObject({ complete: true });
        expect(identities(document), `${request.topic_id} ${request.run_id}`).toEqual(expected.get(request.topic_id));
      }
      expect(await retriever.stop()).toBe(0);
      fs.rmSync(logDir, { recursive: true, force: true });
    } catch (error) {
      throw new Error(`seed ${SEED}, retriever logs in ${logDir}: ${String(error)}`, { cause: error });
    } finally {
      await retriever.kill();
      await admin.disconnect();
    }
  }, 300_000);
});
