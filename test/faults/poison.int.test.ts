/**
 * Poison and hostile input on every topic a stage consumes (retrieval-requests, raw-results,
 * scored-results, ingest-normalized): random bytes, an unknown schema id, another topic's schema,
 * truncated Avro, 10 MB of junk behind a valid header, a contract breach, a tombstone, invalid UTF-8
 * in a string; and on raw-results, provider responses that are valid Avro but hostile (JSON nested
 * 100 000 deep, a 10 MB payload). Each becomes a dead letter with its reason code from every stage
 * that reads the topic, no stage crashes, and a valid run published after all of them on the same
 * key (so the same partitions) still reaches latest-ingest.json.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Producer } from 'kafkajs';
import { parseRunId, parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { createRegistry } from '../../runtime/kafka.ts';
import type { RunningStages } from '../../services/run-services.ts';
import { physicalTopic, type TopicName } from '../../topics/topics.ts';
import { ingestBatchFixture, rawResponseFixture, retrievalRequestFixture, scoredItemFixture, scoredItemMessageFixture } from '../fixtures/messages.ts';
import { topicSize } from '../support/fault-workload.ts';
import { createHarness, readLatestIfRun, readTopic, waitFor, type Harness } from '../support/pipeline-harness.ts';

const KEY = topicKey({ tenant: parseTenantId('acme'), topicId: parseTopicId('kafka-ops') });
const CASE_HEADER = 'fault-case';
const MARKER = 'UTF8MARKERUTF8MARKER';
const TEN_MB = 10 * 1024 * 1024;
const NESTING = 100_000;

type InputTopic = Extract<TopicName, 'retrieval-requests' | 'raw-results' | 'scored-results' | 'ingest-normalized'>;

/** The stages reading each input topic. */
const READERS: Record<InputTopic, string[]> = {
  'retrieval-requests': ['retriever'],
  'raw-results': ['scorer', 'sink-raw'],
  'scored-results': ['collector'],
  'ingest-normalized': ['sink'],
};

/** A valid value per topic, with MARKER in one of its strings (where invalid UTF-8 is planted). */
function validValue(topic: InputTopic): unknown {
  switch (topic) {
    case 'retrieval-requests':
      return retrievalRequestFixture({ queries: [MARKER] });
    case 'raw-results':
      return { ...rawResponseFixture({ payload: `<rss><channel><title>${MARKER}</title></channel></rss>` }), producer: { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } };
    case 'scored-results':
      return { ...scoredItemMessageFixture(), item: scoredItemFixture({ title: MARKER }) };
    case 'ingest-normalized':
      return { ...ingestBatchFixture(), items: [scoredItemFixture({ title: MARKER })] };
  }
}

interface Poison {
  name: string;
  value: (topic: InputTopic) => Promise<Buffer | null>;
  code: string;
}

let harness: Harness;
let stages: RunningStages;
let producer: Producer;
let crashed: { service: string; error: Error } | null = null;

beforeAll(async () => {
  harness = await createHarness('fault-poison');
  harness.addTopic('acme', 'kafka-ops', 'kafka-ops');
  stages = await harness.start(['retriever', 'scorer', 'collector', 'sink', 'sink-raw']);
  void stages.crashed.then((crash) => {
    crashed = crash;
  });
  producer = harness.pipeline.kafka.producer();
  await producer.connect();
});

afterAll(async () => {
  await producer?.disconnect();
  await harness?.close();
});

function header(schemaId: number): Buffer {
  const bytes = Buffer.alloc(5);
  bytes.writeUInt32BE(schemaId, 1);
  return bytes;
}

const serde = () => harness.pipeline.port.serde;
const encodeValid = (topic: InputTopic) => serde().encode(topic, validValue(topic) as never);

/** Every topic: bytes no stage can read, or values its contract refuses. */
const POISONS: Poison[] = [
  { name: 'random bytes', code: 'UNDECODABLE', value: async () => Buffer.concat([Buffer.from([0x7f]), randomBytes(255)]) },
  { name: 'an unknown schema id', code: 'UNKNOWN_SCHEMA', value: async () => Buffer.concat([header(0x7ffffff0), randomBytes(64)]) },
  {
    name: "another topic's schema",
    code: 'UNDECODABLE',
    value: () => serde().encode('monitor-state', { tenant: parseTenantId('acme'), topic_id: parseTopicId('kafka-ops'), last_run_id: parseRunId('run-x'), last_window_since: '2026-11-29T00:00:00Z', last_window_until: '2026-11-30T00:00:00Z', fired_at: '2026-11-30T00:00:00Z' }),
  },
  { name: 'truncated Avro', code: 'UNDECODABLE', value: async (topic) => (await encodeValid(topic)).subarray(0, 40) },
  { name: '10 MB of junk behind a valid header', code: 'UNDECODABLE', value: async (topic) => Buffer.concat([header(serde().schemaId(topic)), randomBytes(TEN_MB)]) },
  {
    name: 'a contract breach in valid Avro',
    code: 'SCHEMA_INVALID',
    value: (topic) => createRegistry(harness.pipeline.config).encode(serde().schemaId(topic), { ...(validValue(topic) as object), tenant: 'Not A Tenant' }),
  },
  { name: 'a tombstone', code: 'UNDECODABLE', value: async () => null },
  {
    name: 'invalid UTF-8 in a string',
    code: 'UNDECODABLE',
    value: async (topic) => {
      const bytes = Buffer.from(await encodeValid(topic));
      const at = bytes.indexOf(MARKER);
      bytes.set([0xff, 0xfe, 0xc3, 0x28], at);
      return bytes;
    },
  },
];

const braveProducer = { kind: 'provider', name: 'brave_web_search', persistent: true, capabilities: ['web_search'] } as const;

/** raw-results only: valid messages whose provider response is hostile; only the scorer parses it. */
const HOSTILE_RESPONSES: Array<{ name: string; value: () => Promise<Buffer>; code: string }> = [
  {
    name: `JSON nested ${NESTING} deep from a provider`,
    code: 'NORMALIZE_FAILED',
    value: () => serde().encode('raw-results', { ...rawResponseFixture({ payload: `{"web":{"results":${'['.repeat(NESTING)}${']'.repeat(NESTING)}}}`, content_type: 'application/json' }), producer: { ...braveProducer, capabilities: ['web_search'] } }),
  },
  {
    name: 'a 10 MB provider payload',
    code: 'NORMALIZE_FAILED',
    value: () => serde().encode('raw-results', { ...rawResponseFixture({ payload: `<rss>${'x'.repeat(TEN_MB)}` }), producer: { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } }),
  },
];

async function send(topic: InputTopic, name: string, value: Buffer | null): Promise<void> {
  await producer.send({ topic: physicalTopic(harness.pipeline.port.naming, topic), acks: -1, messages: [{ key: KEY, value, headers: { [CASE_HEADER]: `${topic}: ${name}` } }] });
}

describe('poison and hostile input on every consumed topic', () => {
  it('is dead-lettered with its reason code by every reader, nothing crashes, and a valid run after it gets through', async () => {
    const expected: string[] = [];
    for (const topic of Object.keys(READERS) as InputTopic[]) {
      for (const poison of POISONS) {
        await send(topic, poison.name, await poison.value(topic));
        for (const stage of READERS[topic]) expected.push(`${stage} | ${topic}: ${poison.name} | ${poison.code}`);
      }
    }
    for (const hostile of HOSTILE_RESPONSES) {
      await send('raw-results', hostile.name, await hostile.value());
      expected.push(`scorer | raw-results: ${hostile.name} | ${hostile.code}`);
    }

    // A valid run on the same key, so through the same partitions, after every poison.
    const request = await harness.request('acme', 'kafka-ops');
    const latest = await waitFor('the valid run in latest-ingest.json', () => readLatestIfRun(harness.latest('acme', 'kafka-ops'), request.run_id), 90_000);
    expect(latest.items.length).toBeGreaterThan(0);

    const letters = await readTopic(harness, 'dead-letters', expected.length, 60_000);
    const decoded = await Promise.all(letters.map((letter) => serde().decode('dead-letters', letter.value)));
    const seen = decoded.map((letter) => `${letter.stage} | ${(JSON.parse(letter.original_headers_json) as Record<string, string>)[CASE_HEADER]} | ${letter.reason_code}`);
    expect(seen.sort()).toEqual(expected.sort());
    const admin = harness.pipeline.kafka.admin();
    await admin.connect();
    expect(await topicSize(admin, harness.pipeline.port.naming, 'dead-letters')).toBe(expected.length);
    await admin.disconnect();
    // The original bytes are kept for inspection and re-driving.
    const tenMegabytes = decoded.filter((letter) => (letter.original_value?.length ?? 0) > TEN_MB);
    expect(tenMegabytes.length).toBe(6);
    expect(crashed).toBeNull();
  }, 180_000);
});
