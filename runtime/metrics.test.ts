import { describe, expect, it } from 'vitest';
import type { EventLoopUtilization } from 'node:perf_hooks';
import { createMetricsRegistry, createSkillMetrics, createWorkerMetrics, startMetricsServer } from './metrics.ts';

describe('metrics', () => {
  it('keeps each service in its own registry with its service label', async () => {
    const retriever = createMetricsRegistry('retriever');
    const scorer = createMetricsRegistry('scorer');
    createSkillMetrics(retriever).calls.inc({ skill: 'exa_search', status: 'ok' });
    createSkillMetrics(scorer);
    expect(await retriever.metrics()).toContain('skrya_skill_calls_total{skill="exa_search",status="ok",service="retriever"} 1');
    expect(await scorer.metrics()).not.toContain('exa_search');
  });

  it("reports each worker thread's busy share since the previous scrape, and forgets a stage once it stops", async () => {
    const registry = createMetricsRegistry('scorer');
    const workers = createWorkerMetrics(registry);
    const at = (idle: number, active: number): EventLoopUtilization => ({ idle, active, utilization: active / (idle + active) });
    const readings = [
      [at(100, 100), at(100, 0)],
      [at(110, 190), at(200, 0)],
      [at(170, 230), at(220, 80)],
    ];
    let scrape = 0;
    const untrack = workers.track('scorer', () => readings[scrape]!);
    scrape = 1;
    let text = await registry.metrics();
    // Worker 0 was busy 90 of the 100 ms since it was tracked, worker 1 idle throughout.
    expect(text).toContain('skrya_worker_busy_ratio{service="scorer",worker="0"} 0.9');
    expect(text).toContain('skrya_worker_busy_ratio{service="scorer",worker="1"} 0');
    scrape = 2;
    text = await registry.metrics();
    expect(text).toContain('skrya_worker_busy_ratio{service="scorer",worker="0"} 0.4');
    expect(text).toContain('skrya_worker_busy_ratio{service="scorer",worker="1"} 0.8');
    untrack();
    expect(await registry.metrics()).not.toContain('skrya_worker_busy_ratio{');
  });

  it('serves GET /metrics on a random port and nothing else', async () => {
    const registry = createMetricsRegistry('retriever');
    createSkillMetrics(registry).errors.inc({ skill: 'brave_web_search', code: 'RATE_LIMITED' }, 2);
    const server = await startMetricsServer(registry, 0);
    try {
      expect(server.port).toBeGreaterThan(0);
      const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/plain');
      expect(await response.text()).toContain('skrya_skill_errors_total{skill="brave_web_search",code="RATE_LIMITED",service="retriever"} 2');
      expect((await fetch(`http://127.0.0.1:${server.port}/`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('answers GET /healthz with 200 while healthy and 503 once not (liveness and readiness probes)', async () => {
    let healthy = true;
    const server = await startMetricsServer(createMetricsRegistry('scorer'), 0, '127.0.0.1', () => healthy);
    try {
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(200);
      healthy = false;
      expect((await fetch(`http://127.0.0.1:${server.port}/healthz`)).status).toBe(503);
    } finally {
      await server.close();
    }
  });
});
