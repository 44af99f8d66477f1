import { describe, expect, it } from 'vitest';
import { INTENTS, type Intent } from '../../schemas/ingest.ts';
import { classifyQuery } from './classify-query.ts';
import { INTENT_PROFILES } from './intent-profiles.ts';

const now = new Date('2026-03-01T00:00:00Z');
const intentOf = (query: string) => classifyQuery(query, { now }).intent;

// Queries written for these tests (not taken from the labelled corpus), per intent and language.
const perIntent: Array<[Intent, 'en' | 'zh' | 'mixed', string]> = [
  ['factual', 'en', 'what is eventual consistency'],
  ['factual', 'en', 'whats a bloom filter'],
  ['factual', 'en', 'what does backpressure mean in streams'],
  ['factual', 'en', 'raft consensus definition'],
  ['factual', 'en', 'how does tcp slow start work'],
  ['factual', 'zh', '什么是零信任'],
  ['factual', 'zh', '微服务是什么'],
  ['factual', 'zh', '背压是什么意思'],
  ['factual', 'mixed', 'what is 服务网格'],
  ['factual', 'zh', 'OAuth2 PKCE 是干嘛的'],
  ['status', 'en', "what's new in vite 7"],
  ['status', 'en', 'is typescript 6 released yet'],
  ['status', 'en', 'current state of http/3 support'],
  ['status', 'en', 'how far along is the wasm gc proposal'],
  ['status', 'en', 'is svelte still maintained'],
  ['status', 'zh', 'Rust 编译器最新进展'],
  ['status', 'zh', '鸿蒙生态现在怎么样了'],
  ['status', 'zh', '国产芯片发展到什么水平了'],
  ['status', 'mixed', 'Node 22 发布了吗'],
  ['status', 'zh', 'PHP 还有人用吗'],
  ['comparison', 'en', 'mysql vs postgres for analytics'],
  ['comparison', 'en', 'aws lambda compared to cloud run'],
  ['comparison', 'en', 'is zig safer than c'],
  ['comparison', 'en', 'should i learn rust or go'],
  ['comparison', 'en', 'difference between threads and processes'],
  ['comparison', 'zh', 'Redis 和 Memcached 有什么不同'],
  ['comparison', 'zh', '买 mac 还是 windows 笔记本'],
  ['comparison', 'zh', 'PyTorch 与 TensorFlow 对比'],
  ['comparison', 'mixed', 'ClickHouse 跟 Doris 哪个快'],
  ['tutorial', 'en', 'how to deploy a nextjs app to vercel'],
  ['tutorial', 'en', 'nginx reverse proxy setup guide'],
  ['tutorial', 'en', 'configure nginx rate limiting'],
  ['tutorial', 'en', 'getting started with sveltekit'],
  ['tutorial', 'zh', 'Docker 怎么清理无用镜像'],
  ['tutorial', 'zh', '如何用 Python 读取 Excel'],
  ['tutorial', 'zh', 'Go 并发编程入门'],
  ['tutorial', 'mixed', 'ubuntu 安装 nvidia 驱动'],
  ['news', 'en', 'cloudflare outage today'],
  ['news', 'en', 'what happened with crowdstrike'],
  ['news', 'en', 'apple event announcements'],
  ['news', 'en', 'this week in rust'],
  ['news', 'zh', 'AI 行业今日要闻'],
  ['news', 'zh', '微软 收购 消息'],
  ['news', 'zh', '特斯拉 发布会 发布了什么'],
  ['news', 'mixed', '昨天 nvidia 股价'],
  ['news', 'en', 'chatgpt down?'],
  ['resource', 'en', 'fastapi docs'],
  ['resource', 'en', 'kubernetes official website'],
  ['resource', 'en', 'llama 3 paper'],
  ['resource', 'en', 'HTTP/2 RFC'],
  ['resource', 'en', 'vscode github'],
  ['resource', 'zh', 'Redis 中文文档'],
  ['resource', 'zh', 'MySQL 8 参考手册'],
  ['resource', 'zh', 'Spring Boot 源码地址'],
  ['resource', 'mixed', 'ImageNet dataset 下载'],
  ['exploratory', 'en', 'everything about vector search'],
  ['exploratory', 'en', 'deep dive into postgres mvcc'],
  ['exploratory', 'en', 'open source observability landscape'],
  ['exploratory', 'en', 'tell me about the rust community'],
  ['exploratory', 'zh', '边缘计算 生态 全景'],
  ['exploratory', 'zh', 'serverless 的发展趋势'],
  ['exploratory', 'zh', '深入了解 Kafka 副本机制'],
];

describe('classifyQuery intents', () => {
  it.each(perIntent)('%s (%s): %s', (intent, _language, query) => {
    expect(intentOf(query)).toBe(intent);
  });

  it('has examples of every intent in English and in Chinese', () => {
    for (const intent of INTENTS) {
      const languages = new Set(perIntent.filter(([expected]) => expected === intent).map(([, language]) => language));
      expect([intent, languages.has('en') && languages.has('zh')]).toEqual([intent, true]);
    }
  });
});

describe('specificity: when several intents match, the most specific wins', () => {
  it.each<[string, Intent, Intent[]]>([
    ['kafka vs pulsar latest benchmarks', 'comparison', ['status']],
    ['openai news this week latest', 'news', ['status']],
    ['latest kafka news', 'news', ['status']],
    ["what's new in deno 2", 'status', ['factual']],
    ['what is the difference between tcp and udp', 'comparison', ['factual']],
    ['how to download youtube videos', 'tutorial', ['resource']],
    ['GitHub Universe 发布了哪些 new features', 'news', ['status']],
    ['鸿蒙 目前进展如何', 'status', ['tutorial']],
    ['国务院会议 最新', 'news', ['status']],
    ['which is better for beginners python or js', 'comparison', ['tutorial']],
    ['JS ecosystem weekly roundup', 'news', ['exploratory']],
    ['深度解析 Kafka 存储原理', 'exploratory', ['factual']],
    ['how many users does mastodon have', 'factual', []],
    ['how far along is free-threaded python', 'status', []],
    ['kubernetes 1.34 released', 'news', []],
    ['kubernetes 1.34 released?', 'status', []],
    ['is kafka 4 released', 'status', ['news']],
  ])('%s → %s', (query, winner, alsoMatched) => {
    const result = classifyQuery(query, { now });
    expect(result.intent).toBe(winner);
    const matchedIntents = new Set(result.signals.map((signal) => signal.intent));
    for (const intent of alsoMatched) expect(matchedIntents.has(intent), `${intent} also matched`).toBe(true);
  });
});

describe('no signal means exploratory', () => {
  it.each(['量子计算', 'WebAssembly', 'local-first software', 'digital twins in manufacturing'])('%s', (query) => {
    const result = classifyQuery(query, { now });
    expect(result.intent).toBe('exploratory');
    expect(result.signals).toEqual([]);
  });
});

describe('robust to how people type', () => {
  it.each<[string, Intent]>([
    ['whats a monad', 'factual'],
    ['WHAT IS RLHF', 'factual'],
    ['what’s new in bun', 'status'],
    ['ｗｈａｔ ｉｓ ｋ８ｓ', 'factual'],
    ['Ｒｕｓｔ　教程', 'tutorial'],
    ['rust async tutoral', 'tutorial'],
    ['electoin results', 'news'],
    ['how 2 set up ssh keys', 'tutorial'],
    ['what is 提示词注入', 'factual'],
    ['Claude 和 GPT 哪个 coding 更强', 'comparison'],
    ['rust   vs    go', 'comparison'],
    ['latest progress on fusion energy?!', 'status'],
  ])('%s → %s', (query, intent) => {
    expect(intentOf(query)).toBe(intent);
  });

  it('does not correct a real word that is one letter from a signal word ("latent" is not "latest")', () => {
    const result = classifyQuery('latent space', { now });
    expect(result.signals).toEqual([]);
    expect(result.ruleIntent).toBe('exploratory');
  });
});

describe('classifyQuery output', () => {
  it('reports signals with spans into the query as typed, including full-width text', () => {
    const query = 'Ｒｕｓｔ　最新进展';
    const result = classifyQuery(query, { now });
    const progress = result.signals.find((signal) => signal.intent === 'status' && query.slice(...signal.span) === '最新进展');
    expect(progress).toBeDefined();
    const typo = classifyQuery('electoin results', { now }).signals.find((signal) => signal.intent === 'news' && signal.signal.startsWith('event'));
    expect(typo?.span).toEqual([0, 8]);
  });

  it.each(INTENTS)('gives %s the mode and freshness of the spec 001 table', (intent) => {
    const query = perIntent.find(([expected]) => expected === intent)?.[2] ?? '';
    const result = classifyQuery(query, { now });
    expect(result.intent).toBe(intent);
    expect({ mode: result.mode, freshness: result.freshness }).toEqual(INTENT_PROFILES[intent]);
  });

  it('uses the table values: status pw, news pd, resource fast, factual without freshness', () => {
    expect(INTENT_PROFILES).toMatchObject({
      factual: { mode: 'answer', freshness: null },
      status: { mode: 'deep', freshness: 'pw' },
      comparison: { mode: 'deep', freshness: 'py' },
      tutorial: { mode: 'answer', freshness: 'py' },
      exploratory: { mode: 'deep', freshness: null },
      news: { mode: 'deep', freshness: 'pd' },
      resource: { mode: 'fast', freshness: null },
    });
  });

  it('is deterministic for a given now, and takes the year of expansions from it', () => {
    const first = classifyQuery('Deno 进展', { now });
    expect(classifyQuery('Deno 进展', { now })).toEqual(first);
    expect(first.subQueries).toContain('Deno latest 2026');
    expect(classifyQuery('Deno 进展', { now: new Date('2031-06-01T00:00:00Z') }).subQueries).toContain('Deno latest 2031');
  });

  it.each(['', '   ', '\u3000\n'])('rejects a blank query (%j) with INVALID_INPUT', (query) => {
    expect(() => classifyQuery(query)).toThrowError(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});
