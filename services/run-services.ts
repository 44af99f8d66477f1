/**
 * Runs a set of stages in this process until SIGTERM/SIGINT: each consumer service with its own
 * consumer group, and the monitor's schedule. Shutdown lets in-flight work finish, commits, and
 * disconnects.
 */
import path from 'node:path';
import type { Pipeline } from '../runtime/pipeline.ts';
import { topicKeyOf } from '../domain/run/run.ts';
import { startMetricsServer, type MetricsServer } from '../runtime/metrics.ts';
import type { RunningService } from '../runtime/runner.ts';
import type { StageOptions } from './catalog.ts';
import { CONSUMER_SERVICES, type ConsumerService } from './service-names.ts';
import { createDataTreeConfigs, createMonitor } from './monitor/index.ts';

export const SERVICE_NAMES = ['monitor', ...CONSUMER_SERVICES] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RunningStages {
  stop(): Promise<void>;
  metricsPort: number | null;
  /** Resolves when any stage has crashed on a non-retriable error, naming it. */
  crashed: Promise<{ service: string; error: Error }>;
}

export interface RunStagesOptions extends StageOptions {
  /** The longest the monitor sleeps between ticks (it wakes earlier when a topic is due or a config arrives). */
  monitorIntervalMs?: number;
  /** The monitor's clock (tests drive the schedule with it). */
  clock?: () => Date;
}

export async function runStages(pipeline: Pipeline, names: readonly ServiceName[], options: RunStagesOptions = {}): Promise<RunningStages> {
  const consumers: RunningService[] = [];
  const consumerNames = names.filter((name): name is ConsumerService => name !== 'monitor');
  // Loaded only when a consumer stage runs: a monitor-only process stays small.
  const { startConsumerService } = consumerNames.length > 0 ? await import('./catalog.ts') : { startConsumerService: null };
  for (const name of consumerNames) consumers.push(await startConsumerService!(name, pipeline, options));
  // A consumer that dies before it joins its group never becomes ready: its error ends the wait.
  await Promise.all(consumers.map((service) => Promise.race([service.ready, service.crashed.then((error) => Promise.reject(error))])));

  let stopMonitor = async () => {};
  let monitorCrashed: Promise<{ service: string; error: Error }> = new Promise(() => {});
  if (names.includes('monitor')) {
    const running = await startMonitor(pipeline, options);
    stopMonitor = running.stop;
    monitorCrashed = running.crashed.then((error) => ({ service: 'monitor', error }));
  }

  let metrics: MetricsServer | null = null;
  if (pipeline.config.SKRYA_METRICS_PORT > 0) metrics = await startMetricsServer(pipeline.metrics.registry, pipeline.config.SKRYA_METRICS_PORT);

  return {
    metricsPort: metrics?.port ?? null,
    crashed: Promise.race([monitorCrashed, ...consumers.map((service) => service.crashed.then((error) => ({ service: service.service, error })))]),
    async stop() {
      await stopMonitor();
      await Promise.all(consumers.map((service) => service.stop()));
      await metrics?.close();
    },
  };
}

/**
 * The monitor: publishes the data tree's topic configs and watches it (unless
 * SKRYA_MONITOR_WATCH_DATA_ROOT=off), joins the monitor group over topic-configs, and fires the
 * due topics of the shards it owns. It ticks when the earliest topic is due (at least every
 * `monitorIntervalMs`), and at once when a shard is loaded or a config changes. Resolves once the
 * first assignment is loaded and its due topics fired.
 */
async function startMonitor(pipeline: Pipeline, options: RunStagesOptions): Promise<{ stop(): Promise<void>; crashed: Promise<Error> }> {
  const { port, config } = pipeline;
  const logger = pipeline.logger.child({ service: 'monitor' });
  const clock = options.clock ?? (() => new Date());
  // It wakes when the earliest topic is due, or when a shard or a config arrives; this bound only
  // guards against the wall clock jumping (the old monitor's tick interval).
  const maxIdleMs = options.monitorIntervalMs ?? 30_000;

  let watcher: { close(): Promise<void> } | null = null;
  const writer = config.SKRYA_MONITOR_WATCH_DATA_ROOT === 'on' ? await port.compactedWriter('monitor', 'topic-configs') : null;
  if (writer) {
    const known = await port.readCompacted('topic-configs');
    const tree = createDataTreeConfigs({
      dataRoot: path.resolve(config.SKRYA_DATA_ROOT),
      logger,
      write: (changes) => writer.write(changes),
      published: new Map([...known].map(([key, value]) => [key, value.content_sha256])),
    });
    await tree.syncAll();
    watcher = tree.watch();
  }

  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const monitor = createMonitor({
    logger,
    publish: (shard, fired, deletedStates) => owners.publish(shard, [
      ...deletedStates.map((key) => ({ topic: 'monitor-state' as const, key, value: null })),
      ...fired.flatMap(({ request, state }) => {
        const key = topicKeyOf(request);
        return [{ topic: 'retrieval-requests' as const, key, value: request }, { topic: 'monitor-state' as const, key, value: state }];
      }),
    ]),
  });
  /** Ticks now (after the tick in flight), then sleeps until the next topic is due. */
  const tickSoon = (): Promise<unknown> => {
    if (timer) clearTimeout(timer);
    timer = null;
    ticking = ticking.then(async () => {
      if (stopped) return;
      await monitor.tick(clock());
      if (stopped) return;
      const next = monitor.nextDueAt();
      const delay = next === null ? maxIdleMs : Math.max(0, Math.min(maxIdleMs, next - clock().getTime()));
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void tickSoon(), delay);
    }).catch((error: unknown) => logger.error({ err: error }, 'monitor tick failed'));
    return ticking;
  };
  const owners = await port.shardOwners({
    logger,
    service: 'monitor',
    configTopic: 'topic-configs',
    stateTopic: 'monitor-state',
    sessionTimeoutMs: config.SKRYA_CONSUMER_SESSION_TIMEOUT_MS,
    handlers: {
      onAssignment: (shards) => monitor.assign(shards),
      onConfig: (shard, key, value) => {
        monitor.applyConfig(shard, key, value);
        if (!timer) return;
        // A changed config may be due at once; coalesce a burst of records into one tick.
        clearTimeout(timer);
        timer = setTimeout(() => void tickSoon(), 50);
      },
      onShardLoaded: (shard, state) => {
        monitor.shardLoaded(shard, state);
        void tickSoon();
      },
    },
  });
  await owners.ready;
  await tickSoon();
  return {
    crashed: owners.crashed,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await watcher?.close();
      await ticking;
      await owners.stop();
      await writer?.close();
    },
  };
}
