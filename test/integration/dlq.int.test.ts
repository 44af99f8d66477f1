/**
 * Dead letters against the real broker and registry, the way an operator meets them: a scorer
 * running an older, stricter contract dead-letters a valid response as SCHEMA_INVALID (and
 * garbage bytes as UNDECODABLE); `skrya dlq list` and `show` find them without moving any service
 * group; the scorer is fixed and restarted; `skrya dlq replay --code SCHEMA_INVALID` re-drives the
 * same bytes and headers, which now reach scored-results; a second replay re-drives nothing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SkryaError } from '../../runtime/errors.ts';
import { parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import { createLogger } from '../../runtime/logger.ts';
import { PRODUCER_CONFIG } from '../../runtime/publishers.ts';
import { startService, type RunningService } from '../../runtime/runner.ts';
import type { Serde } from '../../runtime/serde.ts';
import { runDlqList, runDlqReplay, runDlqShow, type DlqDeps } from '../../cli/commands/dlq.ts';
import { acquireRedriveLock, ledgerFile } from '../../services/dlq/redrive-ledger.ts';
import { createScorer } from '../../services/scorer/handler.ts';
import { consumerGroup, physicalTopic, type TopicName } from '../../topics/topics.ts';
import { rawResponseFixture } from '../fixtures/messages.ts';
import { createHarness, readTopic, runCli, type Harness } from '../support/pipeline-harness.ts';

const KEY = topicKey({ tenant: parseTenantId('acme'), topicId: parseTopicId('ai-browser') });
const RSS = `<?xml version="1.0"?><rss version="2.0"><channel><title>Notes</title>
<item><title>Kafka 4.1 released with faster KRaft controller failover</title><link>https://kafka.apache.org/blog/4-1</link>
<pubDate>Tue, 24 Nov 2026 10:00:00 GMT</pubDate><description>The Apache Kafka 4.1 release shortens KRaft controller failover.</description></item>
</channel></rss>`;

/** The bug being fixed: an older contract that wanted a URL on every provider response. */
function strictContract(serde: Serde): Serde {
  return {
    ...serde,
    async decode<T extends TopicName>(topic: T, bytes: Buffer) {
      const value = await serde.decode(topic, bytes);
      if (topic === 'raw-results' && (value as { response: { url: string | null } | null }).response?.url === null) {
        throw new SkryaError('SCHEMA_INVALID', 'raw-results message breaks its contract: response.url: required');
      }
      return value;
    },
  };
}

let harness: Harness;
let deps: DlqDeps;
let output: string[];
let strictScorer: RunningService | null = null;

async function highWatermark(topic: TopicName): Promise<number> {
  const admin = harness.pipeline.kafka.admin();
  await admin.connect();
  try {
    return (await admin.fetchTopicOffsets(physicalTopic(harness.pipeline.port.naming, topic))).reduce((sum, partition) => sum + Number(partition.high), 0);
  } finally {
    await admin.disconnect();
  }
}

async function scorerOffsets(): Promise<string> {
  const admin = harness.pipeline.kafka.admin();
  await admin.connect();
  try {
    const [topic] = await admin.fetchOffsets({ groupId: consumerGroup(harness.pipeline.port.naming, 'scorer'), topics: [physicalTopic(harness.pipeline.port.naming, 'raw-results')] });
    return JSON.stringify(topic?.partitions.map(({ partition, offset }) => [partition, offset]).sort());
  } finally {
    await admin.disconnect();
  }
}

beforeAll(async () => {
  harness = await createHarness('dlq');
  output = [];
  deps = { port: harness.pipeline.port, dataRoot: harness.dataRoot, write: (line) => output.push(line), now: () => new Date('2026-11-30T12:00:00Z') };
  const { pipeline } = harness;
  strictScorer = await startService({ service: 'scorer', kafka: pipeline.kafka, serde: strictContract(pipeline.port.serde), naming: pipeline.port.naming, logger: createLogger({ level: 'fatal' }), handler: createScorer() });
  await strictScorer.ready;

  const feedProducer = { kind: 'provider', name: 'feed_reader', persistent: true, capabilities: ['rss_feed'] } as const;
  // A local feed file: a valid response without a URL, which the strict contract refuses.
  await harness.publisher.publish('raw-results', KEY, { ...rawResponseFixture({ payload: RSS, url: null }), producer: { ...feedProducer, capabilities: ['rss_feed'] } }, { 'skrya-trace-id': 'trace-dlq-test' });
  const producer = pipeline.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  await producer.send({ topic: physicalTopic(pipeline.port.naming, 'raw-results'), acks: -1, messages: [{ key: KEY, value: Buffer.from('not avro at all'), headers: { 'skrya-tenant': 'acme' } }] });
  await producer.disconnect();
  await readTopic(harness, 'dead-letters', 2);
});

afterAll(async () => {
  await strictScorer?.stop();
  await harness?.close();
});

describe('skrya dlq', () => {
  it('lists every letter with its code, stage and source, and filters them, without moving the scorer group', async () => {
    const committed = await scorerOffsets();
    output.length = 0;
    const letters = await runDlqList(deps, {});
    expect(letters.map((stored) => [stored.letter.reason_code, stored.letter.stage, stored.letter.tenant, stored.letter.source_offset])).toEqual([
      ['SCHEMA_INVALID', 'scorer', 'acme', '0'],
      ['UNDECODABLE', 'scorer', 'acme', '1'],
    ]);
    expect(output[0]).toMatch(/^0:0 {2}\S+ {2}scorer {2}SCHEMA_INVALID {2}\S+raw-results\[\d\]@0 {2}acme {2}raw-results message breaks its contract/);

    for (const [filter, codes] of [
      [{ code: 'UNDECODABLE' }, ['UNDECODABLE']],
      [{ stage: 'collector' }, []],
      [{ tenant: 'globex' }, []],
      [{ limit: '1' }, ['UNDECODABLE']],
    ] as const) {
      expect((await runDlqList(deps, filter)).map((stored) => stored.letter.reason_code), JSON.stringify(filter)).toEqual(codes);
    }

    output.length = 0;
    await runDlqList(deps, { json: true });
    const json = JSON.parse(output.join('\n')) as { letters: Array<{ letter: string; key: string; redriven: unknown }>; matching: number };
    expect(json.matching).toBe(2);
    expect(json.letters[0]).toMatchObject({ letter: '0:0', key: KEY, redriven: null });
    expect(await scorerOffsets()).toBe(committed);
  });

  it('shows one letter in full: headers, the value as hex and as UTF-8', async () => {
    output.length = 0;
    await runDlqShow(deps, '0:1');
    const text = output.join('\n');
    expect(text).toContain('reason_code  UNDECODABLE');
    expect(text).toContain('  skrya-tenant: acme');
    expect(text).toContain('00000000  6e 6f 74 20 61 76 72 6f 20 61 74 20 61 6c 6c     |not avro at all|');
    expect(text).toContain('value as UTF-8\nnot avro at all');
    await expect(runDlqShow(deps, '0:99')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('re-drives the original bytes once the scorer is fixed, they reach scored-results, and a second replay re-drives nothing', async () => {
    // The fix: the scorer restarts with the current contract, in the same group, past both letters.
    await strictScorer!.stop();
    strictScorer = null;
    await harness.start(['scorer']);

    output.length = 0;
    const rawBefore = await highWatermark('raw-results');
    const dryRun = await runDlqReplay(deps, { code: 'SCHEMA_INVALID', dryRun: true });
    expect(dryRun.redrive.map((stored) => stored.letter.source_offset)).toEqual(['0']);
    expect(output[0]).toMatch(/^would re-drive 0:0 \(SCHEMA_INVALID, scorer\) to \S+raw-results$/);
    expect(await highWatermark('raw-results')).toBe(rawBefore);
    expect(fs.existsSync(ledgerFile(harness.dataRoot, physicalTopic(harness.pipeline.port.naming, 'dead-letters')))).toBe(false);

    const cli = await runCli(harness, ['dlq', 'replay', '--code', 'SCHEMA_INVALID']);
    expect(cli.stderr).toBe('');
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('1 re-driven, 0 already re-driven, 0 skipped');

    // The same key, value and headers as the message that was dead-lettered, at a new offset.
    const raw = await readTopic(harness, 'raw-results', 3);
    const [original, , redriven] = raw.sort((a, b) => Number(a.offset) - Number(b.offset));
    expect(redriven!.offset).toBe('2');
    expect(redriven!.key).toBe(original!.key);
    expect(redriven!.value.equals(original!.value)).toBe(true);
    expect(redriven!.headers).toEqual(original!.headers);
    expect(redriven!.headers['skrya-trace-id']).toBe('trace-dlq-test');

    const scored = await readTopic(harness, 'scored-results', 1);
    const decoded = await harness.pipeline.port.serde.decode('scored-results', scored[0]!.value);
    expect(decoded).toMatchObject({ kind: 'ITEM', tenant: 'acme', item: { title: 'Kafka 4.1 released with faster KRaft controller failover' } });
    expect(await highWatermark('dead-letters')).toBe(2);

    output.length = 0;
    const again = await runDlqReplay(deps, { code: 'SCHEMA_INVALID' });
    expect(again.redrive).toEqual([]);
    expect(again.skipped.map(({ stored, reason }) => [stored.offset, reason])).toEqual([['0', 'already-redriven']]);
    expect(output.at(-1)).toMatch(/^0 re-driven, 1 already re-driven, 0 skipped/);
    expect(await highWatermark('raw-results')).toBe(3);

    output.length = 0;
    await runDlqList(deps, {});
    expect(output[0]).toContain('(re-driven)');
    expect(output[1]).not.toContain('(re-driven)');
  });

  it('refuses a second re-drive while one holds the lock', async () => {
    const release = acquireRedriveLock(harness.dataRoot, physicalTopic(harness.pipeline.port.naming, 'dead-letters'));
    try {
      await expect(runDlqReplay(deps, {})).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    } finally {
      release();
    }
  });
});

describe('the skrya dlq command', () => {
  it.concurrent.each([
    { args: ['dlq', 'show', '3x'], text: 'not a letter address' },
    { args: ['dlq', 'list', '--code', 'schema_invalid'], text: 'not a reason code' },
    { args: ['dlq', 'list', '--limit', '0'], text: 'not a positive whole number' },
    { args: ['dlq', 'replay', '--tenant', 'Acme'], text: 'tenant id' },
  ])('$args exits 2', async ({ args, text }) => {
    const result = await runCli(harness, args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(text);
  });

  it('lists from the CLI', async () => {
    const result = await runCli(harness, ['dlq', 'list', '--code', 'UNDECODABLE']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(result.stdout).toContain('UNDECODABLE');
  });
});
