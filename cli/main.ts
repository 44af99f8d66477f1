import { Command, CommanderError } from 'commander';
import { isSkryaError } from '../runtime/errors.ts';
import { COMMANDS } from './commands/index.ts';

const program = new Command('skrya')
  .description('Skrya: a streaming ingestion pipeline on Kafka, from sources.json to latest-ingest.json')
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

// Only the command that runs is loaded; help without one lists every command by its summary.
const args = process.argv.slice(2);
const requested = args[0] === 'help' ? args[1] : args.find((arg) => !arg.startsWith('-'));
const chosen = COMMANDS.find((command) => command.name === requested);
for (const command of chosen ? [chosen] : COMMANDS) {
  if (chosen) (await command.load())(program);
  else program.command(command.name);
  program.commands.find((registered) => registered.name() === command.name)!.description(command.summary);
}

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode === 0 ? 0 : 2;
  } else if (isSkryaError(error)) {
    process.stderr.write(`skrya: ${error.message}\n`);
    process.exitCode = error.code === 'INVALID_INPUT' || error.code === 'INVALID_ID' || error.code === 'CONFIG_INVALID' ? 2 : 1;
  } else {
    throw error;
  }
}
