/**
 * The consumer services, by the name `skrya run <service>` takes. Each is a handler plus the
 * shared runner, with its own consumer group; `skrya run all` starts them in one process.
 */
import path from 'node:path';
import type { SkryaConfig } from '../runtime/config.ts';
import type { Pipeline } from '../runtime/pipeline.ts';
import type { Handler, Later, Outcome } from '../runtime/handler.ts';
import type { RunningService } from '../runtime/runner.ts';
import { sinkStoreOf, type SinkStore } from '../runtime/sink-store.ts';
import type { TopicName } from '../topics/topics.ts';
import { createCollector } from './collector/index.ts';
import { type Binding, createKafkaUsageLedger, createRetriever, createServiceSkillRegistry, createTenantRegistries } from './retriever/index.ts';
import { createCredentialRateLimiter } from '../domain/skills/adapters/credential-rate-limiter.ts';
import { sleep } from '../domain/skills/adapters/retry-policy.ts';
import { builtinSkills } from '../domain/skills/builtin-skills.ts';
import { createSkillRegistry } from '../domain/skills/registry.ts';
import { createScorePool, createScorer, type ParseOn, type ScorePool } from './scorer/index.ts';
import { createBatchSink, createRawSink } from './sink/index.ts';
import type { ConsumerService } from './service-names.ts';


export interface StageOptions {
  /** Runtime bindings of capabilities to external commands (retriever only). */
  bindings?: readonly Binding[];
}

export interface Stage<Result extends Outcome | Later = Outcome | Later> {
  handler: Handler<TopicName, Result>;
  /** Resources the stage owns beyond its consumer and producer. */
  close?: () => Promise<void>;
}

async function retrieverStage(pipeline: Pipeline, dataRoot: string, options: StageOptions): Promise<Stage> {
  const logger = pipeline.logger.child({ service: 'retriever' });
  // One limiter for every registry of the process: skills and tenants on one key share its rate.
  const rateLimiter = createCredentialRateLimiter({ clock: { now: () => new Date() }, sleep, instances: pipeline.config.SKRYA_RETRIEVER_INSTANCES });
  const registry = await createServiceSkillRegistry(pipeline, rateLimiter);
  const registries = createTenantRegistries({
    processEnv: pipeline.providerEnv,
    shared: registry,
    build: (env) => createSkillRegistry({ skills: builtinSkills(), adapters: pipeline.config.SKRYA_SKILL_ADAPTERS, env, logger, metrics: pipeline.metrics.skills, rateLimiter, limits: { maxDocumentBytes: pipeline.config.SKRYA_MAX_DOCUMENT_BYTES } }),
  });
  const ledger = await createKafkaUsageLedger({ port: pipeline.port, logger });
  return {
    handler: createRetriever({ registry, registries, ledger, dataRoot, logger, bindings: options.bindings ?? [] }) as Handler<TopicName, Later>,
    close: () => ledger.close(),
  };
}

/** The sink's store, reached once before the sink joins its group: wrong settings stop it at start, named. */
async function checkedSinkStore(pipeline: Pipeline): Promise<SinkStore> {
  const store = sinkStoreOf(pipeline.config);
  await store.check();
  pipeline.logger.info({ store: store.where }, 'sink store reachable');
  return store;
}

async function handlerFor(service: Exclude<ConsumerService, 'retriever' | 'scorer'>, pipeline: Pipeline): Promise<Handler<TopicName>> {
  switch (service) {
    case 'collector':
      return createCollector({ runTimeoutMs: pipeline.config.SKRYA_RUN_TIMEOUT_MS, logger: pipeline.logger.child({ service }) }) as Handler<TopicName>;
    case 'sink':
      return createBatchSink({ store: await checkedSinkStore(pipeline), keepWrittenRuns: true }) as Handler<TopicName>;
    case 'sink-raw':
      return createRawSink({ store: await checkedSinkStore(pipeline) }) as Handler<TopicName>;
  }
}

/**
 * Where the live scorer parses responses (score-pool.ts): with one worker on the event loop, which
 * has time to spare beside Kafka; with more in the workers: the event loop's own work is about
 * 70 µs a result and parsing 30, so parsing for two or more workers (90 µs a result each) would
 * make it the slower side.
 */
export function scorerParseOn(workers: number): ParseOn {
  return workers === 1 ? 'caller' : 'workers';
}

/** The scorer, with its worker threads when the config asks for any (`pool`, which it closes). */
export function scorerStage(config: SkryaConfig): Stage<Outcome> & { pool?: ScorePool } {
  if (config.SKRYA_SCORER_WORKERS === 0) return { handler: createScorer() as Handler<TopicName> };
  const pool = createScorePool(config.SKRYA_SCORER_WORKERS, { parseOn: scorerParseOn(config.SKRYA_SCORER_WORKERS) });
  return { handler: createScorer({ pool }) as Handler<TopicName>, pool, close: () => pool.close() };
}

/** The scorer in a service: its workers' busy share on /metrics while it runs. */
function scorerServiceStage(pipeline: Pipeline): Stage {
  const stage = scorerStage(pipeline.config);
  const { pool } = stage;
  if (pool === undefined) return stage;
  const untrack = pipeline.metrics.workers.track('scorer', () => pool.utilization());
  return {
    handler: stage.handler,
    async close() {
      untrack();
      await pool.close();
    },
  };
}

async function stageFor(service: ConsumerService, pipeline: Pipeline, options: StageOptions): Promise<Stage> {
  if (service === 'retriever') return retrieverStage(pipeline, path.resolve(pipeline.config.SKRYA_DATA_ROOT), options);
  if (service === 'scorer') return scorerServiceStage(pipeline);
  return { handler: await handlerFor(service, pipeline) };
}

export async function startConsumerService(service: ConsumerService, pipeline: Pipeline, options: StageOptions = {}): Promise<RunningService> {
  const stage = await stageFor(service, pipeline, options);
  const running = await pipeline.port.consume({
    service,
    logger: pipeline.logger,
    handler: stage.handler,
    sessionTimeoutMs: pipeline.config.SKRYA_CONSUMER_SESSION_TIMEOUT_MS,
    onOutcome: (name, outcome, code) => pipeline.metrics.messages.outcomes.inc({ service: name, outcome, code: code ?? '' }),
  });
  return {
    ...running,
    async stop() {
      await running.stop();
      await stage.close?.();
    },
  };
}
