/**
 * The operator's view in a real browser against a real stack: Debian's Chromium driven by
 * playwright-core (no browser download), the UI server on Fastify reading the data tree, the real
 * broker and the real registry. Two tenants run their topics through every service; a poison
 * message becomes a dead letter; a replay is written by the real CLI. Every page is loaded and its
 * content checked against what the pipeline wrote (items, verdicts, drops, lag, the dead letter,
 * schema versions, the replay diff); screenshots go to docs/screenshots/latest/. Then access:
 * no token, a wrong token, a tenant token (its tenant only), the operator token, and ids and raw
 * file names that try to leave the data tree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTopicFolder } from '../../cli/commands/topic.ts';
import { readConsumerLag } from '../../runtime/consumer-lag.ts';
import { ingestDir, topicDir } from '../../runtime/data-paths.ts';
import { createLogger } from '../../runtime/logger.ts';
import { PRODUCER_CONFIG } from '../../runtime/publishers.ts';
import { consumerGroup, physicalTopic } from '../../topics/topics.ts';
import { createAccessPolicy } from '../../ui/access.ts';
import { createKafkaReaders } from '../../ui/data/kafka-readers.ts';
import { runStamps } from '../../ui/data/run-files.ts';
import { startUiServer, TOKEN_COOKIE, type UiServer } from '../../ui/server.ts';
import { chromiumPath } from '../support/chromium.ts';
import { codeOf } from '../support/error-code.ts';
import { createHarness, readLatestIfRun, readTopic, runCli, waitFor, type Harness } from '../support/pipeline-harness.ts';
import { parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const SAMPLE_TOPIC = fileURLToPath(new URL('../../examples/ai-browser', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../docs/screenshots/latest', import.meta.url));
const OPERATOR_TOKEN = 'operator-token-for-the-ui-test';
const ACME_TOKEN = 'acme-tenant-token-for-the-ui-test';
/** Each browser step is bounded, so a page that never settles fails the test instead of hanging CI. */
const STEP_TIMEOUT_MS = 30_000;

interface Latest {
  run_id: string;
  run_requested_at: string;
  items: Array<{ title: string; verdict: string; injection: { evidence: Array<{ rule: string }> }; sources: Array<{ provider: string }> }>;
  stats: { kept: number; accepted: number; downweighted: number; quarantined: number; dropped: number };
}

let harness: Harness;
let server: UiServer;
let browser: Browser;
let demo: Latest;
let acme: Latest;
let replayId: string;
const pageErrors: string[] = [];
const offsiteRequests: string[] = [];

async function openPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  page.on('pageerror', (error) => pageErrors.push(error.message));
  // A Content-Security-Policy violation or a missing asset shows up as a console error.
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  // Offline: anything not served by the UI itself is refused and recorded.
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.origin === new URL(server.url).origin) return route.continue();
    offsiteRequests.push(url.href);
    return route.abort();
  });
  return page;
}

async function visit(page: Page, pathname: string, screenshot?: string): Promise<string> {
  const response = await page.goto(new URL(pathname, server.url).href);
  expect(response?.status()).toBe(200);
  if ((await page.locator('canvas.chart-canvas').count()) > 0) await page.waitForSelector('html[data-charts-ready="true"]');
  if (screenshot) await page.screenshot({ path: path.join(SCREENSHOTS, `${screenshot}.png`), fullPage: true });
  return page.locator('main').innerText();
}

function get(pathname: string, token?: string): Promise<Response> {
  return fetch(new URL(pathname, server.url), { redirect: 'manual', headers: token === undefined ? {} : { authorization: `Bearer ${token}` } });
}

beforeAll(async () => {
  harness = await createHarness('ui');
  copyTopicFolder(SAMPLE_TOPIC, topicDir(harness.dataRoot, parseTenantId('demo'), parseTopicId('ai-browser')));
  harness.addTopic('acme', 'kafka-ops', 'kafka-ops');
  // A tenant with a daily limit: its runs are claimed on tenant-usage, which the fleet page counts.
  fs.writeFileSync(path.join(harness.dataRoot, 'acme', 'tenant.json'), JSON.stringify({ quotas: { requests_per_day: 5 } }));
  const startedAt = Date.now();
  await harness.start(['retriever', 'scorer', 'collector', 'sink', 'sink-raw']);

  const demoRequest = await harness.request('demo', 'ai-browser');
  // Requested now, so its quota claim counts today, the day the fleet page shows.
  const acmeRequest = await harness.request('acme', 'kafka-ops', { since: '2026-11-01T00:00:00Z', until: new Date().toISOString() });
  demo = (await waitFor('the demo run', () => readLatestIfRun(harness.latest('demo', 'ai-browser'), demoRequest.run_id), 120_000)) as unknown as Latest;
  acme = (await waitFor('the acme run', () => readLatestIfRun(harness.latest('acme', 'kafka-ops'), acmeRequest.run_id), 120_000)) as unknown as Latest;

  // Bytes no stage can decode: the scorer dead-letters them as UNDECODABLE and moves on.
  const producer = harness.pipeline.kafka.producer(PRODUCER_CONFIG);
  await producer.connect();
  await producer.send({ topic: physicalTopic(harness.pipeline.port.naming, 'raw-results'), acks: -1, messages: [{ key: 'demo/ai-browser', value: Buffer.from('not avro at all') }] });
  await producer.disconnect();
  await readTopic(harness, 'dead-letters', 1);

  const replay = await runCli(harness, ['replay', '--tenant', 'demo', '--topic', 'ai-browser', '--since', new Date(startedAt - 60_000).toISOString(), '--until', new Date().toISOString()]);
  expect(replay.code, replay.stderr).toBe(0);
  replayId = fs.readdirSync(path.join(harness.dataRoot, 'demo', 'runs', 'ai-browser', 'replays'))[0]!;

  server = await startUiServer({ ...serverOptions(), access: createAccessPolicy({ host: '127.0.0.1', operatorToken: OPERATOR_TOKEN, tenantTokens: `acme=${ACME_TOKEN}` }), port: 0 });
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox'], timeout: STEP_TIMEOUT_MS });
  // Two runs through every service, a dead letter and a replay on a shared two-core machine: bounded, not fast.
}, 480_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await harness?.close();
});

describe('the operator view in Chromium (operator token)', () => {
  let page: Page;
  beforeAll(async () => {
    page = await openPage();
    // The sign-in link: the token moves into an HttpOnly cookie and out of the address bar.
    await page.goto(new URL(`/?token=${OPERATOR_TOKEN}`, server.url).href);
    expect(new URL(page.url()).search).toBe('');
    const cookie = (await page.context().cookies()).find((entry) => entry.name === TOKEN_COOKIE);
    expect(cookie?.httpOnly).toBe(true);
  });

  it('Fleet: both tenants, their topics with cadence and last run counts, sources that cannot be connected, quota use', async () => {
    const text = await visit(page, '/', 'fleet');
    expect(text).toContain('Tenant demo');
    expect(text).toContain('Tenant acme');
    const demoRow = page.locator('tr[data-topic="demo/ai-browser"]');
    const cells = await demoRow.locator('td').allInnerTexts();
    expect(cells[1]).toBe('0 */6 * * *');
    expect(cells.slice(4, 8).map(Number)).toEqual([demo.stats.kept, demo.stats.downweighted, demo.stats.quarantined, demo.stats.dropped]);
    expect(cells[8]).toMatch(/not_connected brave_web_search \(web_search\) cannot be connected automatically/);
    expect(await page.locator('.quota[data-tenant="acme"]').innerText()).toMatch(/^runs today: 1 of 5 a day/);
    expect(await page.locator('.quota[data-tenant="demo"]').innerText()).toContain('no daily request limit');
  });

  it('Run report: ranked items in order with verdicts, merged copies, the quarantined item\'s evidence, drops with reasons, raw responses', async () => {
    const stamp = runStamps(harness.dataRoot, parseTenantId('demo'), parseTopicId('ai-browser')).at(-1)!;
    const text = await visit(page, `/t/demo/ai-browser/runs/${stamp}`, 'run-report');
    const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
    expect((await page.locator('table.items .item-title').allInnerTexts()).map(oneLine)).toEqual(demo.items.map((item) => oneLine(item.title)));
    const verdicts = await page.locator('table.items tbody tr td:nth-child(5) .badge').allInnerTexts();
    expect(verdicts).toEqual(demo.items.map((item) => item.verdict));
    expect(await page.locator('[data-count="quarantined"]').innerText()).toBe(String(demo.stats.quarantined));
    expect(text).toContain('Tabwise');
    // The quarantined item is shown boxed as untrusted, with the rules that flagged it.
    const quarantined = demo.items.find((item) => item.verdict === 'quarantined')!;
    const card = page.locator('section.screened', { hasText: quarantined.title });
    expect(await card.locator('.untrusted').count()).toBeGreaterThan(0);
    for (const evidence of quarantined.injection.evidence) expect(await card.innerText()).toContain(evidence.rule);
    // Drops come from scored-results, with their reasons.
    const drops = page.locator('tr[data-drop]');
    expect(await drops.count()).toBe(demo.stats.dropped);
    const dropText = await page.locator('table.drops').innerText();
    expect(dropText).toContain('INJECTION_DROP');
    expect(dropText).toContain('MISSING_TITLE');
    expect(text).toContain('Merged duplicates');
    // Every merged item names its copies; one merge crosses providers (the analyst's note and the
    // vendor's post about agent permissions). Which copy leads follows the scores, so it is read
    // from the run, not assumed.
    const merged = demo.items.filter((item) => item.sources.length > 1);
    expect(merged.some((item) => new Set(item.sources.map((source) => source.provider)).size > 1)).toBe(true);
    for (const item of merged) expect(oneLine(text)).toContain(`${oneLine(item.title)} — ${item.sources.length} copies`);
    // A raw response opens as plain text.
    const rawLink = page.locator('ul.raw-files a').first();
    const rawName = await rawLink.innerText();
    const raw = await page.request.get(new URL(`/t/demo/ai-browser/raw/${rawName}`, server.url).href);
    expect(raw.headers()['content-type']).toContain('text/plain');
    expect(await raw.text()).toContain(`run: ${demo.run_id}`);
  });

  it('Pipeline health: lag per stage and partition as the broker reports it, the dead letter with its reason code, schema versions', async () => {
    const text = await visit(page, '/health', 'pipeline-health');
    const [scorerLag] = await readConsumerLag(harness.pipeline.kafka, [consumerGroup(harness.pipeline.port.naming, 'scorer')]);
    for (const partition of scorerLag!.partitions) {
      const row = page.locator(`tr[data-service="scorer"][data-partition="${partition.partition}"]`);
      const cells = await row.locator('td').allInnerTexts();
      expect(cells[2]).toBe(partition.topic);
      expect(Number(cells[5])).toBe(Number(partition.end));
      expect(Number(cells[6])).toBeGreaterThanOrEqual(0);
    }
    expect(await page.locator('tr.lag-total[data-service="sink"]').count()).toBe(1);
    // The poison message reached both stages that read raw-results: one letter each.
    const { letters } = await harness.pipeline.port.readDeadLetters();
    const undecodable = letters.filter((stored) => stored.letter.reason_code === 'UNDECODABLE');
    expect(undecodable.map((stored) => stored.letter.stage).sort()).toEqual(['scorer', 'sink-raw']);
    expect(await page.locator('tr[data-code="UNDECODABLE"] td.num').innerText()).toBe(String(undecodable.length));
    for (const stored of undecodable) {
      const letter = await page.locator(`tr[data-letter="${stored.partition}:${stored.offset}"]`).innerText();
      expect(letter).toContain(stored.letter.stage);
      expect(letter).toContain(`${physicalTopic(harness.pipeline.port.naming, 'raw-results')}[${stored.letter.source_partition}]@${stored.letter.source_offset}`);
    }
    expect(await page.locator(`tr[data-subject="${physicalTopic(harness.pipeline.port.naming, 'raw-results')}-value"] td:nth-child(2)`).innerText()).toMatch(/^\d+(, \d+)*$/);
    expect(text).toContain('consumer lag over time');
  });

  it('Replays: the list and the diff view', async () => {
    const list = await visit(page, '/replays', 'replays');
    expect(list).toContain(replayId);
    const diff = await visit(page, `/t/demo/ai-browser/replays/${replayId}`, 'replay-diff');
    expect(diff).toContain(demo.run_id);
    expect(diff).toMatch(/\d+ raw results read/);
  });

  it('Topic page: the runs with their status, and the charts drew without a script or CSP error, nothing fetched from elsewhere', async () => {
    const text = await visit(page, '/t/acme/kafka-ops');
    expect(text).toContain(acme.run_id);
    expect(await page.locator('canvas#items-over-time').count()).toBe(1);
    expect(pageErrors).toEqual([]);
    expect(offsiteRequests).toEqual([]);
  });
});

describe('access', () => {
  it('asks for a token on every page when one is configured, even on loopback', async () => {
    for (const pathname of ['/', '/health', '/replays', '/t/demo/ai-browser']) expect((await get(pathname)).status).toBe(401);
    expect((await get('/', 'wrong-token-of-the-right-length')).status).toBe(401);
    expect((await get('/?token=wrong-token-of-the-right-length')).status).toBe(401);
    const assets = await get('/assets/chart.umd.min.js');
    expect(assets.status).toBe(200);
  });

  it('lets a tenant token see its own tenant only', async () => {
    const fleet = await (await get('/', ACME_TOKEN)).text();
    expect(fleet).toContain('Tenant acme');
    expect(fleet).not.toContain('Tenant demo');
    expect((await get('/t/acme/kafka-ops', ACME_TOKEN)).status).toBe(200);
    const stamp = runStamps(harness.dataRoot, parseTenantId('demo'), parseTopicId('ai-browser')).at(-1)!;
    for (const pathname of ['/t/demo/ai-browser', `/t/demo/ai-browser/runs/${stamp}`, `/t/demo/ai-browser/replays/${replayId}`, '/health']) {
      expect((await get(pathname, ACME_TOKEN)).status, pathname).toBe(403);
    }
    const rawName = fs.readdirSync(path.join(ingestDir(harness.dataRoot, parseTenantId('demo'), parseTopicId('ai-browser')), 'raw'))[0]!;
    expect((await get(`/t/demo/ai-browser/raw/${rawName}`, ACME_TOKEN)).status).toBe(403);
    expect(await (await get('/replays', ACME_TOKEN)).text()).not.toContain(replayId);
  });

  it('shows a tenant its fleet in the browser too', async () => {
    const page = await openPage();
    await page.goto(new URL(`/?token=${ACME_TOKEN}`, server.url).href);
    expect(await page.locator('section.tenant').evaluateAll((sections) => sections.map((section) => section.getAttribute('data-tenant')))).toEqual(['acme']);
    expect(await page.locator('header .viewer').innerText()).toContain('tenant acme');
    await page.close();
  });

  it('refuses ids and raw file names that try to leave the data tree, before reading anything', async () => {
    for (const pathname of [
      '/t/demo/ai-browser/raw/..%2F..%2F..%2Facme%2Ftenant.json',
      '/t/demo/ai-browser/raw/latest-ingest.json',
      '/t/..%2Facme/kafka-ops',
      '/t/demo/ai-browser/runs/..%2Flatest-ingest',
      '/t/demo/ai-browser/replays/..%2F..',
      '/t/Demo/ai-browser',
    ]) {
      expect((await get(pathname, OPERATOR_TOKEN)).status, pathname).toBe(400);
    }
  });

  it('sends headers that keep pages from being framed, sniffed or given outside scripts', async () => {
    const response = await get('/', OPERATOR_TOKEN);
    expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('binding', () => {
  it('refuses to serve beyond loopback without a token; on loopback without tokens it is open', async () => {
    expect(codeOf(() => createAccessPolicy({ host: '0.0.0.0', operatorToken: '', tenantTokens: '' }))).toBe('CONFIG_INVALID');
    const open = await startUiServer({ ...serverOptions(), access: createAccessPolicy({ host: '127.0.0.1', operatorToken: '', tenantTokens: '' }), port: 0 });
    try {
      expect(new URL(open.url).hostname).toBe('127.0.0.1');
      expect((await fetch(open.url)).status).toBe(200);
    } finally {
      await open.close();
    }
  });
});

function serverOptions() {
  return {
    dataRoot: harness.dataRoot,
    readers: createKafkaReaders({ port: harness.pipeline.port, registryUrl: harness.pipeline.config.SKRYA_REGISTRY_URL }),
    logger: createLogger({ level: 'warn', name: 'ui-test' }),
    host: '127.0.0.1',
  };
}
