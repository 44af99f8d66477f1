import { isSkryaError } from '../runtime/errors.ts';
import { COMMANDS, requestedCommand, type CommandEntry } from './commands/index.ts';
import { flagsToStartWith, runWithNodeFlags } from './node-flags.ts';

async function runCommand(chosen: CommandEntry | undefined): Promise<void> {
  // Loaded here, not at the top: a command that needs node flags replaces this process (runWithNodeFlags) before it parses.
  const { Command, CommanderError } = await import('commander');
  const program = new Command('skrya')
    .description('Skrya: a streaming ingestion pipeline on Kafka, from sources.json to latest-ingest.json')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  // Only the command that runs is loaded; help without one lists every command by its summary.
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
}

/** Ends the process (with process.exitCode) once stdout and stderr have taken every byte written to them. */
async function exitOnceFlushed(): Promise<void> {
  // A stream calls back its writes in order: an empty write's callback comes after every earlier one's.
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise<void>((resolve) => stream.write('', () => resolve()))));
  process.exit();
}

/**
 * Its reader closed stdout (`skrya rank … | head`): what is left to print has nowhere to go. The
 * process ends at once with the status of a program killed by SIGPIPE (128 + 13), which a shell's
 * pipefail expects, instead of dying on the failed write with a stack trace.
 */
const CLOSED_STDOUT_EXIT_CODE = 141;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(CLOSED_STDOUT_EXIT_CODE);
  throw error;
});

const args = process.argv.slice(2);
const chosen = requestedCommand(args);
// A command that needs node flags this node lacks, for the work these arguments ask, replaces this process with one that has them, where it can.
const flags = flagsToStartWith(chosen, args);
const replaced = flags !== null && runWithNodeFlags(flags, chosen?.glibcTunables);
if (!replaced) {
  await runCommand(chosen);
  if (chosen?.exitsWhenDone === true) await exitOnceFlushed();
}
