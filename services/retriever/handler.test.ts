import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../runtime/logger.ts';
import { createMetricsRegistry, createSkillMetrics } from '../../runtime/metrics.ts';
import { retrieve } from './testing/retrieve.ts';
import type { RawResult, RetrievalRequest } from '../../schemas/messages.ts';
import { retrievalRequestFixture } from '../../test/fixtures/messages.ts';
import { createRetriever } from './handler.ts';
import { builtinSkills } from '../../domain/skills/builtin-skills.ts';
import { createSkillRegistry, type SkillRegistry } from '../../domain/skills/registry.ts';
import { parseRunId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';

let registry: SkillRegistry;
let root: string;

beforeAll(async () => {
  registry = await createSkillRegistry({ skills: builtinSkills(), adapters: 'live', env: {}, logger: createLogger({ level: 'silent' }), metrics: createSkillMetrics(createMetricsRegistry('test')) });
});

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-retriever-'));
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write('acme/topics/notes/notes/mine.md', '# Mine\n\nAcme notes about Kafka.');
  write('globex/topics/secret/notes/secret.md', '# Secret\n\nGLOBEX-SECRET plans.');
  write('globex/topics/secret/feeds/secret.xml', '<rss><channel><title>GLOBEX-SECRET</title></channel></rss>');
});

afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

function localRequest(overrides: Partial<RetrievalRequest> = {}): RetrievalRequest {
  return retrievalRequestFixture({
    topic_id: parseTopicId('notes'),
    capabilities: ['local_file'],
    intent: null,
    locations: { feeds: [], paths: ['notes'], urls: [], sites: [] },
    ...overrides,
  });
}



const markerOf = (messages: RawResult[], runId: string) => messages.find((message): message is Extract<RawResult, { kind: 'RUN_END' }> => message.kind === 'RUN_END' && message.run_id === runId)!;
const payloads = (messages: RawResult[]) => messages.map((message) => message.response?.payload ?? '').join('\n');

describe('retriever: a tenant reads only its own tree', () => {
  it('reads the topic\'s own notes', async () => {
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [localRequest()]);
    expect(payloads(messages)).toContain('Acme notes about Kafka.');
    expect(markerOf(messages, localRequest().run_id).run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'local_file', status: 'ok' }));
  });

  it.each([
    ['a notes path climbing into another tenant', () => localRequest({ locations: { feeds: [], paths: ['../../../globex/topics/secret/notes'], urls: [], sites: [] } }), 'local_file', 'BLOCKED_URL'],
    ['an absolute notes path', () => localRequest({ locations: { feeds: [], paths: [path.join(root, 'globex/topics/secret/notes')], urls: [], sites: [] } }), 'local_file', 'BLOCKED_URL'],
    ['a feed path climbing into another tenant', () => localRequest({ capabilities: ['rss_feed'], locations: { feeds: ['../../../globex/topics/secret/feeds/secret.xml'], paths: [], urls: [], sites: [] } }), 'feed_reader', 'BLOCKED_URL'],
    ['a notes folder that is a link into another tenant', () => {
      fs.symlinkSync(path.join(root, 'globex/topics/secret/notes'), path.join(root, 'acme/topics/notes/linked'));
      return localRequest({ locations: { feeds: [], paths: ['linked'], urls: [], sites: [] } });
    }, 'local_file', 'BLOCKED_URL'],
    ['a topic folder that is a link to another tenant\'s topic', () => {
      fs.symlinkSync(path.join(root, 'globex/topics/secret'), path.join(root, 'acme/topics/stolen'));
      return localRequest({ topic_id: parseTopicId('stolen') });
    }, 'tenant', 'BLOCKED_URL'],
  ])('refuses %s', async (_name, build, provider, code) => {
    const request = build();
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [request]);
    expect(payloads(messages)).not.toContain('GLOBEX-SECRET');
    expect(markerOf(messages, request.run_id).run_end.provider_status).toContainEqual(expect.objectContaining({ provider, status: 'error', code }));
  });

  it('skips a note that links into another tenant, keeping the rest', async () => {
    fs.symlinkSync(path.join(root, 'globex/topics/secret/notes/secret.md'), path.join(root, 'acme/topics/notes/notes/borrowed.md'));
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [localRequest()]);
    expect(payloads(messages)).toContain('Acme notes about Kafka.');
    expect(payloads(messages)).not.toContain('GLOBEX-SECRET');
    expect(payloads(messages)).toContain('links outside the local root');
  });
});

describe('retriever: tenant settings', () => {
  const writeTenant = (tenant: string, config: unknown) => fs.writeFileSync(path.join(root, tenant, 'tenant.json'), typeof config === 'string' ? config : JSON.stringify(config));

  it('closes runs past the daily quota with the quota status and no provider call; other tenants run', async () => {
    writeTenant('acme', { quotas: { requests_per_day: 2 } });
    const requests = ['run-a', 'run-b', 'run-c'].map((run_id) => localRequest({ run_id: parseRunId(run_id) }));
    const other = localRequest({ tenant: parseTenantId('globex'), topic_id: parseTopicId('secret'), run_id: parseRunId('run-globex') });
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [...requests, other]);
    const refused = markerOf(messages, 'run-c');
    expect(refused.run_end.provider_status).toEqual([expect.objectContaining({ provider: 'tenant', status: 'skipped', code: 'TENANT_QUOTA_EXCEEDED', message: 'quota exceeded: 3 requests today, limit 2', calls: 0 })]);
    expect(messages.filter((message) => message.run_id === 'run-c')).toHaveLength(1);
    for (const runId of ['run-a', 'run-b', 'run-globex']) expect(markerOf(messages, runId).run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'local_file', status: 'ok' }));
  });

  it('cuts the run to the tenant\'s items per run and records the cut', async () => {
    writeTenant('acme', { quotas: { items_per_run: 7 } });
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [localRequest()]);
    const marker = markerOf(messages, localRequest().run_id);
    expect(marker.request.max_items).toBe(7);
    expect(marker.run_end.provider_status).toContainEqual(expect.objectContaining({ provider: 'tenant', status: 'ok', message: 'items per run cut to 7 by the tenant quota (the request asked for 50)' }));
  });

  it.each([
    ['broken JSON', '{ "quotas": '],
    ['a reference to a variable of the operator', { credentials: { BRAVE_API_KEY: 'env:AWS_SECRET_ACCESS_KEY' } }],
  ])('closes the run without provider calls when tenant.json has %s', async (_name, config) => {
    writeTenant('acme', config);
    const messages = await retrieve(createRetriever({ registry, dataRoot: root }), [localRequest()]);
    expect(messages).toHaveLength(1);
    expect(markerOf(messages, localRequest().run_id).run_end.provider_status).toEqual([expect.objectContaining({ provider: 'tenant', status: 'error', code: 'CONFIG_INVALID' })]);
  });

  it('hands each request back as work finishing later, completed with the run\'s messages', async () => {
    const handler = createRetriever({ registry, dataRoot: root });
    const outcomes = await handler.handle({ topic: 'retrieval-requests', partition: 2, offset: '41', key: null, value: localRequest(), headers: {}, timestamp: '0' }, { heartbeat: async () => {}, signal: new AbortController().signal });
    expect(outcomes).toEqual([{ kind: 'later', completion: expect.any(Promise) }]);
    const completed = await outcomes[0]!.completion;
    expect(completed!.at(-1)).toMatchObject({ kind: 'emit', topic: 'raw-results', value: { kind: 'RUN_END', run_id: localRequest().run_id } });
  });
});
