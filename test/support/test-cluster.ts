/**
 * A private 3-broker SASL_SSL cluster for the cluster tests, on its own ports and state folder
 * (SKRYA_TEST_CLUSTER_PORT, default 26092: nodes on 26092/26102/26112; state under .skrya/), with
 * the shared registry of the test run. The ports sit below Linux's ephemeral range (32768–60999):
 * there, a client connection's own port could already hold one when a broker starts (seen in CI). Small broker heaps: three JVMs share the machine with the rest.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { loadConfig, type SkryaConfig } from '../../runtime/config.ts';
import { createLogger } from '../../runtime/logger.ts';
import { connectPipeline, type Pipeline } from '../../runtime/pipeline.ts';
import { TEST_REGISTRY_WAIT_MS } from './kafka-context.ts';
import { clusterClientEnv, clusterSettings, startCluster, stopCluster, type ClusterSettings, type ClusterUser } from '../../infra/kafka-cluster.ts';

export interface TestCluster {
  settings: ClusterSettings;
  /** Env for a Skrya process on this cluster as `user` (registry, prefix and data root added by the caller). */
  env(user?: ClusterUser, mechanism?: 'plain' | 'scram-sha-256' | 'scram-sha-512'): Record<string, string>;
  /** A pipeline on this cluster as `skrya`, with its own topic prefix and a temporary data root. */
  connect(label: string, overrides?: Record<string, string>): Promise<{ pipeline: Pipeline; dataRoot: string; close(): Promise<void> }>;
  down(): Promise<void>;
}

export async function startTestCluster(label: string, report: (line: string) => void = () => {}): Promise<TestCluster> {
  const stateDir = path.resolve('.skrya', `test-cluster-${label}-${randomBytes(3).toString('hex')}`);
  const config = loadConfig({ ...process.env, SKRYA_STACK_DIR: stateDir, SKRYA_KAFKA_PORT: process.env.SKRYA_TEST_CLUSTER_PORT ?? '26092' });
  const settings = clusterSettings(config, 3, process.env.SKRYA_TEST_CLUSTER_HEAP ?? '384m');
  try {
    await startCluster(settings, report);
  } catch (error) {
    await stopCluster(settings);
    throw error;
  }
  const env: TestCluster['env'] = (user = 'skrya', mechanism = 'scram-sha-512') => ({ ...clusterClientEnv(settings, user, mechanism), SKRYA_REGISTRY_URL: inject('registryUrl') });
  return {
    settings,
    env,
    async connect(name, overrides = {}) {
      const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-${name}-`));
      const pipelineConfig: SkryaConfig = loadConfig({
        ...process.env,
        ...env(),
        SKRYA_TOPIC_PREFIX: `t.${name}.${randomBytes(4).toString('hex')}.`,
        SKRYA_DATA_ROOT: dataRoot,
        SKRYA_LOG_LEVEL: 'warn',
        ...overrides,
      });
      const pipeline = await connectPipeline({ config: pipelineConfig, logger: createLogger({ level: 'warn', name }), clientId: `test-${name}`, registryWaitMs: TEST_REGISTRY_WAIT_MS });
      return {
        pipeline,
        dataRoot,
        async close() {
          fs.rmSync(dataRoot, { recursive: true, force: true });
        },
      };
    },
    async down() {
      await stopCluster(settings);
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
