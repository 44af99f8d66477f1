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
import { CONSUMER_SERVICES, startConsumerService, type ConsumerService, type StageOptions } from './catalog.ts';
import { createMonitor } from './monitor/index.ts';

export const SERVICE_NAMES = ['monitor', ...CONSUMER_SERVICES] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RunningStages {
  stop(): Promise<void>;
  metricsPort: number | null;
  /** Resolves when any stage has crashed on a non-retriable error, naming it. */
  crashed: Promise<{ service: string; error: Error }>;
}

export interface RunStagesOptions extends StageOptions {
  monitorIntervalMs?: number;
  /** The monitor's clock (tests drive the schedule with it). */
  clock?: () => Date;
}

export async function runStages(pipeline: Pipeline, names: readonly ServiceName[], options: RunStagesOptions = {}): Promise<RunningStages> {
  const consumers: RunningService[] = [];
  for (const name of names) if (name !== 'monitor') consumers.push(await startConsumerService(name as ConsumerService, pipeline, options));
  // A consumer that dies before it joins its group never becomes ready: its error ends the wait.
  await Promise.all(consumers.map((service) => Promise.race([service.ready, service.crashed.then((error) => Promise.reject(error))])));

  let stopMonitor = async () => {};
  if (names.includes('monitor')) {
    const publisher = await pipeline.port.transactionalPublisher('monitor', 'monitor');
    const monitor = createMonitor({
      dataRoot: path.resolve(pipeline.config.SKRYA_DATA_ROOT),
      logger: pipeline.logger.child({ service: 'monitor' }),
      state: await pipeline.port.readCompacted('monitor-state'),
      publish: (request, state) => {
        const key = topicKeyOf(request);
        return publisher.publishAll([
          { topic: 'retrieval-requests', key, value: request },
          { topic: 'monitor-state', key, value: state },
        ]);
      },
    });
    let running: Promise<unknown> = monitor.tick(options.clock?.() ?? new Date());
    const timer = setInterval(() => {
      running = running.then(() => monitor.tick(options.clock?.() ?? new Date()));
    }, options.monitorIntervalMs ?? 30_000);
    stopMonitor = async () => {
      clearInterval(timer);
      await running;
      await publisher.close();
    };
  }

  const crashed = Promise.race(consumers.map((service) => service.crashed.then((error) => ({ service: service.service, error }))));
  // Healthy from here (every consumer has joined its group) until a stage crashes or stopping starts.
  let healthy = true;
  void crashed.then(() => {
    healthy = false;
  });
  let metrics: MetricsServer | null = null;
  if (pipeline.config.SKRYA_METRICS_PORT > 0) metrics = await startMetricsServer(pipeline.metrics.registry, pipeline.config.SKRYA_METRICS_PORT, pipeline.config.SKRYA_METRICS_HOST, () => healthy);

  return {
    metricsPort: metrics?.port ?? null,
    crashed,
    async stop() {
      healthy = false;
      await stopMonitor();
      await Promise.all(consumers.map((service) => service.stop()));
      await metrics?.close();
    },
  };
}
