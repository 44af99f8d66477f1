/**
 * The operator's view (`skrya ui`, `skrya run … --ui PORT`): a read-only web app on Fastify. Pages
 * are rendered on the server from the data tree and from Kafka (through runtime/); the only
 * scripts are Chart.js, served from node_modules, and a small client script. Loopback by default;
 * beyond it a token is required (ui/access.ts). Every response forbids framing, sniffing and any
 * script or style from elsewhere.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { listTopics } from '../runtime/data-paths.ts';
import { describeError, isSkryaError } from '../runtime/errors.ts';
import { isReplayId, isTenantId, isTopicId, type TopicRef } from '../runtime/ids.ts';
import type { Logger } from '../runtime/logger.ts';
import type { Pipeline } from '../runtime/pipeline.ts';
import { canSeeTenant, createAccessPolicy, type AccessPolicy, type Viewer } from './access.ts';
import { loadFleet } from './data/fleet.ts';
import { createKafkaReaders, type KafkaReaders } from './data/kafka-readers.ts';
import { createLagHistory } from './data/lag-history.ts';
import { latestGoodStamp, listReplays, rawFilesOfRun, readDigest, readRawFile, readReplay, readRun, recentRuns, RUN_STAMP } from './data/run-files.ts';
import { html } from './html.ts';
import { fleetPage } from './pages/fleet-page.ts';
import { healthPage, type Loaded } from './pages/health-page.ts';
import { page } from './pages/layout.ts';
import { replayDiffPage, replaysPage } from './pages/replays-page.ts';
import { runPage, type DropsResult } from './pages/run-page.ts';
import { topicPage } from './pages/topic-page.ts';

declare module 'fastify' {
  interface FastifyRequest {
    viewer: Viewer;
  }
}

export const TOKEN_COOKIE = 'skrya_ui_token';
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
/** How often the lag history is sampled while the view runs (and on every health page load). */
const LAG_SAMPLE_MS = 15_000;

export interface UiOptions {
  dataRoot: string;
  readers: KafkaReaders;
  access: AccessPolicy;
  logger: Logger;
  host: string;
  port: number;
  now?: () => Date;
}

export interface UiServer {
  url: string;
  close(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const ASSETS: Record<string, { file: string; type: string }> = {
  'chart.umd.min.js': { file: path.join(path.dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js'), type: 'text/javascript; charset=utf-8' },
  'ui.js': { file: path.join(here, 'assets', 'ui.js'), type: 'text/javascript; charset=utf-8' },
  'ui.css': { file: path.join(here, 'assets', 'ui.css'), type: 'text/css; charset=utf-8' },
};

function cookieToken(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='));
  }
  return null;
}

function presentedToken(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) return authorization.slice('Bearer '.length).trim();
  return cookieToken(request.headers.cookie);
}

async function settle<T>(read: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { value: await read(), problem: null };
  } catch (error) {
    return { value: null, problem: describeError(error) };
  }
}

type TopicParams = { tenant: string; topic: string };

export function buildUiApp(options: UiOptions): FastifyInstance {
  const now = options.now ?? (() => new Date());
  const history = createLagHistory();
  const app = Fastify({ logger: false, trustProxy: false });
  const assets = new Map(Object.entries(ASSETS).map(([name, asset]) => [name, { body: fs.readFileSync(asset.file), type: asset.type }]));

  const refuse = (reply: FastifyReply, status: number, title: string, message: string, viewer: Viewer | null) =>
    reply.code(status).type('text/html; charset=utf-8').send(viewer === null ? `<!doctype html><title>${status}</title><p>${html`${message}`}</p>` : page({ title, viewer, body: html`<p>${message}</p>` }));

  // Set by the onRequest hook before any route runs; null only until then.
  app.decorateRequest('viewer', null as never);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('content-security-policy', CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cache-control', 'no-store');
    const url = new URL(request.url, 'http://ui.invalid');
    const queryToken = url.searchParams.get('token');
    if (queryToken !== null) {
      // A link with ?token= signs the browser in once: the token moves to an HttpOnly cookie and out of the address bar.
      if (options.access.identify(queryToken) === null) return refuse(reply, 401, 'Not signed in', 'That token is not valid.', null);
      url.searchParams.delete('token');
      reply.header('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(queryToken)}; HttpOnly; SameSite=Strict; Path=/`);
      return reply.redirect(`${url.pathname}${url.search}`, 303);
    }
    if (request.url.startsWith('/assets/') || request.url === '/favicon.ico') return;
    const viewer = options.access.identify(presentedToken(request));
    if (viewer === null) return refuse(reply, 401, 'Not signed in', 'A token is required: open the link with ?token=… once, or send Authorization: Bearer ….', null);
    request.viewer = viewer;
  });

  app.get('/favicon.ico', async (_request, reply) => reply.code(204).send());

  app.get<{ Params: { name: string } }>('/assets/:name', async (request, reply) => {
    const asset = assets.get(request.params.name);
    if (!asset) return reply.code(404).send('not found');
    return reply.type(asset.type).header('cache-control', 'public, max-age=3600').send(asset.body);
  });

  /** Ids from the URL are checked before they reach a path, and a tenant token sees its own tenant only. */
  const topicScope = (request: FastifyRequest<{ Params: TopicParams }>, reply: FastifyReply): TopicRef | null => {
    const { tenant, topic } = request.params;
    if (!isTenantId(tenant) || !isTopicId(topic)) {
      void refuse(reply, 400, 'Bad request', 'Tenant and topic ids are 1-63 lowercase letters, digits or "-".', request.viewer);
      return null;
    }
    if (!canSeeTenant(request.viewer, tenant)) {
      void refuse(reply, 403, 'Forbidden', 'This token does not see that tenant.', request.viewer);
      return null;
    }
    return { tenant, topicId: topic };
  };

  app.get('/', async (request, reply) => {
    const fleet = await loadFleet(options.dataRoot, request.viewer, options.readers, now());
    return reply.type('text/html; charset=utf-8').send(fleetPage(fleet, request.viewer));
  });

  app.get<{ Params: TopicParams }>('/t/:tenant/:topic', async (request, reply) => {
    const scope = topicScope(request, reply);
    if (scope === null) return reply;
    const { tenant, topicId: topic } = scope;
    return reply.type('text/html; charset=utf-8').send(topicPage({
      tenant,
      topicId: topic,
      runs: recentRuns(options.dataRoot, tenant, topic),
      latestGoodStamp: latestGoodStamp(options.dataRoot, tenant, topic),
      replays: listReplays(options.dataRoot, tenant, topic),
      viewer: request.viewer,
    }));
  });

  app.get<{ Params: TopicParams & { stamp: string } }>('/t/:tenant/:topic/runs/:stamp', async (request, reply) => {
    const scope = topicScope(request, reply);
    if (scope === null) return reply;
    const { tenant, topicId: topic } = scope;
    const { stamp } = request.params;
    if (!RUN_STAMP.test(stamp)) return refuse(reply, 400, 'Bad request', 'A run is named by its timestamp, e.g. 20260425T023000123Z.', request.viewer);
    const run = readRun(options.dataRoot, tenant, topic, stamp);
    if (run.document === null) return refuse(reply, 404, 'No such run', run.problem ?? 'not found', request.viewer);
    const document = run.document;
    const drops: DropsResult = await options.readers
      .runDrops({ tenant, topicId: topic, runId: document.run_id, requestedAt: document.run_requested_at, retrievedAt: document.retrieved_at })
      .then((found): DropsResult => ({ drops: found, problem: null }), (error: unknown): DropsResult => ({ drops: null, problem: describeError(error) }));
    return reply.type('text/html; charset=utf-8').send(runPage({
      document,
      stamp,
      isLatestGood: latestGoodStamp(options.dataRoot, tenant, topic) === stamp,
      digest: readDigest(options.dataRoot, tenant, topic),
      rawFiles: rawFilesOfRun(options.dataRoot, tenant, topic, stamp),
      drops,
      viewer: request.viewer,
    }));
  });

  app.get<{ Params: TopicParams & { file: string } }>('/t/:tenant/:topic/raw/:file', async (request, reply) => {
    const scope = topicScope(request, reply);
    if (scope === null) return reply;
    const { tenant, topicId: topic } = scope;
    const { file } = request.params;
    let text: string | null;
    try {
      text = readRawFile(options.dataRoot, tenant, topic, file);
    } catch (error) {
      if (isSkryaError(error)) return refuse(reply, 400, 'Bad request', 'Not a raw response file name.', request.viewer);
      throw error;
    }
    if (text === null) return refuse(reply, 404, 'Not found', 'No such raw response file.', request.viewer);
    // A provider's verbatim answer: shown as text, never rendered, and sandboxed should a browser try.
    return reply.type('text/plain; charset=utf-8').header('content-security-policy', `${CSP}; sandbox`).send(text);
  });

  app.get('/replays', async (request, reply) => {
    const entries = listTopics(options.dataRoot)
      .filter(({ tenant }) => canSeeTenant(request.viewer, tenant))
      .flatMap(({ tenant, topicId }) => listReplays(options.dataRoot, tenant, topicId).map((entry) => ({ ...entry, tenant, topicId })));
    return reply.type('text/html; charset=utf-8').send(replaysPage(entries, request.viewer));
  });

  app.get<{ Params: TopicParams & { replay: string } }>('/t/:tenant/:topic/replays/:replay', async (request, reply) => {
    const scope = topicScope(request, reply);
    if (scope === null) return reply;
    const { tenant, topicId: topic } = scope;
    const { replay } = request.params;
    if (!isReplayId(replay)) return refuse(reply, 400, 'Bad request', 'Not a replay id.', request.viewer);
    const entry = readReplay(options.dataRoot, tenant, topic, replay);
    if (entry.report === null) return refuse(reply, 404, 'No such replay', entry.problem ?? 'not found', request.viewer);
    return reply.type('text/html; charset=utf-8').send(replayDiffPage(entry.report, request.viewer));
  });

  const sampleLag = async () => {
    const lag = await settle(() => options.readers.consumerLag());
    if (lag.value !== null) history.record(now().getTime(), lag.value);
    return lag;
  };

  app.get('/health', async (request, reply) => {
    // Lag, dead letters and schemas span every tenant: the operator's page only.
    if (request.viewer.kind !== 'operator') return refuse(reply, 403, 'Forbidden', 'Pipeline health spans every tenant: it needs the operator token.', request.viewer);
    const [lag, letters, subjects] = await Promise.all([sampleLag(), settle(() => options.readers.deadLetters()), settle(() => options.readers.subjects())]);
    return reply.type('text/html; charset=utf-8').send(healthPage({ lag, samples: history.samples(), throughput: history.throughput(), letters, subjects, viewer: request.viewer }));
  });

  app.setNotFoundHandler((request, reply) => refuse(reply, 404, 'Not found', 'No such page.', request.viewer ?? null));
  app.setErrorHandler((error, request, reply) => {
    options.logger.error({ err: error, url: request.url.replace(/token=[^&]*/g, 'token=[redacted]') }, 'ui request failed');
    return refuse(reply, 500, 'Error', 'This page failed; the UI log says why.', request.viewer ?? null);
  });

  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    void sampleLag();
    timer = setInterval(() => void sampleLag(), LAG_SAMPLE_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
  return app;
}

export async function startUiServer(options: UiOptions): Promise<UiServer> {
  const app = buildUiApp(options);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return { url: `http://${host}:${port}/`, close: () => app.close() };
}

/** The view over a connected pipeline's Kafka, registry and data tree, with the access the config sets. */
export function serveOperatorView(pipeline: Pick<Pipeline, 'config' | 'port' | 'logger'>, listen: { host: string; port: number }): Promise<UiServer> {
  const access = createAccessPolicy({ host: listen.host, operatorToken: pipeline.config.SKRYA_UI_TOKEN, tenantTokens: pipeline.config.SKRYA_UI_TENANT_TOKENS });
  return startUiServer({
    dataRoot: path.resolve(pipeline.config.SKRYA_DATA_ROOT),
    readers: createKafkaReaders({ port: pipeline.port, registryUrl: pipeline.config.SKRYA_REGISTRY_URL }),
    access,
    logger: pipeline.logger.child({ service: 'ui' }),
    ...listen,
  });
}
