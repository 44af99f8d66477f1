/**
 * The consumer services, by the name `skrya run <service>` takes. Each is a handler plus the
 * shared runner, with its own consumer group; `skrya run all` starts them in one process.
 */
import path from 'node:path';
import type { Pipeline } from '../runtime/pipeline.ts';
import { startService, type Handler, type RunningService } from '../runtime/runner.ts';
import type { TopicName } from '../topics/topics.ts';
import { createCollector } from './collector/handler.ts';
import type { Binding } from './retriever/bindings.ts';
import { createRetriever } from './retriever/handler.ts';
import { createServiceSkillRegistry } from './retriever/service-registry.ts';
import { createScorer } from './scorer/handler.ts';
import { createBatchSink } from './sink/batch-sink.ts';
import { createRawSink } from './sink/raw-sink.ts';

export const CONSUMER_SERVICES = ['retriever', 'scorer', 'collector', 'sink', 'sink-raw'] as const;
export type ConsumerService = (typeof CONSUMER_SERVICES)[number];

export interface StageOptions {
  /** Runtime bindings of capabilities to external commands (retriever only). */
  bindings?: readonly Binding[];
}

async function handlerFor(service: ConsumerService, pipeline: Pipeline, options: StageOptions): Promise<Handler<TopicName>> {
  const dataRoot = path.resolve(pipeline.config.SKRYA_DATA_ROOT);
  switch (service) {
    case 'retriever':
      return createRetriever({ registry: await createServiceSkillRegistry(pipeline), dataRoot, bindings: options.bindings ?? [] }) as Handler<TopicName>;
    case 'scorer':
      return createScorer() as Handler<TopicName>;
    case 'collector':
      return createCollector({ runTimeoutMs: pipeline.config.SKRYA_RUN_TIMEOUT_MS, logger: pipeline.logger.child({ service }) }) as Handler<TopicName>;
    case 'sink':
      return createBatchSink({ dataRoot }) as Handler<TopicName>;
    case 'sink-raw':
      return createRawSink({ dataRoot }) as Handler<TopicName>;
  }
}

export async function startConsumerService(service: ConsumerService, pipeline: Pipeline, options: StageOptions = {}): Promise<RunningService> {
  return startService({
    service,
    kafka: pipeline.kafka,
    serde: pipeline.serde,
    naming: pipeline.naming,
    logger: pipeline.logger,
    handler: await handlerFor(service, pipeline, options),
    onOutcome: (name, outcome, code) => pipeline.metrics.messages.outcomes.inc({ service: name, outcome, code: code ?? '' }),
  });
}
