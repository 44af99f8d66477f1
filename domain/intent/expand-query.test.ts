import { describe, expect, it } from 'vitest';
import type { Intent } from '../../schemas/ingest.ts';
import { classifyQuery } from './classify-query.ts';
import { expandQuery } from './expand-query.ts';

const now = new Date('2026-03-01T00:00:00Z');
const subQueriesOf = (query: string) => classifyQuery(query, { now }).subQueries;

describe('per-intent expansion shapes (spec 001 phase 2)', () => {
  it.each<[string, Intent, string[]]>([
    ['what is WebTransport', 'factual', ['what is WebTransport', 'WebTransport definition', 'WebTransport explained overview']],
    ['Deno 进展', 'status', ['Deno 进展', 'Deno progress', 'Deno latest 2026', 'Deno update release']],
    ['Bun vs Deno', 'comparison', ['Bun vs Deno', 'Bun advantages', 'Deno advantages']],
    ['Rust CLI tutorial', 'tutorial', ['Rust CLI tutorial', 'Rust CLI guide step by step']],
    ['RISC-V', 'exploratory', ['RISC-V', 'RISC-V overview', 'RISC-V ecosystem', 'RISC-V use cases']],
    ['AI 新闻', 'news', ['AI 新闻', 'AI news', 'AI news this week 2026', 'AI announcement latest']],
    ['Anthropic MCP docs', 'resource', ['Anthropic MCP docs', 'Anthropic Model Context Protocol docs', 'Anthropic Model Context Protocol official documentation', 'Anthropic Model Context Protocol GitHub']],
  ])('%s (%s)', (query, intent, expected) => {
    const result = classifyQuery(query, { now });
    expect(result.intent).toBe(intent);
    expect(result.subQueries).toEqual(expected);
  });

  it.each<[string, string[]]>([
    ['is duckdb faster than sqlite for aggregations', ['duckdb vs sqlite for aggregations', 'duckdb advantages for aggregations', 'sqlite advantages for aggregations']],
    ['kafka vs pulsar vs redpanda', ['kafka advantages', 'pulsar advantages', 'redpanda advantages']],
    ['difference between TCP and UDP', ['TCP vs UDP', 'TCP advantages', 'UDP advantages']],
    ['Rust 和 Go 哪个好', ['Rust vs Golang', 'Rust advantages', 'Golang advantages']],
    ['选 Vue 还是 React', ['Vue vs React', 'Vue advantages', 'React advantages']],
    ['pros and cons of k8s vs nomad', ['Kubernetes vs nomad', 'Kubernetes advantages', 'nomad advantages']],
  ])('splits the comparison %s into one sub-query per side', (query, expected) => {
    const subQueries = subQueriesOf(query);
    expect(subQueries[0]).toBe(query);
    for (const subQuery of expected) expect(subQueries).toContain(subQuery);
  });

  it('falls back to "comparison" and "pros and cons" when the sides cannot be told apart', () => {
    expect(subQueriesOf('ETF mutual fund difference')).toEqual(['ETF mutual fund difference', 'ETF mutual fund comparison', 'ETF mutual fund pros and cons']);
  });

  it('expands the topic, not the framing words', () => {
    expect(subQueriesOf('how to set up postgres logical replication')).toEqual([
      'how to set up postgres logical replication',
      'how to set up PostgreSQL logical replication',
      'set up PostgreSQL logical replication tutorial',
      'set up PostgreSQL logical replication guide step by step',
    ]);
    expect(subQueriesOf('has openjdk valhalla shipped')).toContain('openjdk valhalla latest 2026');
  });
});

describe('technical synonyms', () => {
  it.each<[string, string]>([
    ['what is a k8s operator', 'what is a Kubernetes operator'],
    ['JS closures explained', 'JavaScript closures explained'],
    ['TS generics tutorial', 'TypeScript generics tutorial'],
    ['Go generics tutorial', 'Golang generics tutorial'],
    ['rust vs go for microservices', 'rust vs Golang for microservices'],
    ['postgres official docs', 'PostgreSQL official docs'],
    ['py asyncio tutorial', 'Python asyncio tutorial'],
    ['ｋ８ｓ 部署 教程', 'Kubernetes deployment tutorial'],
    ['Pyhton 官方下载', 'Python official download'],
  ])('%s → %s', (query, variant) => {
    expect(subQueriesOf(query)[1]).toBe(variant);
  });

  it.each(['Google cloud outage today', 'goal setting overview', 'next.js routing', 'let go of perfectionism', 'tsunami warning news', 'jsonnet vs cue'])(
    'leaves look-alike words alone: %s',
    (query) => {
      const joined = subQueriesOf(query).join(' | ');
      expect(joined).not.toMatch(/Golang|JavaScript|TypeScript|Kubernetes/u);
    },
  );
});

describe('English variants of Chinese technical queries', () => {
  it.each<[string, string]>([
    ['Rust 异步编程', 'Rust async programming'],
    ['向量数据库 性能 对比', 'vector database performance comparison'],
    ['什么是提示词注入', 'what is prompt injection'],
    ['大模型 最新进展', 'large language model latest progress'],
    ['微服务 容器 部署 教程', 'microservices container deployment tutorial'],
    ['Kafka 的分区是什么意思', 'Kafka partition meaning'],
  ])('%s → %s', (query, variant) => {
    expect(subQueriesOf(query)).toContain(variant);
  });

  it('keeps words it has no English for instead of dropping them', () => {
    expect(subQueriesOf('国家统计局数据官网')[1]).toBe('国家统计局 data official website');
  });
});

describe('expandQuery', () => {
  it('always starts with the query itself (whitespace tidied) and de-duplicates case-insensitively', () => {
    const subQueries = expandQuery('  tokio   github ', 'resource', { now });
    expect(subQueries).toEqual(['tokio github', 'tokio official documentation']);
  });

  it('caps the sub-queries at five by default, or at maxSubQueries', () => {
    const query = 'kafka vs pulsar vs redpanda vs nats vs rabbitmq';
    expect(expandQuery(query, 'comparison', { now })).toHaveLength(5);
    expect(expandQuery(query, 'comparison', { now, maxSubQueries: 2 })).toHaveLength(2);
  });

  it('expands any query for the intent it is given', () => {
    expect(expandQuery('RISC-V', 'tutorial', { now })).toEqual(['RISC-V', 'RISC-V tutorial', 'RISC-V guide step by step']);
  });

  it('returns nothing for a blank query', () => {
    expect(expandQuery('  ', 'factual', { now })).toEqual([]);
  });
});
