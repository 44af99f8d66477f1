/**
 * The runner's deferred work against the real broker. Periodic work: a tick that releases held
 * input (as the collector does when it closes a run whose end marker never came) keeps its outputs
 * until the broker acknowledges them, no commit passes that input meanwhile, and once they are
 * delivered the released offsets are committed without waiting for new input. Work finishing
 * later (the retriever's runs): an input is held until its completion is delivered, whatever
 * order runs finish in. An output that can never be written, or a completion that fails, crashes
 * the service instead of being dropped.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import { emit, later, type Handler, type Later, type Outcome } from '../../runtime/handler.ts';
import { startService, type RunningService } from '../../runtime/runner.ts';
import type { Serde } from '../../runtime/serde.ts';
import { consumerGroup, physicalTopic } from '../../topics/topics.ts';
import { rawRunEndFixture, retrievalRequestFixture } from '../fixtures/messages.ts';
import { waitUntil } from '../support/fault-processes.ts';
import { createKafkaTestContext, readMessages, type KafkaTestContext } from '../support/kafka-context.ts';
import { parseRunId } from '../../runtime/ids.ts';

let context: KafkaTestContext;
let service: RunningService | undefined;

beforeAll(async () => {
  context = await createKafkaTestContext('ticks', ['retrieval-requests', 'raw-results', 'dead-letters']);
});

afterEach(async () => {
  await service?.stop();
  service = undefined;
});

afterAll(async () => {
  await context?.close();
});

/** Holds every request until the next tick, then emits one run-end marker per request. */
function holdUntilTick(): Handler<'retrieval-requests'> {
  const held = new Map<string, string>();
  return {
    input: 'retrieval-requests',
    handle({ offset, value }) {
      held.set(offset, value.run_id);
      return [];
    },
    heldFrom: () => (held.size === 0 ? null : [...held.keys()].reduce((low, offset) => (BigInt(offset) < BigInt(low) ? offset : low))),
    tick(): Outcome[] {
      const released = [...held.values()];
      held.clear();
      return released.map((runId) => emit('raw-results', 'acme/ai-browser', { ...rawRunEndFixture(), run_id: parseRunId(runId) }));
    },
    onAssignment: () => held.clear(),
  };
}

/** The real serde, with raw-results encoding failing while `failing()` says so. */
function serdeFailingOnRawResults(failing: () => SkryaError | null, onFailure: () => void): Serde {
  return {
    ...context.serde,
    async encode(topic, value) {
      const failure = topic === 'raw-results' ? failing() : null;
      if (failure) {
        onFailure();
        throw failure;
      }
      return context.serde.encode(topic, value);
    },
  };
}

async function committedOffset(service: string): Promise<string> {
  const [topic] = await context.admin.fetchOffsets({ groupId: consumerGroup(context.naming, service), topics: [physicalTopic(context.naming, 'retrieval-requests')] });
  return topic!.partitions.find((entry) => entry.partition === 0)?.offset ?? '-1';
}

async function produceRequests(runIds: readonly string[]): Promise<void> {
  const producer = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = await Promise.all(runIds.map(async (runId) => ({ key: 'acme/ai-browser', partition: 0, value: await context.serde.encode('retrieval-requests', retrievalRequestFixture({ run_id: parseRunId(runId) })) })));
  await producer.send({ topic: physicalTopic(context.naming, 'retrieval-requests'), acks: -1, messages });
  await producer.disconnect();
}

describe('periodic work in the runner', () => {
  it('keeps a failed tick’s outputs, holds the commit back until they are delivered, then commits without new input', async () => {
    let registryDown = true;
    let failures = 0;
    service = await startService({
      service: 'ticker',
      kafka: context.kafka,
      serde: serdeFailingOnRawResults(() => (registryDown ? new SkryaError('REGISTRY_UNAVAILABLE', 'registry down (injected)') : null), () => failures++),
      naming: context.naming,
      logger: context.logger,
      handler: holdUntilTick(),
      tickIntervalMs: 100,
    });
    await service.ready;
    await produceRequests(['run-a', 'run-b', 'run-c']);

    // The tick released the three requests, but its outputs cannot be encoded: several ticks fail.
    await waitUntil('three failed ticks', async () => failures >= 3, 20_000);
    expect(['-1', '0']).toContain(await committedOffset('ticker'));

    registryDown = false;
    const outputs = await readMessages(context.kafka, physicalTopic(context.naming, 'raw-results'), 3);
    const runIds = await Promise.all(outputs.map(async (message) => (await context.serde.decode('raw-results', message.value)).run_id));
    expect(runIds.sort()).toEqual(['run-a', 'run-b', 'run-c']);
    // No new input arrives: the commit after the tick's delivery moves the offset past all three.
    await waitUntil('the offset committed after delivery', async () => (await committedOffset('ticker')) === '3', 20_000);
  });

  it('crashes loudly when a tick produces an output that can never be written', async () => {
    service = await startService({
      service: 'broken-ticker',
      kafka: context.kafka,
      serde: serdeFailingOnRawResults(() => new SkryaError('SCHEMA_INVALID', 'refusing to write an invalid raw-results message (injected)'), () => {}),
      naming: context.naming,
      logger: context.logger,
      handler: holdUntilTick(),
      tickIntervalMs: 100,
    });
    await service.ready;
    await produceRequests(['run-d']);
    const error = await service.crashed;
    expect(error.message).toContain('injected');
    expect(['-1', '0']).toContain(await committedOffset('broken-ticker'));
  });
});

/** Finishes each request when the test says so (earlier tests' requests at once), with one run-end marker. */
function finishWhenTold(prefix: string) {
  const pending = new Map<string, PromiseWithResolvers<Outcome[] | null>>();
  const marker = (runId: string) => [emit('raw-results', 'acme/ai-browser', { ...rawRunEndFixture(), run_id: parseRunId(runId) })];
  const handler: Handler<'retrieval-requests', Later> = {
    input: 'retrieval-requests',
    handle({ value }) {
      if (!value.run_id.startsWith(prefix)) return [later(Promise.resolve(marker(value.run_id)))];
      const done = Promise.withResolvers<Outcome[] | null>();
      pending.set(value.run_id, done);
      return [later(done.promise)];
    },
  };
  return { handler, seen: (runId: string) => pending.has(runId), finish: (runId: string) => pending.get(runId)!.resolve(marker(runId)), fail: (runId: string) => pending.get(runId)!.reject(new Error(`run ${runId} failed (injected)`)) };
}

async function endOfRequests(): Promise<number> {
  const offsets = await context.admin.fetchTopicOffsets(physicalTopic(context.naming, 'retrieval-requests'));
  return Number(offsets.find((entry) => entry.partition === 0)!.high);
}

/** The run ids of every run-end marker written so far. */
async function markersWritten(): Promise<string[]> {
  const topic = physicalTopic(context.naming, 'raw-results');
  const count = (await context.admin.fetchTopicOffsets(topic)).reduce((sum, entry) => sum + Number(entry.high), 0);
  const messages = count === 0 ? [] : await readMessages(context.kafka, topic, count);
  return Promise.all(messages.map(async (message) => (await context.serde.decode('raw-results', message.value)).run_id));
}

describe('work finishing later in the runner', () => {
  it('holds each input until its completion is delivered, whatever order runs finish in, then commits without new input', async () => {
    const runs = finishWhenTold('late-');
    service = await startService({ service: 'later', kafka: context.kafka, serde: context.serde, naming: context.naming, logger: context.logger, handler: runs.handler });
    await service.ready;
    const first = await endOfRequests();
    await produceRequests(['late-1', 'late-2', 'late-3']);
    await waitUntil('the three requests handled', async () => ['late-1', 'late-2', 'late-3'].every(runs.seen), 20_000);
    await waitUntil('earlier input committed up to the first unfinished request', async () => (await committedOffset('later')) === String(first), 20_000);

    runs.finish('late-3');
    runs.finish('late-2');
    await waitUntil('late-2 and late-3 delivered', async () => {
      const written = await markersWritten();
      return written.includes('late-2') && written.includes('late-3');
    }, 30_000);
    // Later runs are delivered, but late-1 is unfinished: the offset stays at it.
    expect(await committedOffset('later')).toBe(String(first));

    runs.finish('late-1');
    await waitUntil('the offset committed past all three', async () => (await committedOffset('later')) === String(first + 3), 20_000);
  });

  it('crashes loudly when work finishing later fails, and commits nothing past it', async () => {
    const runs = finishWhenTold('doomed-');
    service = await startService({ service: 'doomed', kafka: context.kafka, serde: context.serde, naming: context.naming, logger: context.logger, handler: runs.handler });
    await service.ready;
    const first = await endOfRequests();
    await produceRequests(['doomed-1']);
    await waitUntil('the request handled', async () => runs.seen('doomed-1'), 20_000);
    runs.fail('doomed-1');
    expect((await service.crashed).message).toContain('injected');
    expect(Number(await committedOffset('doomed'))).toBeLessThanOrEqual(first);
  });
});
