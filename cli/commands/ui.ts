import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';

export const DEFAULT_UI_HOST = '127.0.0.1';
export const DEFAULT_UI_PORT = 8470;

export function parsePort(text: string, flag: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new SkryaError('INVALID_INPUT', `${flag} ${JSON.stringify(text)} is not a port (0-65535; 0 picks a free one)`);
  return Number(text);
}

export function registerUiCommand(program: Command): void {
  program
    .command('ui')
    .option('--port <port>', 'port to listen on (0 picks a free one)', String(DEFAULT_UI_PORT))
    .option('--host <address>', 'address to bind; beyond loopback SKRYA_UI_TOKEN is required', DEFAULT_UI_HOST)
    .action(async (options: { port: string; host: string }) => {
      const port = parsePort(options.port, '--port');
      const pipeline = await connectPipeline({ clientId: 'skrya-ui' });
      // Loaded here, not at the top: `skrya run` reads this module's port helpers and must not pay for the view.
      const { serveOperatorView } = await import('../../ui/server.ts');
      const server = await serveOperatorView(pipeline, { host: options.host, port });
      process.stderr.write(`skrya ui: ${server.url} (read-only; stop with Ctrl-C)\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      await server.close();
    });
}
