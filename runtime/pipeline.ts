/**
 * What every process needs before it runs a stage: config, logger, the Kafka client, topics that
 * exist, and a serde whose schemas are registered. kafkajs retries the broker connection itself;
 * the registry is waited for as long as the caller allows.
 */
import { loadConfig, type SkryaConfig } from './config.ts';
import { createKafka, createRegistry, createTopics, namingFrom, registryEndpoint, type Kafka } from './kafka.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMessageMetrics, createMetricsRegistry, createSkillMetrics, createWorkerMetrics, type MessageMetrics, type SkillMetrics, type WorkerMetrics } from './metrics.ts';
import { createKafkaPort, type KafkaPort } from './kafka-port.ts';
import { createSerde, whileRegistryUnavailable } from './serde.ts';
import type { Registry } from 'prom-client';
import { TOPIC_NAMES } from '../topics/topics.ts';
import { topicLayout } from '../topics/topic-plan.ts';

export interface Pipeline {
  config: SkryaConfig;
  logger: Logger;
  /** Everything the stages and the CLI do with Kafka goes through the port. */
  port: KafkaPort;
  /** The raw client: for the runtime itself, benchmarks and tests that inject faults. */
  kafka: Kafka;
  /** Where provider credentials and endpoints are read (by the names the skill declarations give). */
  providerEnv: Record<string, string | undefined>;
  /** One metrics registry per process; every stage it runs reports into it. */
  metrics: { registry: Registry; skills: SkillMetrics; messages: MessageMetrics; workers: WorkerMetrics };
}

export interface ConnectOptions {
  config?: SkryaConfig;
  logger?: Logger;
  clientId?: string;
  providerEnv?: Record<string, string | undefined>;
  /**
   * How long to keep trying while the registry cannot be reached: services started during a registry
   * outage wait for it (Infinity); one-off commands fail at once (0, the default), unless the registry
   * answered too late (see SLOW_REGISTRY_WAIT_MS).
   */
  registryWaitMs?: number;
}

export async function connectPipeline(options: ConnectOptions = {}): Promise<Pipeline> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger({ level: config.SKRYA_LOG_LEVEL });
  const naming = namingFrom(config);
  const layout = topicLayout(config);
  const kafka = createKafka(config, logger, options.clientId ?? 'skrya');
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createTopics(admin, naming, layout);
  } finally {
    await admin.disconnect();
  }
  const registryClient = createRegistry(config);
  const serde = await whileRegistryUnavailable(
    () => createSerde({ registry: registryClient, registryUrl: config.SKRYA_REGISTRY_URL, registryAuthHeaders: registryEndpoint(config).headers, naming, topics: TOPIC_NAMES }),
    options.registryWaitMs ?? 0,
    logger,
  );
  const registry = createMetricsRegistry(options.clientId ?? 'skrya', { collectProcessMetrics: true });
  const metrics = { registry, skills: createSkillMetrics(registry), messages: createMessageMetrics(registry), workers: createWorkerMetrics(registry) };
  return { config, logger, port: createKafkaPort({ kafka, serde, naming, layout }), kafka, metrics, providerEnv: options.providerEnv ?? process.env };
}
