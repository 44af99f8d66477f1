/**
 * Prometheus metrics: one prom-client Registry per service (no global default registry, so two
 * services in one all-in-one process never collide), metric families created by small factories,
 * and a /metrics endpoint.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface MetricsRegistryOptions {
  /** Process metrics (CPU, memory, event loop lag); off in tests to keep output small. */
  collectProcessMetrics?: boolean;
}

/** A Registry labelled with the service name. */
export function createMetricsRegistry(service: string, options: MetricsRegistryOptions = {}): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (options.collectProcessMetrics) collectDefaultMetrics({ register: registry, prefix: 'skrya_' });
  return registry;
}

export interface SkillMetrics {
  calls: Counter<'skill' | 'status'>;
  errors: Counter<'skill' | 'code'>;
  duration: Histogram<'skill'>;
}

/** Provider skill calls (spec 002, observability layer). */
export function createSkillMetrics(registry: Registry): SkillMetrics {
  return {
    calls: new Counter({
      name: 'skrya_skill_calls_total',
      help: 'Skill calls by skill and outcome (ok or error).',
      labelNames: ['skill', 'status'] as const,
      registers: [registry],
    }),
    errors: new Counter({
      name: 'skrya_skill_errors_total',
      help: 'Failed skill calls by skill and stable error code.',
      labelNames: ['skill', 'code'] as const,
      registers: [registry],
    }),
    duration: new Histogram({
      name: 'skrya_skill_call_duration_seconds',
      help: 'Wall time of a skill call, retries included.',
      labelNames: ['skill'] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [registry],
    }),
  };
}

export interface WorkerMetrics {
  /**
   * Reports a stage's worker threads (read: each one's event-loop utilization since it started)
   * until the returned function is called, when the stage stops.
   */
  track(service: string, read: () => readonly EventLoopUtilization[]): () => void;
}

/**
 * How busy each worker thread of a stage (the scorer's scoring workers) was since the previous
 * scrape: near 1 on every worker, the stage is bound by their CPU (more workers or cores help);
 * well under 1, it waits on its event loop or the broker instead.
 */
export function createWorkerMetrics(registry: Registry): WorkerMetrics {
  const tracked = new Map<string, { read: () => readonly EventLoopUtilization[]; previous: readonly EventLoopUtilization[] }>();
  new Gauge({
    name: 'skrya_worker_busy_ratio',
    help: 'Share of the time since the previous scrape each worker thread of a stage was busy (1: bound by its CPU).',
    labelNames: ['service', 'worker'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [service, entry] of tracked) {
        const now = entry.read();
        now.forEach((reading, worker) => {
          const before = entry.previous[worker];
          this.set({ service, worker: String(worker) }, (before === undefined ? reading : performance.eventLoopUtilization(reading, before)).utilization);
        });
        entry.previous = now;
      }
    },
  });
  return {
    track(service, read) {
      const entry = { read, previous: read() };
      tracked.set(service, entry);
      return () => {
        if (tracked.get(service) === entry) tracked.delete(service);
      };
    },
  };
}

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Serves GET /metrics in the Prometheus text format, and GET /healthz for liveness and readiness
 * probes: 200 while `healthy()` says so, 503 otherwise. Port 0 picks a free port.
 */
export function startMetricsServer(registry: Registry, port: number, host = '127.0.0.1', healthy: () => boolean = () => true): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const route = request.method === 'GET' ? request.url?.split('?')[0] : undefined;
    if (route === '/healthz') {
      const ok = healthy();
      response.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : 'stopping or crashed\n');
      return;
    }
    if (route !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found: try GET /metrics or GET /healthz\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => response.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics unavailable: ${String(error)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done, fail) => server.close((error) => (error ? fail(error) : done()))),
      });
    });
  });
}

export interface MessageMetrics {
  outcomes: Counter<'service' | 'outcome' | 'code'>;
}

/** What the runner did with each input: emitted, dropped or dead-lettered (with the reason code). */
export function createMessageMetrics(registry: Registry): MessageMetrics {
  return {
    outcomes: new Counter({
      name: 'skrya_messages_total',
      help: 'Runner outcomes by service: emit, drop, or deadLetter with its reason code.',
      labelNames: ['service', 'outcome', 'code'] as const,
      registers: [registry],
    }),
  };
}
