/**
 * Kafka + Apicurio in containers for machines with a Docker engine. Returns null when no container
 * runtime answers, so the caller falls back to the local stack.
 */
import { GenericContainer, Wait, getContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

const KAFKA_IMAGE = 'apache/kafka:4.1.1';
const REGISTRY_IMAGE = 'apicurio/apicurio-registry:3.3.3';
const KAFKA_HOST_PORT = 29092;

export async function startContainerStack(): Promise<{ brokers: string; registryUrl: string; stop: () => Promise<void> } | null> {
  try {
    await getContainerRuntimeClient();
  } catch {
    return null;
  }
  // The advertised listener must name the host port, so it is fixed rather than random.
  const kafka: StartedTestContainer = await new GenericContainer(KAFKA_IMAGE)
    .withExposedPorts({ container: 9092, host: KAFKA_HOST_PORT })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${KAFKA_HOST_PORT}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: 'false',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  const registry = await new GenericContainer(REGISTRY_IMAGE)
    .withExposedPorts(8080)
    .withWaitStrategy(Wait.forHttp('/apis/ccompat/v7/subjects', 8080))
    .start();
  const registryUrl = `http://${registry.getHost()}:${registry.getMappedPort(8080)}/apis/ccompat/v7`;
  const globalRule = await fetch(`${registryUrl}/config`, {
    method: 'PUT',
    headers: { 'content-type': 'application/vnd.schemaregistry.v1+json' },
    body: JSON.stringify({ compatibility: 'BACKWARD' }),
  });
  if (!globalRule.ok) throw new Error(`setting the registry's global BACKWARD rule failed: HTTP ${globalRule.status}`);
  return {
    brokers: `127.0.0.1:${KAFKA_HOST_PORT}`,
    registryUrl,
    stop: async () => {
      await registry.stop();
      await kafka.stop();
    },
  };
}
