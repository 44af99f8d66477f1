import { describe, expect, it } from 'vitest';
import { keywordCoverage, prepareQueries } from './keyword-coverage.ts';

describe('keywordCoverage', () => {
  it.each([
    ['every term found', ['WebTransport API'], 'WebTransport API explained', 1],
    ['half the terms found', ['WebTransport API'], 'WebTransport explained', 0.5],
    ['no term found', ['WebTransport API'], 'HTTP/3 overview', 0],
    ['stop words in the query do not count', ['What is the WebTransport API'], 'WebTransport API', 1],
    ['case and width are folded', ['webtransport'], 'ＷＥＢＴＲＡＮＳＰＯＲＴ', 1],
    ['a term must match a whole word', ['go'], 'good golang tips', 0],
    ['a term next to non-ASCII punctuation', ['kafka release'], 'Kafka—release notes “kafka”', 1],
    ['an alias found next to non-ASCII punctuation', ['k8s upgrade'], '“Kubernetes” — upgrade', 1],
    ['Chinese terms match inside differently segmented text', ['Rust 异步编程'], 'Rust 的异步编程指南', 1],
    ['Chinese term missing', ['Rust 异步编程'], 'Rust 所有权指南', 1 / 3],
    // Sub-queries {bun, deno}, {bun, advantages}, {deno, advantages}: best 1, union 2/3 → 0.7·1 + 0.3·2/3.
    ['best sub-query dominates, the union adds a little', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun advantages', 0.9],
    // Best {bun, deno} = 1, union {bun, deno, advantages} 2/3.
    ['covering the main query but no expansion', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun and Deno compared', 0.9],
    ['all angles covered', ['Bun vs Deno', 'Bun advantages', 'Deno advantages'], 'Bun vs Deno: advantages of each', 1],
    ['no sub-queries', [], 'anything', 0],
    ['sub-queries of stop words only', ['what is the'], 'what is the', 0],
    // Issue 21: names spelled another known way (the intent code's synonym table and glossary).
    ['an abbreviation in the query finds the full name', ['Postgres 18 status'], 'PostgreSQL 18 status update', 1],
    ['the full name in the query finds the abbreviation', ['PostgreSQL replication'], 'Postgres replication guide', 1],
    ['k8s finds Kubernetes', ['k8s Gateway API'], 'Kubernetes Gateway API v1.4', 1],
    ['a spelled-out name finds its acronym', ['Model Context Protocol servers'], 'MCP servers directory', 1],
    ['a Chinese term finds its English phrase', ['向量数据库'], 'What is a vector database?', 1],
    ['an intent framing word keeps its own spelling', ['Tailwind 文档'], 'Tailwind documentation', 0.5],
    ['an ambiguous abbreviation does not expand', ['go tutorial'], 'golang tutorial', 0.5],
    ['an unrelated word is still not a match', ['Postgres tuning'], 'MySQL tuning', 0.5],
  ])('%s', (_name, subQueries, text, expected) => {
    expect(keywordCoverage(prepareQueries(subQueries), text)).toBeCloseTo(expected, 10);
  });
});
