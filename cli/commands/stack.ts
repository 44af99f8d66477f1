import type { Command } from 'commander';
import { loadConfig } from '../../runtime/config.ts';
import { stackDown, stackSettings, stackStatus, stackUp, type ComponentStatus } from '../../infra/local-stack.ts';

function printStatus(components: ComponentStatus[], json: boolean): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(components, null, 2)}\n`);
    return;
  }
  for (const component of components) {
    const state = component.healthy ? 'healthy' : component.running ? 'running, not healthy' : 'stopped';
    process.stdout.write(`${component.name.padEnd(9)} ${state.padEnd(21)} ${component.endpoint}  pid=${component.pid ?? '-'}  log=${component.log}\n`);
  }
}

export function registerStackCommand(program: Command): void {
  const stack = program.command('stack');
  const report = (line: string) => process.stderr.write(`skrya stack: ${line}\n`);

  stack
    .command('up')
    .description('start Kafka (KRaft) and Apicurio Registry on loopback; a quick no-op when both are already healthy')
    .option('--json', 'print the status as JSON')
    .action(async (options: { json?: boolean }) => {
      const started = Date.now();
      const components = await stackUp(stackSettings(loadConfig()), report);
      report(`up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      printStatus(components, Boolean(options.json));
    });

  stack
    .command('down')
    .description('stop the processes `stack up` started (and nothing else)')
    .action(async () => {
      await stackDown(stackSettings(loadConfig()), report);
    });

  stack
    .command('status')
    .description('show whether Kafka and the registry are running and healthy')
    .option('--json', 'print the status as JSON')
    .action(async (options: { json?: boolean }) => {
      const components = await stackStatus(stackSettings(loadConfig()));
      printStatus(components, Boolean(options.json));
      if (!components.every((component) => component.healthy)) process.exitCode = 1;
    });
}
