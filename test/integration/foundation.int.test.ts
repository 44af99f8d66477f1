/**
 * The foundation against the real broker and registry: kafkajs works with this Kafka version
 * (produce, consume in a group, commit, create topics, transactions), Avro goes through the real
 * registry in the Confluent wire format, an independent client (kcat) reads it, poison input is
 * dead-lettered while the consumer keeps going, and the registry refuses incompatible schemas.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SchemaType } from '@kafkajs/confluent-schema-registry';
import { brokerList } from '../../runtime/config.ts';
import { emit } from '../../runtime/handler.ts';
import { HEADERS } from '../../runtime/headers.ts';
import { createTopicsServed } from '../../runtime/kafka.ts';
import { startService, type RunningService } from '../../runtime/runner.ts';
import { createSerde, type Serde } from '../../runtime/serde.ts';
import { isSkryaError } from '../../runtime/errors.ts';
import type { ScoredItem, ScoredResult } from '../../schemas/messages.ts';
import { physicalTopic, valueSubject, type TopicName } from '../../topics/topics.ts';
import { createKafkaTestContext, readMessages, type KafkaTestContext } from '../support/kafka-context.ts';
import { rawResponseFixture, retrievalRequestFixture, scoredItemMessageFixture } from '../fixtures/messages.ts';
import { parseRunId } from '../../runtime/ids.ts';

let context: KafkaTestContext;

beforeAll(async () => {
  context = await createKafkaTestContext('foundation');
});

afterAll(async () => {
  await context?.close();
});

describe('kafkajs against this broker', () => {
  it('creates topics, produces, consumes in a group and commits offsets', async () => {
    const topic = `${context.config.SKRYA_TOPIC_PREFIX}plain-${randomBytes(3).toString('hex')}`;
    await createTopicsServed(context.admin, [{ topic, numPartitions: 2, replicationFactor: 1 }]);
    expect(await context.admin.listTopics()).toContain(topic);

    const producer = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ key: 'k', value: 'one' }, { key: 'k', value: 'two' }, { key: 'k', value: 'three' }] });
    await producer.disconnect();

    const groupId = `group-${randomBytes(4).toString('hex')}`;
    const consumer = context.kafka.consumer({ groupId });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      void consumer.run({
        autoCommit: false,
        eachMessage: async ({ partition, message }) => {
          seen.push(message.value!.toString());
          await consumer.commitOffsets([{ topic, partition, offset: (BigInt(message.offset) + 1n).toString() }]);
          if (seen.length === 3) resolve();
        },
      });
    });
    await consumer.disconnect();
    expect(seen).toEqual(['one', 'two', 'three']);

    const committed = await context.admin.fetchOffsets({ groupId, topics: [topic] });
    const total = committed[0]!.partitions.reduce((sum, partition) => sum + Math.max(0, Number(partition.offset)), 0);
    expect(total).toBe(3);
  });

  it('runs a committed and an aborted transaction; read_committed sees only the committed one', async () => {
    const topic = `${context.config.SKRYA_TOPIC_PREFIX}tx-${randomBytes(3).toString('hex')}`;
    await createTopicsServed(context.admin, [{ topic, numPartitions: 1, replicationFactor: 1 }]);
    const producer = context.kafka.producer({ transactionalId: `tx-${randomBytes(4).toString('hex')}`, idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const aborted = await producer.transaction();
    await aborted.send({ topic, messages: [{ value: 'aborted' }] });
    await aborted.abort();
    const committed = await producer.transaction();
    await committed.send({ topic, messages: [{ value: 'committed' }] });
    await committed.commit();
    await producer.disconnect();

    const consumer = context.kafka.consumer({ groupId: `tx-reader-${randomBytes(4).toString('hex')}`, readUncommitted: false });
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    const values = await new Promise<string[]>((resolve) => {
      void consumer.run({ eachMessage: async ({ message }) => resolve([message.value!.toString()]) });
    });
    await consumer.disconnect();
    expect(values).toEqual(['committed']);
  });
});

describe('Avro through the real registry', () => {
  it('produces Avro in the Confluent wire format and consumes it back', async () => {
    const publisher = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await publisher.connect();
    const request = retrievalRequestFixture();
    const topic = physicalTopic(context.naming, 'retrieval-requests');
    await publisher.send({ topic, acks: -1, messages: [{ key: 'acme/ai-browser', value: await context.serde.encode('retrieval-requests', request) }] });
    await publisher.disconnect();

    const [message] = await readMessages(context.kafka, topic, 1);
    const registeredId = await context.registry.getLatestSchemaId(valueSubject(context.naming, 'retrieval-requests'));
    expect(message!.value[0]).toBe(0);
    expect(message!.value.readUInt32BE(1)).toBe(registeredId);
    expect(await context.serde.decode('retrieval-requests', message!.value)).toEqual(request);
  });

  it('an independent client (kcat) reads what Skrya wrote: magic byte 0, then the registry schema id', async () => {
    const kcat = spawnSync('kcat', ['-V'], { encoding: 'utf8' });
    expect(kcat.error, 'kcat is required for this test: apt-get install kcat (.ci/run installs it)').toBeUndefined();

    const topic = physicalTopic(context.naming, 'raw-results');
    const producer = context.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    await producer.send({ topic, acks: -1, messages: [{ key: 'acme/ai-browser', value: await context.serde.encode('raw-results', rawResponseFixture()) }] });
    await producer.disconnect();

    const read = spawnSync('kcat', ['-b', brokerList(context.config)[0]!, '-C', '-t', topic, '-o', 'beginning', '-c', '1', '-e', '-q', '-f', '%s'], { timeout: 30_000 });
    expect(read.status).toBe(0);
    const bytes = read.stdout;
    expect(bytes[0]).toBe(0);
    expect(bytes.readUInt32BE(1)).toBe(context.serde.schemaId('raw-results'));
    expect(await context.registry.getLatestSchemaId(valueSubject(context.naming, 'raw-results'))).toBe(context.serde.schemaId('raw-results'));
  });

  it('writes byte for byte what the registry client writes, for small messages and past its 64 KB buffer', async () => {
    const large = rawResponseFixture({ payload: `<rss version="2.0"><channel><title>${'é'.repeat(70_000)}</title></channel></rss>` });
    const cases: Array<[TopicName, unknown]> = [['retrieval-requests', retrievalRequestFixture()], ['raw-results', rawResponseFixture()], ['scored-results', scoredItemMessageFixture()], ['raw-results', large], ['raw-results', rawResponseFixture()]];
    for (const [topic, value] of cases) {
      const ours = await context.serde.encode(topic, value as never);
      expect(ours.equals(await context.registry.encode(context.serde.schemaId(topic), value)), topic).toBe(true);
      expect(await context.serde.decode(topic, ours)).toEqual(value);
    }
  });

  it('refuses a value its Avro type cannot hold, naming the field', async () => {
    const fixture = scoredItemMessageFixture() as Extract<ScoredResult, { kind: 'ITEM' }>;
    const tooLarge = { ...fixture, item: { ...fixture.item, position: 2 ** 40 } };
    await expect(context.serde.encode('scored-results', tooLarge)).rejects.toMatchObject({ code: 'SCHEMA_INVALID', message: expect.stringMatching(/Avro encoding of a scored-results message failed at .*position/) });
  });

  it('subjects are BACKWARD_TRANSITIVE and the registry refuses an incompatible change', async () => {
    const subject = valueSubject(context.naming, 'retrieval-requests');
    const config = await fetch(`${context.config.SKRYA_REGISTRY_URL}/config/${subject}`).then((response) => response.json() as Promise<{ compatibilityLevel: string }>);
    expect(config.compatibilityLevel).toBe('BACKWARD_TRANSITIVE');

    // Retyping a field (max_items int → string) breaks every reader of the old data.
    const incompatible = JSON.parse(JSON.stringify((await import('../../schemas/avro.ts')).retrievalRequestAvro)) as { fields: Array<{ name: string; type: unknown }> };
    incompatible.fields.find((field) => field.name === 'max_items')!.type = 'string';
    await expect(context.registry.register({ type: SchemaType.AVRO, schema: JSON.stringify(incompatible) }, { subject, compatibility: 'BACKWARD_TRANSITIVE' as never }))
      .rejects.toMatchObject({ status: 409 });

    // Re-registering the same schema is idempotent: the same id comes back.
    const again = await createSerde({ registry: context.registry, registryUrl: context.config.SKRYA_REGISTRY_URL, naming: context.naming, topics: ['retrieval-requests'] });
    expect(again.schemaId('retrieval-requests')).toBe(context.serde.schemaId('retrieval-requests'));
  });
});

describe('serde.relay against the real registry', () => {
  const message = (item: Partial<ScoredItem>): ScoredResult => {
    const fixture = scoredItemMessageFixture() as Extract<ScoredResult, { kind: 'ITEM' }>;
    return { ...fixture, item: { ...fixture.item, ...item } };
  };
  /** What relay gives, or the code it fails with, beside the same for the bytes' round trip. */
  async function bothWays(serde: Serde, value: ScoredResult): Promise<[unknown, unknown]> {
    const outcome = (work: () => Promise<unknown>) => work().catch((error: unknown) => (isSkryaError(error) ? error.code : error));
    return [await outcome(() => serde.relay('scored-results', value)), await outcome(async () => serde.decode('scored-results', await serde.encode('scored-results', value)))];
  }

  it.each<[string, Partial<ScoredItem>]>([
    ['a message the bytes keep as it is', {}],
    ['a long string with a lone surrogate (the UTF-8 bytes hold U+FFFD)', { content: `${'a'.repeat(80)}\uD83D` }],
    ['a short string with a lone surrogate (the Avro writer leaves bytes no decoder accepts)', { title: 'cut \uD83D' }],
    ['a negative zero in an int field (read back as 0)', { position: -0 }],
    ['a number the Avro int cannot hold', { position: 2 ** 40 }],
    ['a message breaking the contract', { content_hash: 'not hex' }],
  ])('gives what the bytes would: %s', async (_case, item) => {
    const [relayed, decoded] = await bothWays(context.serde, message(item));
    expect(relayed).toStrictEqual(decoded);
    if (typeof decoded === 'object') expect(Object.is((relayed as Extract<ScoredResult, { kind: 'ITEM' }>).item.position, (decoded as Extract<ScoredResult, { kind: 'ITEM' }>).item.position)).toBe(true);
  });

  it('hands over a copy, as a decode does', async () => {
    const value = message({});
    const relayed = await context.serde.relay('scored-results', value);
    expect(relayed).toEqual(value);
    expect(relayed).not.toBe(value);
    expect((relayed as Extract<ScoredResult, { kind: 'ITEM' }>).item.sources).not.toBe((value as Extract<ScoredResult, { kind: 'ITEM' }>).item.sources);
  });
});

describe('the runner with poison input', () => {
  let service: RunningService | undefined;
  let poison: KafkaTestContext;

  beforeAll(async () => {
    poison = await createKafkaTestContext('poison');
  });

  afterAll(async () => {
    await service?.stop();
    await poison?.close();
  });

  it('dead-letters random bytes, a foreign schema id and a contract breach with reason codes, and keeps consuming', async () => {
    // A pass-through service: each request becomes one raw-results run-end marker.
    service = await startService({
      service: 'passthrough',
      kafka: poison.kafka,
      serde: poison.serde,
      naming: poison.naming,
      logger: poison.logger,
      handler: {
        input: 'retrieval-requests',
        handle: ({ value }) => [emit('raw-results', `${value.tenant}/${value.topic_id}`, {
          ...rawResponseFixture(),
          run_id: value.run_id,
        })],
      },
    });
    await service.ready;

    const topic = physicalTopic(poison.naming, 'retrieval-requests');
    const producer = poison.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const foreignSchema = Buffer.concat([Buffer.from([0, 0x7f, 0xff, 0xff, 0xf0]), randomBytes(20)]);
    const breach = await poison.serde.encode('raw-results', rawResponseFixture());
    await producer.send({
      topic,
      acks: -1,
      messages: [
        { key: 'acme/ai-browser', value: Buffer.concat([Buffer.from([0xff]), randomBytes(63)]) },
        { key: 'acme/ai-browser', value: foreignSchema },
        { key: 'acme/ai-browser', value: breach },
        { key: 'acme/ai-browser', value: await poison.serde.encode('retrieval-requests', retrievalRequestFixture({ run_id: parseRunId('run-after-poison') })) },
      ],
    });
    await producer.disconnect();

    const deadLetters = await readMessages(poison.kafka, physicalTopic(poison.naming, 'dead-letters'), 3);
    const decoded = await Promise.all(deadLetters.map((message) => poison.serde.decode('dead-letters', message.value)));
    const codeAt = (offset: string) => decoded.find((letter) => letter.source_offset === offset)?.reason_code;
    expect([codeAt('0'), codeAt('1'), codeAt('2')]).toEqual(['UNDECODABLE', 'UNKNOWN_SCHEMA', 'UNDECODABLE']);
    expect(decoded.every((letter) => letter.stage === 'passthrough' && letter.source_topic === topic)).toBe(true);
    expect(decoded.find((letter) => letter.source_offset === '0')?.original_value?.length).toBe(64);

    const [output] = await readMessages(poison.kafka, physicalTopic(poison.naming, 'raw-results'), 1);
    expect((await poison.serde.decode('raw-results', output!.value)).run_id).toBe('run-after-poison');
    expect(output!.headers[HEADERS.stage]).toBe('passthrough');
    expect(output!.headers[HEADERS.tenant]).toBe('acme');
  });
});

describe('the runner with a handler that prepares ahead', () => {
  let ahead: KafkaTestContext;
  let service: RunningService | undefined;

  beforeAll(async () => {
    ahead = await createKafkaTestContext('prepare-ahead');
  });

  afterAll(async () => {
    await service?.stop();
    await ahead?.close();
  });

  it('hands each decodable input of a batch to prepare before its turn, handles them one at a time in order, and still dead-letters poison', async () => {
    // Produced before the service starts, so its first fetch holds them all: one batch.
    const producer = ahead.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    await producer.connect();
    const request = async (index: number) => ({ key: 'acme/ai-browser', value: await ahead.serde.encode('retrieval-requests', retrievalRequestFixture({ run_id: parseRunId(`run-ahead-${index}`) })) });
    await producer.send({
      topic: physicalTopic(ahead.naming, 'retrieval-requests'),
      acks: -1,
      messages: [await request(0), await request(1), await request(2), { key: 'acme/ai-browser', value: randomBytes(40) }, await request(4), await request(5)],
    });
    await producer.disconnect();

    const events: string[] = [];
    let handling = false;
    service = await startService({
      service: 'prepare-ahead',
      kafka: ahead.kafka,
      serde: ahead.serde,
      naming: ahead.naming,
      logger: ahead.logger,
      handler: {
        input: 'retrieval-requests',
        prepare: ({ offset }) => {
          events.push(`prepare ${offset}`);
        },
        handle: async ({ value, offset }) => {
          // One at a time: a second handle while one is still going would see this set.
          if (handling) events.push(`overlap ${offset}`);
          handling = true;
          events.push(`handle ${offset}`);
          await new Promise((resolve) => setImmediate(resolve));
          handling = false;
          return [emit('raw-results', `${value.tenant}/${value.topic_id}`, { ...rawResponseFixture(), run_id: value.run_id })];
        },
      },
    });

    const outputs = await readMessages(ahead.kafka, physicalTopic(ahead.naming, 'raw-results'), 5);
    const runIds = await Promise.all(outputs.map(async (message) => (await ahead.serde.decode('raw-results', message.value)).run_id));
    expect(runIds).toEqual(['run-ahead-0', 'run-ahead-1', 'run-ahead-2', 'run-ahead-4', 'run-ahead-5']);
    const [letter] = await readMessages(ahead.kafka, physicalTopic(ahead.naming, 'dead-letters'), 1);
    expect((await ahead.serde.decode('dead-letters', letter!.value)).reason_code).toBe('UNDECODABLE');

    expect(events.filter((event) => event.startsWith('handle'))).toEqual(['handle 0', 'handle 1', 'handle 2', 'handle 4', 'handle 5']);
    expect(events.filter((event) => event.startsWith('overlap'))).toEqual([]);
    for (const offset of ['0', '1', '2', '4', '5']) {
      expect(events).toContain(`prepare ${offset}`);
      expect(events.indexOf(`prepare ${offset}`)).toBeLessThan(events.indexOf(`handle ${offset}`));
    }
    expect(events).not.toContain('prepare 3');
    // Ahead of its turn: the last input was prepared before the one before it was handled.
    expect(events.indexOf('prepare 5')).toBeLessThan(events.indexOf('handle 4'));
  });
});
