/**
 * A collector restart with runs interleaved on one partition, against the real broker: run B
 * stays open (so the commit cannot pass its first offset) while run A closes behind it. After the
 * restart the input from B's first offset is read again; A is named in the commit's note, so it is
 * not closed a second time from its re-read tail, and B still closes with its items.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../runtime/runner.ts';
import type { ScoredResult } from '../../schemas/messages.ts';
import { createCollector } from '../../services/collector/handler.ts';
import { physicalTopic } from '../../topics/topics.ts';
import { scoredItemFixture, scoredItemMessageFixture, scoredRunEndFixture } from '../fixtures/messages.ts';
import { createKafkaTestContext, readMessages, type KafkaTestContext } from '../support/kafka-context.ts';
import { parseRunId } from '../../runtime/ids.ts';

let context: KafkaTestContext;
let collector: RunningService | undefined;

beforeAll(async () => {
  context = await createKafkaTestContext('collector-restart', ['scored-results', 'ingest-normalized', 'dead-letters']);
});

afterAll(async () => {
  await collector?.stop();
  await context?.close();
});

const STORIES: Record<string, string> = {
  a1: 'Browser vendors ship agent modes that read pages on behalf of their users.',
  a2: 'A standards group drafts permissions for autonomous shopping assistants.',
  b1: 'Kafka 4.1 removes the last ZooKeeper code paths from the broker.',
  b2: 'Quarterly earnings of chip makers beat forecasts on data-centre demand.',
};

function item(id: string, runId: string): ScoredResult {
  const url = `https://example.com/${id}`;
  // Distinct text and place per item: the collector merges near-duplicate text and keeps one item per place in a run.
  const content = `${STORIES[id]} (${id})`;
  const base = scoredItemMessageFixture() as Extract<ScoredResult, { kind: 'ITEM' }>;
  return { ...base, run_id: parseRunId(runId), item: scoredItemFixture({ id, url, canonical_url: url, title: `Story ${id}`, content, summary: content, content_hash: createHash('sha256').update(content).digest('hex').slice(0, 32), sources: [{ provider: 'rss_feed', url, item_id: id }], position: Object.keys(STORIES).indexOf(id) }) };
}

function runEnd(runId: string): ScoredResult {
  return { ...scoredRunEndFixture(), run_id: parseRunId(runId) };
}

async function produce(values: readonly ScoredResult[]): Promise<void> {
  const producer = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const messages = await Promise.all(values.map(async (value) => ({ key: 'acme/ai-browser', partition: 0, value: await context.serde.encode('scored-results', value) })));
  await producer.send({ topic: physicalTopic(context.naming, 'scored-results'), acks: -1, messages });
  await producer.disconnect();
}

function startCollector(): Promise<RunningService> {
  return startService({
    service: 'collector',
    kafka: context.kafka,
    serde: context.serde,
    naming: context.naming,
    logger: context.logger,
    handler: createCollector({ runTimeoutMs: 600_000, logger: context.logger }),
  });
}

async function batchRunIds(count: number): Promise<string[]> {
  const topic = physicalTopic(context.naming, 'ingest-normalized');
  const messages = await readMessages(context.kafka, topic, count);
  const offsets = await context.admin.fetchTopicOffsets(topic);
  // Everything published so far: a second batch for run A would sit before run B's.
  expect(offsets.reduce((sum, partition) => sum + Number(partition.high), 0)).toBe(count);
  return Promise.all(messages.map(async (message) => (await context.serde.decode('ingest-normalized', message.value)).run_id));
}

describe('collector restart with an open run before a closed one', () => {
  it('publishes each run once: the closed run is skipped on re-read, the open one is rebuilt', async () => {
    collector = await startCollector();
    await collector.ready;
    await produce([item('b1', 'run-b'), item('a1', 'run-a'), item('a2', 'run-a'), runEnd('run-a')]);
    expect(await batchRunIds(1)).toEqual(['run-a']);

    await collector.stop();
    collector = await startCollector();
    await collector.ready;
    await produce([item('b2', 'run-b'), runEnd('run-b')]);

    expect((await batchRunIds(2)).sort()).toEqual(['run-a', 'run-b']);
    const messages = await readMessages(context.kafka, physicalTopic(context.naming, 'ingest-normalized'), 2);
    const runB = (await Promise.all(messages.map((message) => context.serde.decode('ingest-normalized', message.value)))).find((batch) => batch.run_id === 'run-b')!;
    expect(runB.items.map((entry) => entry.id).sort()).toEqual(['b1', 'b2']);
  });
});
