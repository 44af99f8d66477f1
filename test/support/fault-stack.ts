/**
 * A private local stack (Kafka + registry) on its own ports and state folder, for fault tests that
 * stop the broker or the registry: the shared stack other tests and people use is never touched.
 * It reuses the cached Kafka and Apicurio downloads, and is removed with its state afterwards.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../runtime/config.ts';
import { createLogger } from '../../runtime/logger.ts';
import { connectPipeline, type Pipeline } from '../../runtime/pipeline.ts';
import { TEST_REGISTRY_WAIT_MS } from './kafka-context.ts';
import { registryUrl, stackDown, stackSettings, stackUp, type StackSettings } from '../../infra/local-stack.ts';

/** Ports of the private stack; SKRYA_FAULT_STACK_PORTS="kafka,controller,registry,management" moves them. */
function privatePorts(): [string, string, string, string] {
  const ports = (process.env.SKRYA_FAULT_STACK_PORTS ?? '29192,29193,28181,28182').split(',');
  if (ports.length !== 4) throw new Error('SKRYA_FAULT_STACK_PORTS needs four ports: kafka,controller,registry,management');
  return ports as [string, string, string, string];
}

export interface PrivateStack {
  settings: StackSettings;
  brokers: string;
  registryUrl: string;
  /** A pipeline on this stack with its own topic prefix and a temporary data root. */
  connect(label: string): Promise<{ pipeline: Pipeline; dataRoot: string; close(): Promise<void> }>;
  down(): Promise<void>;
}

export async function startPrivateStack(report: (line: string) => void = () => {}): Promise<PrivateStack> {
  const [kafkaPort, controllerPort, registryPort, managementPort] = privatePorts();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'skrya-fault-stack-'));
  const settings = stackSettings(loadConfig({
    ...process.env,
    SKRYA_STACK_DIR: stateDir,
    SKRYA_KAFKA_PORT: kafkaPort,
    SKRYA_KAFKA_CONTROLLER_PORT: controllerPort,
    SKRYA_REGISTRY_PORT: registryPort,
    SKRYA_REGISTRY_MANAGEMENT_PORT: managementPort,
  }));
  try {
    await stackUp(settings, report);
  } catch (error) {
    fs.rmSync(stateDir, { recursive: true, force: true });
    throw error;
  }
  const brokers = `127.0.0.1:${settings.kafkaPort}`;
  const registry = registryUrl(settings);
  return {
    settings,
    brokers,
    registryUrl: registry,
    async connect(label) {
      const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), `skrya-${label}-`));
      const config = loadConfig({
        ...process.env,
        SKRYA_KAFKA_BROKERS: brokers,
        SKRYA_REGISTRY_URL: registry,
        SKRYA_TOPIC_PREFIX: `t.${label}.${randomBytes(4).toString('hex')}.`,
        SKRYA_DATA_ROOT: dataRoot,
        SKRYA_LOG_LEVEL: 'warn',
      });
      const pipeline = await connectPipeline({ config, logger: createLogger({ level: 'warn', name: label }), clientId: `test-${label}`, registryWaitMs: TEST_REGISTRY_WAIT_MS });
      return {
        pipeline,
        dataRoot,
        async close() {
          fs.rmSync(dataRoot, { recursive: true, force: true });
        },
      };
    },
    async down() {
      await stackDown(settings);
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
