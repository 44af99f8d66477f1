import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { stackDown, stackSettings, stackStatus, stackUp, startStackComponent, type ComponentStatus } from '../../infra/local-stack.ts';
import { clusterSettings, clusterStatus, existingNodes, startCluster, stopCluster, type NodeStatus } from '../../infra/kafka-cluster.ts';

function printStatus(components: Array<ComponentStatus | NodeStatus>, json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(components, null, 2)}\n`);
    return;
  }
  for (const component of components) {
    const state = component.healthy ? 'healthy' : component.running ? 'running, not healthy' : 'stopped';
    process.stdout.write(`${component.name.padEnd(9)} ${state.padEnd(21)} ${component.endpoint}  pid=${component.pid ?? '-'}  log=${component.log}\n`);
  }
}

/** The single-node stack's status, or the cluster's brokers and the registry when a cluster was set up. */
async function currentStatus(): Promise<Array<ComponentStatus | NodeStatus>> {
  const config = loadConfig();
  const settings = stackSettings(config);
  const single = await stackStatus(settings);
  const cluster = await clusterStatus(clusterSettings(config, 1));
  if (cluster.length === 0) return single;
  return [...cluster, ...single.filter((component) => component.name === 'registry')];
}

export function registerStackCommand(program: Command): void {
  const stack = program.command('stack');
  const report = (line: string) => process.stderr.write(`skrya stack: ${line}\n`);

  stack
    .command('up')
    .description('start Kafka (KRaft) and Apicurio Registry on loopback; a quick no-op when both are already healthy')
    .option('--json', 'print the status as JSON')
    .option('--brokers <count>', 'a cluster of this many brokers with SASL_SSL listeners (certificates and users made at first setup) instead of one plaintext broker', '1')
    .option('--heap <size>', 'maximum heap of each broker of a cluster', '384m')
    .action(async (options: { json?: boolean; brokers: string; heap: string }) => {
      const started = Date.now();
      const config = loadConfig();
      const brokers = Number(options.brokers);
      if (brokers === 1) {
        printStatus(await stackUp(stackSettings(config), report), Boolean(options.json));
      } else {
        const cluster = clusterSettings(config, brokers, options.heap);
        await startCluster(cluster, report);
        await startStackComponent(stackSettings(config), 'registry');
        printStatus(await currentStatus(), Boolean(options.json));
      }
      report(`up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    });

  stack
    .command('down')
    .description('stop the processes `stack up` started (and nothing else)')
    .action(async () => {
      const config = loadConfig();
      await stackDown(stackSettings(config), report);
      const cluster = clusterSettings(config, 1);
      if (existingNodes(cluster).length > 0) await stopCluster(cluster, report);
    });

  stack
    .command('status')
    .description('show whether Kafka (one broker or the cluster\'s brokers) and the registry are running and healthy')
    .option('--json', 'print the status as JSON')
    .action(async (options: { json?: boolean }) => {
      const components = await currentStatus();
      printStatus(components, Boolean(options.json));
      if (!components.every((component) => component.healthy)) process.exitCode = 1;
    });
}
