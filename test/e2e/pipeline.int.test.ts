/**
 * The pipeline end to end through the real Kafka and registry: sources.json → retriever → scorer →
 * collector → sink → latest-ingest.json, with its items, order, counts and validation drops; the
 * same raw input twice gives byte-identical files; tenants and topics stay in their own trees.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestDir } from '../../runtime/data-paths.ts';
import { parseTenantId, parseTopicId, topicKey } from '../../runtime/ids.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { createHarness, listFiles, readLatestIfRun, readTopic, waitFor, type Harness } from '../support/pipeline-harness.ts';

const ALL_CONSUMERS = ['retriever', 'scorer', 'collector', 'sink', 'sink-raw'] as const;

describe('sources.json to latest-ingest.json', () => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await createHarness('e2e');
    harness.addTopic('acme', 'rust-async', 'rust-async');
    harness.addTopic('acme', 'kafka-ops', 'kafka-ops');
    harness.addTopic('globex', 'rust-async', 'kafka-ops');
    await harness.start(ALL_CONSUMERS);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('ranks, validates and screens one run into latest-ingest.json', async () => {
    const request = await harness.request('acme', 'rust-async');
    const latest = await waitFor('latest-ingest.json of acme/rust-async', () => readLatestIfRun(harness.latest('acme', 'rust-async'), request.run_id));

    const titles = latest.items.map((item) => item.title);
    // Feed entries and the note, ranked by score; the untitled entry is dropped by validation
    // and the one instructing AI assistants by injection screening.
    expect(titles).toContain('Tokio 1.48 ships a faster multi-threaded scheduler for async Rust');
    expect(titles).toContain('Choosing an async runtime for the ingestion service');
    expect(titles).not.toContain('');
    expect(titles).not.toContain('Tokio tips for async Rust services');
    const scores = latest.items.map((item) => item.score as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(latest.items[0]!.canonical_url).toBe('https://github.com/tokio-rs/tokio/releases/tag/tokio-1.48.0');

    expect(latest.stats).toMatchObject({ raw_responses: 2, raw_items: 6, dropped: 2, complete: true });
    expect((latest.stats.accepted as number) + (latest.stats.downweighted as number) + (latest.stats.quarantined as number)).toBe(4);

    const dir = ingestDir(harness.dataRoot, parseTenantId('acme'), parseTopicId('rust-async'));
    const files = listFiles(dir);
    expect(files.filter((file) => file.startsWith('normalized/'))).toHaveLength(1);
    expect(files.filter((file) => file.startsWith('raw/'))).toHaveLength(2);
    expect(files).toContain('digest.md');
    expect(fs.readFileSync(path.join(dir, files.find((file) => file.startsWith('normalized/'))!), 'utf8')).toBe(fs.readFileSync(harness.latest('acme', 'rust-async'), 'utf8'));
  });

  it('keeps two tenants and two topics in their own trees', async () => {
    const requests = await Promise.all([harness.request('acme', 'kafka-ops'), harness.request('globex', 'rust-async')]);
    const kafkaOps = await waitFor('acme/kafka-ops', () => readLatestIfRun(harness.latest('acme', 'kafka-ops'), requests[0].run_id));
    const globex = await waitFor('globex/rust-async', () => readLatestIfRun(harness.latest('globex', 'rust-async'), requests[1].run_id));

    // globex/rust-async was given the kafka-ops sources: its items are Kafka items, never acme's Rust ones.
    expect(kafkaOps.items.map((item) => item.title)).toContain('KRaft migration: the last ZooKeeper clusters move in December');
    expect(globex.items.map((item) => item.title)).toEqual(kafkaOps.items.map((item) => item.title));
    expect(globex.items.every((item) => !String(item.title).includes('Tokio'))).toBe(true);

    const runFiles = listFiles(harness.dataRoot).filter((file) => file.includes('/runs/'));
    expect(new Set(runFiles.map((file) => file.split('/').slice(0, 3).join('/')))).toEqual(new Set(['acme/runs/rust-async', 'acme/runs/kafka-ops', 'globex/runs/rust-async']));
  });

  it('pushes the same raw input through the stages twice and writes byte-identical files', async () => {
    const firstRun = readLatestIfRun(harness.latest('acme', 'rust-async'))!;
    const raw = await readTopic(harness, 'raw-results', 7);
    const decoded = await Promise.all(raw.map((message) => harness.pipeline.port.serde.decode('raw-results', message.value)));
    const runMessages = decoded.filter((message: RawResult) => message.run_id === firstRun.run_id);
    expect(runMessages.map((message) => message.kind)).toEqual(['RESPONSE', 'RESPONSE', 'RUN_END']);

    const replay = await createHarness('e2e-replay');
    try {
      await replay.start(['scorer', 'collector', 'sink']);
      for (const message of runMessages) await replay.publisher.publish('raw-results', topicKey({ tenant: parseTenantId('acme'), topicId: parseTopicId('rust-async') }), message);
      await waitFor('replayed latest-ingest.json', () => readLatestIfRun(replay.latest('acme', 'rust-async'), firstRun.run_id));
      const original = ingestDir(harness.dataRoot, parseTenantId('acme'), parseTopicId('rust-async'));
      const again = ingestDir(replay.dataRoot, parseTenantId('acme'), parseTopicId('rust-async'));
      for (const file of listFiles(again)) expect(fs.readFileSync(path.join(again, file))).toEqual(fs.readFileSync(path.join(original, file)));
      expect(listFiles(again)).toEqual(listFiles(original).filter((file) => !file.startsWith('raw/')));
    } finally {
      await replay.close();
    }
  });
});
