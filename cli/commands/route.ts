import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { SkryaError, describeError } from '../../runtime/errors.ts';
import { routeSources } from '../../services/retriever/index.ts';

/** What `skrya route` touches outside itself, passed in so tests run it without files or pipes. */
export interface RouteCommandIo {
  readFile(path: string): Promise<string>;
  readStdin(): Promise<string>;
  stdinIsTerminal(): boolean;
  write(text: string): void;
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString('utf8');
}

const processIo: RouteCommandIo = {
  readFile: (path) => readFile(path, 'utf8'),
  readStdin: readAllStdin,
  stdinIsTerminal: () => Boolean(process.stdin.isTTY),
  write: (text) => process.stdout.write(text),
};

async function readInput(source: string, io: RouteCommandIo): Promise<string> {
  if (source !== '-') {
    try {
      return await io.readFile(source);
    } catch (error) {
      throw new SkryaError('INVALID_INPUT', `cannot read --input ${source}: ${describeError(error)}`, { cause: error });
    }
  }
  // Waiting on a terminal would look like a hang: say what is expected instead.
  if (io.stdinIsTerminal()) throw new SkryaError('INVALID_INPUT', 'no router input: pass --input FILE or pipe the JSON on stdin (--input -)');
  return io.readStdin();
}

export function registerRouteCommand(program: Command, io: RouteCommandIo = processIo): void {
  program
    .command('route')
    .option('--input <file>', "router input JSON file, or '-' for stdin", '-')
    .option('--seed <text>', 'derive task_id from this seed and the input instead of at random (stable replays)')
    .option('--pretty', 'indent the plan')
    .action(async (options: { input: string; seed?: string; pretty?: boolean }) => {
      const text = await readInput(options.input, io);
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new SkryaError('INVALID_INPUT', `router input from ${options.input === '-' ? 'stdin' : options.input} is not valid JSON: ${describeError(error)}`, { cause: error });
      }
      const plan = routeSources(raw, options.seed === undefined ? {} : { taskIdSeed: options.seed });
      io.write(`${JSON.stringify(plan, null, options.pretty ? 2 : undefined)}\n`);
    });
}
