import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { SERVICE_NAMES } from '../../services/run-services.ts';
import { COMMANDS } from './index.ts';

describe('the command table', () => {
  it.each(COMMANDS.map((command) => [command.name, command] as const))('%s loads the module that registers it under that name', async (name, command) => {
    const program = new Command('skrya');
    (await command.load())(program);
    expect(program.commands.map((registered) => registered.name())).toEqual([name]);
    expect(command.summary.length).toBeGreaterThan(10);
  });

  it('names every service in the run command\'s summary', () => {
    const run = COMMANDS.find((command) => command.name === 'run')!;
    for (const service of SERVICE_NAMES) expect(run.summary).toContain(service);
  });
});
