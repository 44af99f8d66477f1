import { describe, expect, it } from 'vitest';
import shippedGlossary from './zh-en-glossary.json' with { type: 'json' };
import { buildGlossary, translateChinese } from './chinese-glossary.ts';

const glossary = buildGlossary(shippedGlossary);

describe('translateChinese', () => {
  it.each<[string, string, number]>([
    ['Rust 异步编程', 'Rust async programming', 1],
    ['向量数据库', 'vector database', 1],
    ['提示词注入', 'prompt injection', 1],
    ['大模型最新进展', 'large language model latest progress', 2],
    ['微服务框架性能', 'microservices framework performance', 3],
    ['容器部署教程', 'container deployment tutorial', 3],
    ['Kafka 的分区', 'Kafka partition', 1],
    ['碳中和', 'carbon neutrality', 1],
    ['国家统计局数据', '国家统计局 data', 1],
    ['WebGPU browser', 'WebGPU browser', 0],
    ['深入了解 eBPF，好吗？', 'deep dive eBPF 好', 1],
  ])('%s → %s', (text, english, terms) => {
    expect(translateChinese(text, glossary)).toEqual({ text: english, translatedTerms: terms });
  });

  it('prefers the longest glossary term', () => {
    // 向量 + 数据库 would also translate; the whole term must win.
    expect(translateChinese('向量数据库', glossary)).toEqual({ text: 'vector database', translatedTerms: 1 });
  });
});

describe('buildGlossary', () => {
  it('ships a few hundred common technical terms', () => {
    expect(glossary.terms.size).toBeGreaterThanOrEqual(300);
    for (const term of ['异步', '教程', '性能', '部署', '框架', '数据库', '容器', '微服务', '提示词注入', '大模型', '向量数据库', '最新进展']) {
      expect(glossary.terms.has(term), term).toBe(true);
    }
  });

  it.each<[string, unknown]>([
    ['a list instead of a map', { ...shippedGlossary, terms: ['异步'] }],
    ['an empty translation', { ...shippedGlossary, terms: { 异步: '' } }],
    ['a missing version', { description: '', dropped: [], terms: {} }],
    ['an unknown field', { ...shippedGlossary, extra: true }],
    ['an empty dropped phrase', { ...shippedGlossary, dropped: ['的', ''] }],
    ['an empty phrase', { ...shippedGlossary, terms: { '': 'async' } }],
  ])('rejects %s with CONFIG_INVALID', (_case, raw) => {
    expect(() => buildGlossary(raw)).toThrowError(expect.objectContaining({ code: 'CONFIG_INVALID' }));
  });
});
