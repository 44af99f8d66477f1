/**
 * Each stage started alone does only its own job, against the real broker: it reads its input topic,
 * writes its output topic, and nothing downstream happens. A provider response that cannot be
 * normalized is dead-lettered and its run still closes.
 */
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ingestDir } from '../../runtime/data-paths.ts';
import { parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import type { ServiceName } from '../../services/run-services.ts';
import type { TopicName } from '../../topics/topics.ts';
import { physicalTopic } from '../../topics/topics.ts';
import { rawResponseFixture, rawRunEndFixture } from '../fixtures/messages.ts';
import { createHarness, listFiles, readLatestIfRun, readTopic, waitFor, type Harness } from '../support/pipeline-harness.ts';

const KEY = topicKey({ tenant: parseTenantId('acme'), topicId: parseTopicId('ai-browser') });

const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Example</title>
<item><title>Kafka 4.1 released with faster KRaft controller failover</title><link>https://kafka.apache.org/blog/4-1</link>
<pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><description>The Apache Kafka 4.1 release shortens KRaft controller failover and removes old protocol versions.</description></item>
</channel></rss>`;

async function topicOffsets(harness: Harness, topic: TopicName): Promise<number> {
  const admin = harness.pipeline.kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(physicalTopic(harness.pipeline.port.naming, topic));
    return offsets.reduce((sum, partition) => sum + Number(partition.high), 0);
  } finally {
    await admin.disconnect();
  }
}

let harness: Harness | undefined;

afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('each stage alone', () => {
  it.each<[ServiceName, TopicName, TopicName]>([
    ['retriever', 'retrieval-requests', 'raw-results'],
    ['scorer', 'raw-results', 'scored-results'],
  ])('%s reads %s, writes %s, and nothing further happens', async (stage, _input, output) => {
    // One scoring worker whatever the machine's cores, so the scorer's worker metric is there to read.
    harness = await createHarness(`alone-${stage}`, stage === 'scorer' ? { SKRYA_SCORER_WORKERS: '1' } : {});
    harness.addTopic('acme', 'kafka-ops', 'kafka-ops');
    await harness.start([stage]);
    if (stage === 'retriever') await harness.request('acme', 'kafka-ops');
    else {
      const response = rawResponseFixture({ payload: RSS });
      await harness.publisher.publish('raw-results', KEY, { ...response, producer: { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } });
      await harness.publisher.publish('raw-results', KEY, rawRunEndFixture());
    }
    const produced = await readTopic(harness, output, 2);
    expect(produced.length).toBeGreaterThanOrEqual(2);
    const downstream: TopicName[] = (['scored-results', 'ingest-normalized', 'dead-letters'] as TopicName[]).filter((topic) => topic !== output);
    for (const topic of downstream) expect(await topicOffsets(harness, topic)).toBe(0);
    expect(listFiles(harness.dataRoot).filter((file) => file.includes('/runs/'))).toEqual([]);
    if (stage === 'scorer') {
      // The worker scored the response: its busy share since the service started is above zero.
      const busy = /skrya_worker_busy_ratio\{service="scorer",worker="0"\} (\S+)/.exec(await harness.pipeline.metrics.registry.metrics());
      expect(Number(busy?.[1])).toBeGreaterThan(0);
    }
  });

  it('collector alone turns scored items into one batch and writes no files', async () => {
    harness = await createHarness('alone-collector');
    await harness.start(['scorer']);
    const response = rawResponseFixture({ payload: RSS });
    await harness.publisher.publish('raw-results', KEY, { ...response, producer: { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } });
    await harness.publisher.publish('raw-results', KEY, rawRunEndFixture());
    await readTopic(harness, 'scored-results', 2);
    await harness.start(['collector']);
    const [batch] = await readTopic(harness, 'ingest-normalized', 1);
    const decoded = await harness.pipeline.port.serde.decode('ingest-normalized', batch!.value);
    expect(decoded.items.map((item) => item.title)).toEqual(['Kafka 4.1 released with faster KRaft controller failover']);
    expect(listFiles(harness.dataRoot)).toEqual([]);
  });
});

describe('a response that cannot be normalized', () => {
  it('is dead-lettered with NORMALIZE_FAILED and the run still closes', async () => {
    harness = await createHarness('normalize-failed');
    await harness.start(['scorer', 'collector', 'sink']);
    const broken = rawResponseFixture({ sequence: 0, payload: '<rss><channel><item><title>unterminated' });
    const good = rawResponseFixture({ sequence: 1, payload: RSS });
    const feedProducer = { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } as const;
    await harness.publisher.publish('raw-results', KEY, { ...broken, producer: { ...feedProducer, capabilities: ['rss_feed'] } });
    await harness.publisher.publish('raw-results', KEY, { ...good, producer: { ...feedProducer, capabilities: ['rss_feed'] } });
    await harness.publisher.publish('raw-results', KEY, rawRunEndFixture());

    const [letter] = await readTopic(harness, 'dead-letters', 1);
    const decoded = await harness.pipeline.port.serde.decode('dead-letters', letter!.value);
    expect(decoded).toMatchObject({ reason_code: 'NORMALIZE_FAILED', stage: 'scorer', tenant: 'acme' });

    const latestFile = `${ingestDir(harness.dataRoot, parseTenantId('acme'), parseTopicId('ai-browser'))}/latest-ingest.json`;
    const latest = await waitFor('latest-ingest.json', () => readLatestIfRun(latestFile));
    expect(latest.items).toHaveLength(1);
    expect(latest.stats).toMatchObject({ complete: true, normalize_failures: 1, raw_items: 1 });
    expect(fs.existsSync(latestFile)).toBe(true);
  });
});
