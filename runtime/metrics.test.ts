import { describe, expect, it } from 'vitest';
import { createMetricsRegistry, createSkillMetrics, startMetricsServer } from './metrics.ts';

describe('metrics', () => {
  it('keeps each service in its own registry with its service label', async () => {
    const retriever = createMetricsRegistry('retriever');
    const scorer = createMetricsRegistry('scorer');
    createSkillMetrics(retriever).calls.inc({ skill: 'exa_search', status: 'ok' });
    createSkillMetrics(scorer);
    expect(await retriever.metrics()).toContain('skrya_skill_calls_total{skill="exa_search",status="ok",service="retriever"} 1');
    expect(await scorer.metrics()).not.toContain('exa_search');
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
