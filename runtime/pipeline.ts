/**
 * What every process needs before it runs a stage: config, logger, the Kafka client, topics that
 * exist, and a serde whose schemas are registered. Connecting is retried while the broker or the
 * registry is still starting.
 */
import { loadConfig, type SkryaConfig } from './config.ts';
import { createKafka, createRegistry, createTopics, namingFrom, type Kafka } from './kafka.ts';
import { createLogger, type Logger } from './logger.ts';
import { createMessageMetrics, createMetricsRegistry, createSkillMetrics, type MessageMetrics, type SkillMetrics } from './metrics.ts';
import { createSerde, type Serde } from './serde.ts';
import type { Registry } from 'prom-client';
import { TOPIC_NAMES, type TopicNaming } from '../topics/topics.ts';

export interface Pipeline {
  config: SkryaConfig;
  logger: Logger;
  kafka: Kafka;
  serde: Serde;
  naming: TopicNaming;
  /** Where provider credentials and endpoints are read (by the names the skill declarations give). */
  providerEnv: Record<string, string | undefined>;
  /** One metrics registry per process; every stage it runs reports into it. */
  metrics: { registry: Registry; skills: SkillMetrics; messages: MessageMetrics };
}

export async function connectPipeline(options: { config?: SkryaConfig; logger?: Logger; clientId?: string; providerEnv?: Record<string, string | undefined> } = {}): Promise<Pipeline> {
  const config = options.config ?? loadConfig();
  const logger = options.logger ?? createLogger({ level: config.SKRYA_LOG_LEVEL });
  const naming = namingFrom(config);
  const kafka = createKafka(config, logger, options.clientId ?? 'skrya');
  const admin = kafka.admin();
  await admin.connect();
  try {
    await createTopics(admin, naming);
  } finally {
    await admin.disconnect();
  }
  const serde = await createSerde({ registry: createRegistry(config), registryUrl: config.SKRYA_REGISTRY_URL, naming, topics: TOPIC_NAMES });
  const registry = createMetricsRegistry(options.clientId ?? 'skrya', { collectProcessMetrics: true });
  const metrics = { registry, skills: createSkillMetrics(registry), messages: createMessageMetrics(registry) };
  return { config, logger, kafka, serde, naming, metrics, providerEnv: options.providerEnv ?? process.env };
}
