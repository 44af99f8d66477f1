/**
 * The publisher against the real broker and registry: several messages of a topic in one send each
 * reach the topic with their key, their Avro value and the headers a single publish gives them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HEADERS } from '../../runtime/headers.ts';
import { parseRunId, parseTopicId } from '../../runtime/ids.ts';
import { createPublisher, type Publisher } from '../../runtime/publishers.ts';
import { physicalTopic } from '../../topics/topics.ts';
import { createKafkaTestContext, readMessages, type KafkaTestContext } from '../support/kafka-context.ts';
import { retrievalRequestFixture } from '../fixtures/messages.ts';

let context: KafkaTestContext;
let publisher: Publisher;

beforeAll(async () => {
  context = await createKafkaTestContext('publisher');
  publisher = await createPublisher({ kafka: context.kafka, serde: context.serde, naming: context.naming, stage: 'test' });
});

afterAll(async () => {
  await publisher?.close();
  await context?.close();
});

describe('publishAll', () => {
  it('writes every message with its key, its Avro value and the standard headers, as publish does', async () => {
    const requests = ['rust-async', 'kafka-ops', 'ai-browser'].map((topicId, index) => retrievalRequestFixture({ topic_id: parseTopicId(topicId), run_id: parseRunId(`run-20260425t023000z-0000000${index}`) }));
    await publisher.publishAll('retrieval-requests', requests.map((request) => ({ key: `${request.tenant}/${request.topic_id}`, value: request })));
    await publisher.publish('retrieval-requests', 'acme/single', retrievalRequestFixture({ topic_id: parseTopicId('single') }));

    const messages = await readMessages(context.kafka, physicalTopic(context.naming, 'retrieval-requests'), 4);
    const byKey = new Map(messages.map((message) => [message.key, message]));
    for (const request of requests) {
      const message = byKey.get(`${request.tenant}/${request.topic_id}`);
      expect(message, request.topic_id).toBeDefined();
      expect(await context.serde.decode('retrieval-requests', message!.value)).toEqual(request);
      expect(message!.headers).toMatchObject({ [HEADERS.stage]: 'test', [HEADERS.tenant]: request.tenant, [HEADERS.topicId]: request.topic_id, [HEADERS.runId]: request.run_id });
    }
    // The same headers, by name, as a message published on its own.
    expect(Object.keys(byKey.get(`${requests[0]!.tenant}/${requests[0]!.topic_id}`)!.headers).sort()).toEqual(Object.keys(byKey.get('acme/single')!.headers).sort());
  });
});
