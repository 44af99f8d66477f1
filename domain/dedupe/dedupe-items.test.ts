import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRandom } from '../learned/random.ts';
import { createTokenIds } from '../text/token-ids.ts';
import { createDedupeRun, createOverlapIndex, DEFAULT_OVERLAP_THRESHOLD, dedupeItems, differentVersions, matchedText, matchKeys, MIN_SHARED_WORDS, OVERLAP_INDEX_MAX_ITEMS, rankOrder, versionKey, VOCABULARY_LIMIT, vocabularyTokens, type DedupeCandidate, type NearDuplicateFeatures } from './dedupe-items.ts';

const candidate = (overrides: Partial<DedupeCandidate> & { id: string }): DedupeCandidate => ({
  url: null,
  provider: 'brave',
  title: 'Story',
  text: '',
  score: 0.5,
  ...overrides,
});

const ARTICLE = 'Kubernetes 1.30 is here. The release brings 45 enhancements: 17 graduating to stable, 18 to beta and 10 new alpha features. Highlights include structured authorization configuration, recursive read-only mounts and the new node log query feature, which lets administrators read service logs without logging into the node.';
const OTHER_RELEASE = 'Kubernetes 1.29 is here. The release brings 49 enhancements: 11 graduating to stable, 19 to beta and 19 new alpha features. Highlights include KMS v2 encryption at rest, sidecar containers in beta and the new nftables kube-proxy backend for Linux nodes.';

describe('dedupeItems: exact merge by canonical URL', () => {
  it.each([
    ['tracking parameters, www and http', ['https://www.theverge.com/2026/3/1/story?utm_source=twitter', 'http://theverge.com/2026/3/1/story/', 'https://theverge.com/2026/3/1/story#comments']],
    ['an AMP cache copy', ['https://www.theverge.com/2026/3/1/story', 'https://www-theverge-com.cdn.ampproject.org/c/s/www.theverge.com/2026/3/1/story']],
    ['query order and click ids', ['https://news.ycombinator.com/item?id=1&p=2', 'https://news.ycombinator.com/item?p=2&id=1&fbclid=abc']],
    ['percent-encoding case and IDN', ['https://例子.测试/caf%c3%a9', 'https://xn--fsqu00a.xn--0zwm56d/café/']],
    ['duplicate slashes and default port', ['https://example.com:443//docs//guide', 'https://example.com/docs/guide/']],
  ])('merges %s', (_name, urls) => {
    const items = urls.map((url, index) => candidate({ id: `id-${index}`, url, provider: ['brave', 'exa', 'tavily'][index] ?? 'rss' }));
    const result = dedupeItems(items);
    expect(result).toHaveLength(1);
    expect(result[0]?.sources.map((source) => source.url)).toEqual(urls);
    expect(result[0]?.merged.every((merge) => merge.reason === 'canonical_url')).toBe(true);
  });

  it.each([
    ['different ids on the same page', ['https://news.ycombinator.com/item?id=1', 'https://news.ycombinator.com/item?id=2']],
    ['a mobile host', ['https://example.com/story', 'https://m.example.com/story']],
    ['a different path case', ['https://github.com/Foo/bar', 'https://github.com/foo/bar']],
    ['a different port', ['https://example.com/a', 'https://example.com:8443/a']],
  ])('keeps apart %s', (_name, urls) => {
    const items = urls.map((url, index) => candidate({ id: `id-${index}`, url }));
    expect(dedupeItems(items)).toHaveLength(2);
  });

  it('takes the canonical URL a caller gives (a scored item carries its own) instead of working one out', () => {
    const given = dedupeItems([
      candidate({ id: 'a', url: 'https://example.com/one', canonicalUrl: 'https://example.com/story' }),
      candidate({ id: 'b', url: 'https://example.com/two', canonicalUrl: 'https://example.com/story' }),
      candidate({ id: 'c', url: 'https://example.com/story', canonicalUrl: null }),
    ]);
    expect(given.map((item) => [item.item.id, item.canonicalUrl, item.merged.map((merge) => merge.reason)])).toEqual([
      ['a', 'https://example.com/story', ['canonical_url']],
      ['c', null, []],
    ]);
    // Given as the function gives it, the result is the one worked out.
    const urls = ['https://www.example.com/a?utm_source=x', 'http://example.com/a/', 'https://example.com/b'];
    const outcome = (items: DedupeCandidate[]) => dedupeItems(items).map(({ item, ...rest }) => ({ id: item.id, ...rest }));
    const worked = outcome(urls.map((url, index) => candidate({ id: `w${index}`, url })));
    expect(worked).toHaveLength(2);
    expect(outcome(urls.map((url, index) => candidate({ id: `w${index}`, url, canonicalUrl: matchKeys(candidate({ id: 'x', url })).canonicalUrl })))).toEqual(worked);
  });

  it('merges through rel=canonical hints', () => {
    const items = [
      candidate({ id: 'a', url: 'https://example.com/story/amp', canonicalHints: { relCanonical: 'https://example.com/story' } }),
      candidate({ id: 'b', url: 'https://www.example.com/story' }),
    ];
    expect(dedupeItems(items)).toHaveLength(1);
  });

  it('never merges items without a usable URL by URL', () => {
    const items = [candidate({ id: 'a', url: null }), candidate({ id: 'b', url: null }), candidate({ id: 'c', url: 'not a url' }), candidate({ id: 'd', url: 'not a url' })];
    expect(dedupeItems(items)).toHaveLength(4);
  });
});

describe('dedupeItems: which copy is kept', () => {
  it('keeps the highest-scored copy and lists every copy, kept first, then best first', () => {
    const url = 'https://example.com/story';
    const result = dedupeItems([
      candidate({ id: 'low', url, score: 0.5, provider: 'brave' }),
      candidate({ id: 'high', url: `${url}?utm_source=x`, score: 0.9, provider: 'exa' }),
      candidate({ id: 'mid', url: `${url}/`, score: 0.7, provider: 'tavily' }),
    ]);
    expect(result).toHaveLength(1);
    expect(result[0]?.item.id).toBe('high');
    expect(result[0]?.sources.map((source) => source.provider)).toEqual(['exa', 'tavily', 'brave']);
    expect(result[0]?.merged.map((merge) => merge.id)).toEqual(['mid', 'low']);
  });

  it('breaks equal scores by canonical URL (then id among copies of one URL), whatever the input order', () => {
    const url = 'https://example.com/story';
    const forward = dedupeItems([candidate({ id: 'b', url }), candidate({ id: 'a', url }), candidate({ id: 'c', url: 'https://example.com/other' })]);
    const backward = dedupeItems([candidate({ id: 'c', url: 'https://example.com/other' }), candidate({ id: 'a', url }), candidate({ id: 'b', url })]);
    expect(forward.map((item) => item.item.id)).toEqual(['c', 'a']);
    expect(backward.map((item) => item.item.id)).toEqual(['c', 'a']);
  });

  it('without scores keeps provider order and the first copy', () => {
    const result = dedupeItems([
      candidate({ id: 'z', url: 'https://example.com/1', score: null }),
      candidate({ id: 'y', url: 'https://example.com/2', score: null }),
      candidate({ id: 'a', url: 'https://example.com/1/', score: null }),
    ]);
    expect(result.map((item) => item.item.id)).toEqual(['z', 'y']);
  });

  it('lists one provider returning one URL twice (two sub-queries) once as a source', () => {
    const url = 'https://example.com/story';
    const [item] = dedupeItems([candidate({ id: 'a', url }), candidate({ id: 'b', url })]);
    expect(item?.sources).toHaveLength(1);
    expect(item?.merged).toEqual([{ id: 'b', reason: 'canonical_url' }]);
  });

  it('lists each provider + URL once however many copies merge (below and past a dozen sources)', () => {
    // 40 copies of one page: 4 providers × 5 URL variants, each returned twice, best-ranked first.
    const variants = ['https://example.com/story', 'https://www.example.com/story', 'http://example.com/story/', 'https://example.com/story?utm_source=x', 'https://example.com/story#top'];
    const providers = ['brave', 'exa', 'tavily', 'rss'];
    const copies = [0, 1].flatMap((round) => variants.flatMap((url, v) => providers.map((provider, p) => ({ url, provider, id: `${round}-${v}-${p}`, score: 1 - (round * 20 + v * 4 + p) / 100 }))));
    const [item, ...rest] = dedupeItems(copies.map((copy) => candidate(copy)));
    expect(rest).toHaveLength(0);
    expect(item?.merged).toHaveLength(39);
    expect(item?.sources.map((source) => `${source.provider} ${source.url}`)).toEqual(variants.flatMap((url) => providers.map((provider) => `${provider} ${url}`)));
  });
});

describe('dedupeItems: near-duplicates', () => {
  it.each([
    ['a syndicated copy with a byline in front', `Originally published on the CNCF blog. ${ARTICLE}`],
    ['a copy with a newsletter footer', `${ARTICLE} Subscribe to our newsletter for more.`],
    ['a lightly edited copy', ARTICLE.replace('45 enhancements', 'forty-five enhancements').replace('administrators', 'admins')],
  ])('merges %s at another URL', (_name, text) => {
    const result = dedupeItems([
      candidate({ id: 'original', url: 'https://kubernetes.io/blog/2026/04/17/kubernetes-v1-30-release/', title: 'Kubernetes v1.30: Uwubernetes', text: ARTICLE, score: 0.9, provider: 'exa' }),
      candidate({ id: 'copy', url: 'https://www.cncf.io/blog/2026/04/18/kubernetes-1-30/', title: 'Kubernetes v1.30: Uwubernetes', text, score: 0.6, provider: 'brave' }),
    ]);
    expect(result).toHaveLength(1);
    expect(result[0]?.item.id).toBe('original');
    expect(result[0]?.merged).toEqual([{ id: 'copy', reason: 'near_duplicate' }]);
    expect(result[0]?.sources.map((source) => source.provider)).toEqual(['exa', 'brave']);
  });

  it.each([
    ['the previous release written from the same template', { title: 'Kubernetes v1.29: Mandala', text: OTHER_RELEASE }],
    ['two short items with the same title', { title: 'Kubernetes v1.30: Uwubernetes', text: 'Release notes' }],
  ])('keeps apart %s', (_name, other) => {
    const shortOriginal = other.text === 'Release notes' ? { text: 'Release notes' } : { text: ARTICLE };
    const result = dedupeItems([
      candidate({ id: 'a', url: 'https://kubernetes.io/a', title: 'Kubernetes v1.30: Uwubernetes', ...shortOriginal }),
      candidate({ id: 'b', url: 'https://kubernetes.io/b', ...other }),
    ]);
    expect(result).toHaveLength(2);
  });

  it('does not let the run topic (words in most items) merge different articles', () => {
    const topic = 'Kubernetes release cluster upgrade notes';
    const items = Array.from({ length: 30 }, (_, index) =>
      candidate({ id: `item-${String(index).padStart(2, '0')}`, url: `https://example.com/${index}`, title: topic, text: `${topic} ${topic} story ${index} about word${index}a word${index}b word${index}c word${index}d` }),
    );
    expect(dedupeItems(items)).toHaveLength(30);
  });

  it('counts every occurrence of a word in the fingerprint, not each word once', () => {
    // The same ten words, one of them said thirty times more: its hash is most of the second
    // fingerprint. Word overlap (the same word sets) is turned off, so only fingerprints can merge them.
    const words = 'orbit lantern quartz meadow falcon harbor ember willow summit cobalt';
    const result = dedupeItems([
      candidate({ id: 'once', url: 'https://a.example/1', title: '', text: words }),
      candidate({ id: 'repeated', url: 'https://b.example/2', title: '', text: `${words} ${'falcon '.repeat(30)}` }),
      candidate({ id: 'reordered', url: 'https://c.example/3', title: '', text: words.split(' ').reverse().join(' ') }),
    ], { overlapThreshold: 2 });
    expect(result.map((cluster) => [cluster.item.id, cluster.merged.map((copy) => copy.id)])).toEqual([
      ['once', ['reordered']],
      ['repeated', []],
    ]);
  });

  it('joins the best-ranked cluster, not a chain of near-duplicates', () => {
    const result = dedupeItems([
      candidate({ id: 'b-copy', url: 'https://b.example/1', title: 'Kubernetes v1.30', text: `Reposted. ${ARTICLE}`, score: 0.4 }),
      candidate({ id: 'a-original', url: 'https://a.example/1', title: 'Kubernetes v1.30', text: ARTICLE, score: 0.8 }),
    ]);
    expect(result.map((item) => item.item.id)).toEqual(['a-original']);
  });
});

describe('rankOrder', () => {
  it.each([
    ['score descending', [{ id: 'a', score: 0.1 }, { id: 'b', score: 0.9 }], [1, 0]],
    ['equal scores by id when nothing else differs', [{ id: 'b', score: 0.5 }, { id: 'a', score: 0.5 }], [1, 0]],
    ['equal scores by canonical URL before id', [{ id: 'a', score: 0.5, canonicalUrl: 'https://b.example/' }, { id: 'b', score: 0.5, canonicalUrl: 'https://a.example/' }], [1, 0]],
    ['equal scores without URL after those with one', [{ id: 'a', score: 0.5, canonicalUrl: null }, { id: 'b', score: 0.5, canonicalUrl: 'https://z.example/' }], [1, 0]],
    ['equal scores and URLs by content hash before id', [{ id: 'a', score: 0.5, canonicalUrl: null, contentHash: 'ff' }, { id: 'b', score: 0.5, canonicalUrl: null, contentHash: '00' }], [1, 0]],
    ['unscored after scored', [{ id: 'a', score: null }, { id: 'b', score: 0.1 }], [1, 0]],
    ['unscored in input order', [{ id: 'b', score: null }, { id: 'a', score: null }], [0, 1]],
  ])('%s', (_name, items, expected) => {
    expect(rankOrder(items)).toEqual(expected);
  });
});

describe('rankOrder: packed and compared orders agree', () => {
  // The order rankOrder promises, written out item against item: the oracle for both of its ways.
  const expectedOrder = (items: { id: string; score: number | null; canonicalUrl: string | null; contentHash?: string }[]) =>
    items.map((_item, index) => index).sort((left, right) => {
      const a = items[left]!;
      const b = items[right]!;
      if (a.score === null || b.score === null) return a.score === b.score ? left - right : a.score === null ? 1 : -1;
      if (a.score !== b.score) return b.score - a.score;
      const [urlA, urlB] = [a.canonicalUrl ?? '\uffff', b.canonicalUrl ?? '\uffff'];
      const url = urlA === urlB ? 0 : urlA < urlB ? -1 : 1;
      if (url !== 0) return url;
      const hash = (a.contentHash ?? '\uffff') === (b.contentHash ?? '\uffff') ? 0 : (a.contentHash ?? '\uffff') < (b.contentHash ?? '\uffff') ? -1 : 1;
      if (hash !== 0) return hash;
      return a.id === b.id ? left - right : a.id < b.id ? -1 : 1;
    });
  // Few distinct values, so scores, URLs, hashes and ids often tie; millionths take the packed sort, other scores the compared one.
  const item = fc.record({
    id: fc.constantFrom('a', 'b', 'c'),
    score: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 4 }).map((step) => step / 4), fc.integer({ min: 0, max: 1_000_000 }).map((step) => step / 1e6)),
    canonicalUrl: fc.constantFrom(null, 'https://a.example/', 'https://b.example/'),
    contentHash: fc.constantFrom(undefined, '00', 'ff'),
  });

  it('orders whole-millionth scores as the comparison does, ties and unscored items included', () => {
    fc.assert(fc.property(fc.array(item, { maxLength: 60 }), (items) => {
      expect(rankOrder(items)).toEqual(expectedOrder(items));
    }));
  });

  it('orders any other scores (negative, above 1, finer than a millionth) as the comparison does', () => {
    const odd = fc.record({ id: fc.constantFrom('a', 'b'), score: fc.oneof(fc.constant(null), fc.double({ min: -2, max: 2, noNaN: true }), fc.constantFrom(0.5, 0.1234567)), canonicalUrl: fc.constantFrom(null, 'https://a.example/'), contentHash: fc.constant(undefined) });
    fc.assert(fc.property(fc.array(odd, { maxLength: 40 }), (items) => {
      expect(rankOrder(items)).toEqual(expectedOrder(items));
    }));
  });
});

describe('dedupeItems: determinism', () => {
  it('gives the same result for any input order', () => {
    const base = [
      candidate({ id: 'k1', url: 'https://kubernetes.io/1', title: 'Kubernetes v1.30: Uwubernetes', text: ARTICLE, score: 0.8 }),
      candidate({ id: 'k2', url: 'https://cncf.io/k', title: 'Kubernetes v1.30: Uwubernetes', text: `Originally published on kubernetes.io. ${ARTICLE}`, score: 0.8, provider: 'exa' }),
      candidate({ id: 'k3', url: 'https://kubernetes.io/2', title: 'Kubernetes v1.29: Mandala', text: OTHER_RELEASE, score: 0.8 }),
      candidate({ id: 'x1', url: 'https://www.example.com/a?utm_source=x', score: 0.3 }),
      candidate({ id: 'x2', url: 'http://example.com/a/', score: 0.3, provider: 'tavily' }),
      candidate({ id: 'x3', url: 'https://example.com/b', score: 0.3 }),
    ];
    const expected = dedupeItems(base);
    // k1 and k2 are near-duplicates with one score: the copy with the first canonical URL is kept.
    expect(expected.map((item) => item.item.id)).toEqual(['k2', 'k3', 'x1', 'x3']);
    fc.assert(
      fc.property(fc.shuffledSubarray(base, { minLength: base.length }), (shuffled) => {
        expect(dedupeItems(shuffled)).toEqual(expected);
      }),
    );
  });
});

describe('dedupeItems: copies across sites and releases (issue 21)', () => {
  const candidate = (id: string, url: string, title: string, text: string, score: number) => ({ id, url, provider: 'brave', title, text, score });
  const story = 'The OpenSSL project released versions 3.6.1, 3.5.5 and 3.0.19 to fix CVE-2026-4121, a high-severity bug in X.509 certificate name constraint checking that lets a crafted certificate crash servers that verify client certificates.';

  it('merges a syndicated copy on another domain that adds a line and a title suffix', () => {
    const clusters = dedupeItems([
      candidate('original', 'https://www.bleepingcomputer.com/news/openssl-patch/', 'OpenSSL patches high-severity X.509 flaw', story, 0.9),
      candidate('mirror', 'https://newsfeed.example.io/openssl-patches-x509-flaw', 'OpenSSL patches high-severity X.509 flaw - TechNewsNow', `${story} Read more at BleepingComputer.`, 0.5),
      candidate('other', 'https://www.theregister.com/2026/11/18/openssl/', 'OpenSSL fixes certificate parsing bug, admins told to patch', 'Maintainers of the widely used crypto library shipped fixes on Tuesday for a high-severity denial-of-service flaw in certificate verification.', 0.7),
    ]);
    expect(clusters.map((cluster) => [cluster.item.id, cluster.merged])).toEqual([
      ['original', [{ id: 'mirror', reason: 'near_duplicate' }]],
      ['other', []],
    ]);
  });

  it.each([
    ['Deno 2.5 / 2.6 release notes', 'Deno 2.5 release notes', 'Deno 2.6 release notes'],
    ['PostgreSQL 18.0 / 18.1', 'PostgreSQL: Release Notes 18.0', 'PostgreSQL: Release Notes 18.1'],
    ['v-prefixed tags', 'Release v1.3.0 - kubernetes-sigs/gateway-api', 'Release v1.4.0 - kubernetes-sigs/gateway-api'],
  ])('never merges near-identical notes of different versions: %s', (_name, leftTitle, rightTitle) => {
    const notes = 'This release contains a variety of fixes. Bug fixes: fixed memory leak in the server when the handshake fails, improved compatibility, faster installs and many documentation updates.';
    const clusters = dedupeItems([
      candidate('a', 'https://example.org/notes/a', leftTitle, notes, 0.9),
      candidate('b', 'https://example.org/notes/b', rightTitle, notes, 0.8),
    ]);
    expect(clusters).toHaveLength(2);
  });

  it('still merges copies of the same version', () => {
    const notes = 'This release contains a variety of fixes. Bug fixes: fixed memory leak in the server when the handshake fails, improved compatibility, faster installs and many documentation updates.';
    const clusters = dedupeItems([
      candidate('a', 'https://bun.com/blog/bun-v1.3.2', 'Bun v1.3.2', notes, 0.9),
      candidate('b', 'https://bun.sh/blog/bun-v1.3.2', 'Bun v1.3.2', notes, 0.8),
    ]);
    expect(clusters).toHaveLength(1);
  });

  it.each([
    ['a version in the title', 'Deno 2.6 released', 'Also fixes 2.5.4 regressions', '2.6'],
    ['title without a version falls back to the text', 'Release notes', 'Fixes in 18.1 and 17.5', '17.5 18.1'],
    ['a year is not a version', 'News from 2026', 'Published 2026', ''],
  ])('versionKey: %s', (_name, title, text, expected) => {
    expect(versionKey(title, text)).toBe(expected);
  });

  it('reads differentVersions as "both name versions, not the same"', () => {
    expect(differentVersions('2.5', '2.6')).toBe(true);
    expect(differentVersions('2.6', '2.6')).toBe(false);
    expect(differentVersions('', '2.6')).toBe(false);
  });
});

describe('dedupeItems: kinds of copy (mirrors, PDF copies, translations) and what stays apart', () => {
  const candidate = (id: string, url: string, title: string, text: string, score: number) => ({ id, url, provider: 'exa', title, text, score });
  const essay = 'What QUIC is, why it runs over UDP, how connection IDs let a connection survive a change of address, and what encrypted transport headers mean for middleboxes.';
  const chapter = 'QUIC is a name, not an acronym. It is a transport protocol on top of UDP with built-in TLS 1.3, streams and connection migration, and this chapter explains each of them in turn.';
  const spec = 'WebAssembly (abbreviated Wasm) is a safe, portable, low-level code format designed for efficient execution and compact representation. Its main goal is to enable high performance applications on the Web.';
  const readme = 'https://github.com/servicemesher/service-mesh-explained/blob/main';

  it.each([
    ['a mirror on another site with a credit line and a site name in the title',
      ['https://blog.apnic.net/2026/03/12/quic-explained/', 'QUIC explained for network operators', essay],
      ['https://www.circleid.com/posts/20260314-quic-explained', 'QUIC explained for network operators - CircleID', `${essay} Originally published on the APNIC blog.`], 'near_duplicate'],
    ['a PDF copy: file name as title, page header, words hyphenated at line ends',
      ['https://http3-explained.haxx.se/en/quic', 'QUIC - HTTP/3 explained', chapter],
      ['https://daniel.haxx.se/http3-explained/http3-explained.pdf', 'http3-explained.pdf', `HTTP/3 explained 7 ${chapter.replace('transport', 'trans- port').replace('chapter', 'chap- ter')}`], 'near_duplicate'],
    ['a translated README beside the original (no shared words)',
      [`${readme}/README.md`, 'service-mesh-explained/README.md', 'A service mesh is a dedicated infrastructure layer for service-to-service communication, with sidecar proxies, a data plane and a control plane.'],
      [`${readme}/README.zh-CN.md`, 'service-mesh-explained/README.zh-CN.md', '服务网格是处理服务间通信的专用基础设施层。本指南介绍 Sidecar 代理、数据平面与控制平面、服务间 mTLS 和流量拆分。'], 'translation'],
  ] as const)('merges %s', (_name, [originalUrl, originalTitle, originalText], [copyUrl, copyTitle, copyText], reason) => {
    const clusters = dedupeItems([candidate('original', originalUrl, originalTitle, originalText, 0.9), candidate('copy', copyUrl, copyTitle, copyText, 0.6)]);
    expect(clusters.map((cluster) => [cluster.item.id, cluster.merged])).toEqual([['original', [{ id: 'copy', reason }]]]);
  });

  it.each([
    ['the same specification text in versions 1.0 and 2.0',
      ['https://webassembly.github.io/spec/core/intro/introduction.html', 'Introduction - WebAssembly 2.0 specification', spec],
      ['https://webassembly.github.io/spec/versions/core/WebAssembly-1.0.pdf', 'WebAssembly Core Specification 1.0', `${spec} Version 1.0`]],
    ['a translation of another tag\'s README',
      ['https://github.com/o/r/blob/v1.0/README.md', 'r/README.md at v1.0', 'A short guide.'],
      ['https://github.com/o/r/blob/v2.0/README.zh-CN.md', 'r/README.zh-CN.md at v2.0', '简短的指南。']],
    ['two language editions of an encyclopedia article (not files beside each other)',
      ['https://en.wikipedia.org/wiki/Service_mesh', 'Service mesh - Wikipedia', 'In software architecture, a service mesh is a dedicated infrastructure layer for facilitating service-to-service communications between services or microservices using a proxy.'],
      ['https://zh.wikipedia.org/wiki/服务网格', '服务网格 - 维基百科', '服务网格是一个专门处理服务间通信的基础设施层，通常以轻量网络代理实现。']],
  ] as const)('keeps apart %s', (_name, [leftUrl, leftTitle, leftText], [rightUrl, rightTitle, rightText]) => {
    const clusters = dedupeItems([candidate('a', leftUrl, leftTitle, leftText, 0.9), candidate('b', rightUrl, rightTitle, rightText, 0.6)]);
    expect(clusters).toHaveLength(2);
  });
});

describe('dedupeItems: a text made only of the run\'s common words', () => {
  const sentence = 'The OpenAPI Specification (OAS) defines a standard, programming language-agnostic interface description for HTTP APIs, which allows both humans and computers to discover and understand the capabilities of a service.';
  const item = (id: string, url: string, title: string, text: string, score: number) => ({ id, url, provider: 'brave', title, text, score });

  it('still finds its copies by word overlap (it has no fingerprint), and keeps every other version apart', () => {
    // Every word of the current version's page is in more than three of these items, so it is
    // left out of the fingerprint: only word overlap can find the PDF and the mirrors.
    const clusters = dedupeItems([
      item('current', 'https://spec.openapis.org/oas/latest.html', 'OpenAPI Specification v3.2.0', sentence, 0.9),
      item('current-pdf', 'https://spec.openapis.org/oas/v3.2.0.pdf', 'OpenAPI Specification v3.2.0 (PDF)', `OpenAPI Specification v3.2.0 ${sentence.replace('language-agnostic', 'language- agnostic')}`, 0.5),
      item('mirror-1', 'https://oas.mirror.example.org/latest.html', 'OpenAPI Specification v3.2.0', sentence, 0.45),
      item('mirror-2', 'https://openapi.mirror.example.net/v3.2.0.html', 'OpenAPI Specification v3.2.0', sentence, 0.42),
      item('previous', 'https://spec.openapis.org/oas/v3.1.0.html', 'OpenAPI Specification v3.1.0', sentence, 0.7),
      item('older', 'https://spec.openapis.org/oas/v3.0.0.html', 'OpenAPI Specification v3.0.0', sentence.replace('HTTP APIs', 'RESTful APIs'), 0.6),
      item('copy-of-previous', 'https://swagger.io/specification/', 'OpenAPI Specification - Version 3.1.0 - Swagger', sentence, 0.4),
    ]);
    expect(clusters.map((cluster) => [cluster.item.id, cluster.merged.map((merged) => merged.id)])).toEqual([
      ['current', ['current-pdf', 'mirror-1', 'mirror-2']],
      ['previous', ['copy-of-previous']],
      ['older', []],
    ]);
  });

  it('counts the words two texts share whatever order they come in, and keeps apart one sharing too few', () => {
    const words = sentence.split(' ');
    const clusters = dedupeItems([
      item('current', 'https://spec.openapis.org/oas/latest.html', 'OpenAPI Specification v3.2.0', sentence, 0.9),
      // The same words backwards: every one shared, none in the same place.
      item('reordered', 'https://reorder.example.org/oas.html', 'v3.2.0 Specification OpenAPI', [...words].reverse().join(' '), 0.5),
      item('mirror-1', 'https://oas.mirror.example.org/latest.html', 'OpenAPI Specification v3.2.0', sentence, 0.45),
      item('mirror-2', 'https://openapi.mirror.example.net/v3.2.0.html', 'OpenAPI Specification v3.2.0', sentence, 0.42),
      // Half the sentence's words and as many others: about half of either text's words shared, under the 80 % overlap needs.
      item('half', 'https://half.example.net/oas.html', 'OpenAPI Specification v3.2.0', `${words.slice(0, 16).join(' ')} ${Array.from({ length: 16 }, (_, index) => `unrelated${index}`).join(' ')}`, 0.3),
    ]);
    expect(clusters.map((cluster) => [cluster.item.id, cluster.merged.map((merged) => merged.id)])).toEqual([
      ['current', ['reordered', 'mirror-1', 'mirror-2']],
      ['half', []],
    ]);
  });
});

describe('createDedupeRun: candidates read elsewhere (addRead)', () => {
  it('clusters candidates whose words were read into several token tables as it clusters them added whole', () => {
    const texts = [ARTICLE, OTHER_RELEASE, `${ARTICLE} Originally published on the project blog.`, 'A short note', OTHER_RELEASE.toUpperCase(), `Ünïcode: ${ARTICLE}`];
    const items = texts.map((text, index) => candidate({ id: `id-${index}`, url: `https://site${index % 3}.example/post/${index}`, text, score: 0.9 - index * 0.1, provider: ['brave', 'exa'][index % 2]! }));
    // Two readers, each with its own table that carries over from item to item, as two reading threads have.
    const tables = [createTokenIds(), createTokenIds()];
    const run = createDedupeRun<DedupeCandidate>();
    items.forEach((item, index) => {
      const table = tables[index % 2]!;
      const count = table.read(matchedText(item));
      run.addRead(matchKeys(item), { table, ids: table.ids.slice(0, count), start: 0, count }, item);
    });
    const read = run.finish();
    expect(read).toEqual(dedupeItems(items));
    expect(read.length).toBeLessThan(items.length);
  });
});

describe('dedupeItems: the vocabulary kept from run to run', () => {
  /** The run read with a token table of its own, as every run was before the vocabulary was shared. */
  const withTableOfItsOwn = (items: readonly DedupeCandidate[]) => {
    const run = createDedupeRun<DedupeCandidate>();
    for (const item of items) run.add(item, item);
    return run.finish();
  };
  // Runs drawn from one pool of words (ASCII, capitalized, accented, Chinese and stop words), so
  // each run meets words earlier runs left in the vocabulary, in another order, beside new ones.
  const POOL = ['kafka', 'Kafka', 'release', 'broker', 'partition', 'the', 'and', 'of', 'café', 'naïve', 'Ünïcode', '发布', '版本', 'consumer', 'offset', 'v4', '1.30', 'streams'];
  const runOf = (seed: number, size: number): DedupeCandidate[] => {
    const random = createRandom(seed);
    const fresh = (prefix: string) => `${prefix}${Math.floor(random() * 1e6).toString(36)}`;
    const items: DedupeCandidate[] = [];
    for (let index = 0; index < size; index++) {
      const words = Array.from({ length: 12 + Math.floor(random() * 30) }, () => (random() < 0.7 ? POOL[Math.floor(random() * POOL.length)]! : fresh('w')));
      // A third of the items are near copies of one before them: the clusters depend on every word id.
      const copyOf = index > 0 && random() < 0.33 ? items[Math.floor(random() * index)] : undefined;
      const text = copyOf === undefined ? words.join(' ') : `${copyOf.text} ${fresh('x')}`;
      items.push(candidate({ id: `r${seed}-${index}`, url: `https://site${index % 4}.example/${fresh('p')}`, title: random() < 0.5 ? 'Kafka release' : fresh('t'), text, score: Math.round(random() * 1e6) / 1e6 }));
    }
    return items;
  };

  it('clusters each run as a run read with a table of its own does, whatever runs came before', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 40 }), (seed, size) => {
        const items = runOf(seed, size);
        const shared = dedupeItems(items);
        expect(shared).toEqual(withTableOfItsOwn(items));
        // The same run again, every word now known to the vocabulary.
        expect(dedupeItems(items)).toEqual(shared);
      }),
      { numRuns: 60 },
    );
  });

  it('starts afresh once it holds its limit of distinct tokens, and reads the runs after as before', () => {
    const manyWords = Array.from({ length: VOCABULARY_LIMIT + 10 }, (_unused, index) => `t${index.toString(36)}`).join(' ');
    dedupeItems([candidate({ id: 'many', url: 'https://example.com/many', text: manyWords })]);
    expect(vocabularyTokens()).toBeGreaterThan(VOCABULARY_LIMIT);
    const items = runOf(7, 30);
    expect(dedupeItems(items)).toEqual(withTableOfItsOwn(items));
    expect(vocabularyTokens()).toBeLessThan(VOCABULARY_LIMIT);
  });
});

/**
 * Holds createOverlapIndex to comparing each item with every leader before it: the earliest
 * accepted leader sharing enough words, where only a leader sharing one of the listed (rarer)
 * words is a candidate at all. Word ids are below 100.
 */
function expectEveryLeaderFound(sets: number[][], refuseEvery: number): void {
  const documentFrequency = Array.from({ length: 100 }, () => 0);
  for (const set of sets) for (const word of set) documentFrequency[word]!++;
  const wordsStart = new Int32Array(sets.length);
  const wordsEnd = new Int32Array(sets.length);
  const all: number[] = [];
  sets.forEach((set, index) => {
    wordsStart[index] = all.length;
    all.push(...set);
    wordsEnd[index] = all.length;
  });
  const features: NearDuplicateFeatures = { usable: new Uint8Array(0), hasFingerprint: new Uint8Array(0), fingerprintHigh: new Int32Array(0), fingerprintLow: new Int32Array(0), words: Int32Array.from(all), wordsStart, wordsEnd, documentFrequency };
  const index = createOverlapIndex(features, DEFAULT_OVERLAP_THRESHOLD);
  const accept = (cluster: number) => cluster % refuseEvery !== 1;
  const leaders: number[] = [];
  sets.forEach((set, item) => {
    const everyLeader = leaders.findIndex((leader, cluster) => {
      const sharedWords = sets[leader]!.filter((word) => set.includes(word));
      if (!sharedWords.some((word) => documentFrequency[word]! <= OVERLAP_INDEX_MAX_ITEMS)) return false;
      const shared = sharedWords.length;
      const needed = Math.max(MIN_SHARED_WORDS, DEFAULT_OVERLAP_THRESHOLD * Math.min(set.length, sets[leader]!.length));
      return set.length >= MIN_SHARED_WORDS && sets[leader]!.length >= MIN_SHARED_WORDS && shared >= needed && accept(cluster);
    });
    expect(index.earliestOverlapping(item, accept)).toBe(everyLeader === -1 ? undefined : everyLeader);
    if (everyLeader === -1) {
      index.addLeader(leaders.length, item);
      leaders.push(item);
    }
  });
}

describe('createOverlapIndex', () => {
  it('finds the earliest accepted leader sharing enough words, as comparing with every leader does', () => {
    // Items copied from a few documents, each keeping most of its words and adding a few: many pairs
    // share enough words, and every document has the five words that are in more items than the
    // index lists (OVERLAP_INDEX_MAX_ITEMS), which a pair then shares besides the listed ones.
    const runOf = fc.record({ seed: fc.integer(), items: fc.integer({ min: 60, max: 160 }), documents: fc.integer({ min: 2, max: 6 }) }).map(({ seed, items, documents }) => {
      const random = createRandom(seed);
      const word = () => 5 + Math.floor(random() * 95);
      const originals = Array.from({ length: documents }, () => [0, 1, 2, 3, 4, ...Array.from({ length: 4 + Math.floor(random() * 20) }, word)]);
      return Array.from({ length: items }, () => {
        const original = originals[Math.floor(random() * documents)]!;
        return [...new Set([...original.filter(() => random() < 0.85), ...Array.from({ length: Math.floor(random() * 4) }, word)])];
      });
    });
    fc.assert(fc.property(runOf, fc.integer({ min: 2, max: 5 }), expectEveryLeaderFound));
  });

  it('finds no leader for items that share only a word or a few by chance, and still finds the copies among them', () => {
    // Mostly unrelated items over a vocabulary where each word is listed: candidates are many and
    // each shares a few words at most, the lookups' usual case on a large run. Some share a common
    // word or more besides (0-2, in every item), and a few items are copies of an earlier one.
    const runOf = fc.record({ seed: fc.integer(), items: fc.integer({ min: 60, max: 200 }), copyShare: fc.double({ min: 0, max: 0.3, noNaN: true }) }).map(({ seed, items, copyShare }) => {
      const random = createRandom(seed);
      const sets: number[][] = [];
      for (let item = 0; item < items; item++) {
        if (sets.length > 0 && random() < copyShare) {
          const original = sets[Math.floor(random() * sets.length)]!;
          sets.push(original.filter(() => random() < 0.9));
          continue;
        }
        const common = [0, 1, 2].filter(() => random() < 0.5);
        sets.push([...new Set([...common, ...Array.from({ length: 6 + Math.floor(random() * 12) }, () => 3 + Math.floor(random() * 97))])]);
      }
      return sets;
    });
    fc.assert(fc.property(runOf, fc.integer({ min: 2, max: 5 }), expectEveryLeaderFound));
  });
});
