/**
 * Brings up the Kafka broker and schema registry the integration tests talk to, in this order:
 * an existing cluster named by SKRYA_TEST_BROKERS + SKRYA_TEST_REGISTRY_URL; containers through
 * testcontainers when a Docker engine answers; otherwise the Docker-free local stack (`skrya stack up`).
 */
import type { TestProject } from 'vitest/node';
import { loadConfig } from '../runtime/config.ts';
import { stackSettings, stackUp, registryUrl } from '../infra/local-stack.ts';
import { startContainerStack } from './support/container-stack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
    registryUrl: string;
    stackKind: 'external' | 'containers' | 'local';
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = { brokers: process.env.SKRYA_TEST_BROKERS, registry: process.env.SKRYA_TEST_REGISTRY_URL };
  if (external.brokers && external.registry) {
    project.provide('kafkaBrokers', external.brokers);
    project.provide('registryUrl', external.registry);
    project.provide('stackKind', 'external');
    return async () => {};
  }
  const containers = await startContainerStack();
  if (containers) {
    project.provide('kafkaBrokers', containers.brokers);
    project.provide('registryUrl', containers.registryUrl);
    project.provide('stackKind', 'containers');
    return containers.stop;
  }
  const settings = stackSettings(loadConfig());
  await stackUp(settings, (line) => process.stderr.write(`[stack] ${line}\n`));
  project.provide('kafkaBrokers', `127.0.0.1:${settings.kafkaPort}`);
  project.provide('registryUrl', registryUrl(settings));
  project.provide('stackKind', 'local');
  // The local stack is left running for the next test run; `.ci/run` and `skrya stack down` stop it.
  return async () => {};
}
