import { describe, expect, it } from 'vitest';
import { detectSignals } from './detect-signals.ts';
import { splitComparison } from './split-comparison.ts';

const split = (query: string) => splitComparison(query, detectSignals(query));

describe('splitComparison', () => {
  it.each<[string, string[], string]>([
    ['Bun vs Deno', ['Bun', 'Deno'], ''],
    ['kafka vs pulsar vs redpanda', ['kafka', 'pulsar', 'redpanda'], ''],
    ['rust vs go for microservices', ['rust', 'go'], 'for microservices'],
    ['is duckdb faster than sqlite for aggregations', ['duckdb', 'sqlite'], 'for aggregations'],
    ['which is better for beginners python or JS', ['python', 'JS'], ''],
    ['difference between TCP and UDP', ['TCP', 'UDP'], ''],
    ['gRPC REST tradeoffs', ['gRPC', 'REST'], ''],
    ['aws lambda compared to cloud run', ['aws lambda', 'cloud run'], ''],
    ['Rust 和 Go 哪个好', ['Rust', 'Go'], ''],
    ['支付宝和微信支付哪个手续费低', ['支付宝', '微信支付'], '手续费低'],
    ['Claude 和 GPT 哪个 coding 更强', ['Claude', 'GPT'], 'coding'],
    ['小团队 container orchestration 用 k8s 还是 swarm', ['k8s', 'swarm'], '小团队 container orchestration'],
    ['选 Vue 还是 React', ['Vue', 'React'], ''],
    ['PyTorch 与 TensorFlow 对比', ['PyTorch', 'TensorFlow'], ''],
  ])('%s', (query, subjects, context) => {
    expect(split(query)).toEqual({ subjects, context });
  });

  it.each(['ETF mutual fund difference', '华为 小米 拍照谁强', 'pros and cons of remote work'])('gives up when the sides cannot be told apart: %s', (query) => {
    expect(split(query)).toBeNull();
  });
});
