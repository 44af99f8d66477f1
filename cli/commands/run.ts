import type { Command } from 'commander';
import { SkryaError } from '../../runtime/errors.ts';
import { connectPipeline } from '../../runtime/pipeline.ts';
import path from 'node:path';
import type { Binding } from '../../services/retriever/index.ts';
import { SERVICE_NAMES, runStages, type ServiceName } from '../../services/run-services.ts';
import { DEFAULT_UI_HOST, parsePort } from './ui.ts';

export function registerRunCommand(program: Command): void {
  program
    .command('run <services...>')
    .option('--bind <capability=template>', "bind a capability to a command for this session, e.g. web_search='my-search {query} --since {since}' (repeatable)", (value: string, previous: string[]) => [...previous, value], [] as string[])
    .option('--bindings <file>', 'bindings file (JSON, outside the topic tree): { "<capability>": { "command": "…", "producer": "…" } }')
    .option('--ui <port>', 'also serve the read-only operator view on 127.0.0.1:<port> (skrya ui)')
    .action(async (services: string[], options: { bind: string[]; bindings?: string; ui?: string }) => {
      const uiPort = options.ui === undefined ? null : parsePort(options.ui, '--ui');
      const names = services.includes('all') ? [...SERVICE_NAMES] : services;
      const unknown = names.filter((name) => !(SERVICE_NAMES as readonly string[]).includes(name));
      if (unknown.length > 0) throw new SkryaError('INVALID_INPUT', `unknown service ${unknown.join(', ')}: choose from ${SERVICE_NAMES.join(', ')}, or all`);
      // A service started while the registry is down waits for it, as a running one does.
      const pipeline = await connectPipeline({ clientId: `skrya-${names.length === SERVICE_NAMES.length ? 'all' : names.join('-')}`, registryWaitMs: Number.POSITIVE_INFINITY });
      // The retriever (its adapters, HTML parsing, skills) is loaded only when bindings are given: a monitor-only process stays small.
      const retriever = options.bindings || options.bind.length > 0 ? await import('../../services/retriever/index.ts') : null;
      const bindings: Binding[] = retriever ? [
        ...(options.bindings ? retriever.loadBindingsFile(options.bindings, [path.resolve(pipeline.config.SKRYA_DATA_ROOT)]) : []),
        ...options.bind.map(retriever.parseBindFlag),
      ] : [];
      for (const binding of bindings) pipeline.logger.info({ capability: binding.capability, producer: binding.producer }, 'capability bound to a command for this session');
      const stages = await runStages(pipeline, names as ServiceName[], { bindings });
      // The view is loaded only when asked for: the services never pay for Fastify and the pages.
      const ui = uiPort === null ? null : await (await import('../../ui/server.ts')).serveOperatorView(pipeline, { host: DEFAULT_UI_HOST, port: uiPort });
      pipeline.logger.info({ services: names, metricsPort: stages.metricsPort, ui: ui?.url ?? null }, 'running; stop with Ctrl-C');
      const crash = await new Promise<{ service: string; error: Error } | null>((resolve) => {
        process.once('SIGINT', () => resolve(null));
        process.once('SIGTERM', () => resolve(null));
        void stages.crashed.then(resolve);
      });
      pipeline.logger.info('stopping: finishing in-flight work');
      await ui?.close();
      await stages.stop();
      // All flushed and committed. After a broker restart kafkajs's leave-group request reopens a
      // connection to a coordinator it no longer tracks, and that socket would keep the process alive
      // forever: whatever is still open a second from now must not keep it.
      setTimeout(() => process.exit(), 1_000).unref();
      // A stage that died of a bug takes the process down, loudly, so its supervisor restarts it.
      if (crash) throw new SkryaError('SERVICE_CRASHED', `${crash.service} crashed: ${crash.error.message}`, { cause: crash.error });
    });
}
