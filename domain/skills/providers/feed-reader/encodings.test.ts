/**
 * Feeds in the encodings real publishers use, each written here as UTF-8 source text and encoded
 * into its bytes by iconv-lite in the test (the fixtures are ours; no public test suite is copied).
 * Every one goes through the real feed_reader skill, from a file and over HTTP, and must come out
 * with the titles and links it was written with and not one U+FFFD.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { decodeBytes } from '../../../text/decode-bytes.ts';
import { runSkill } from '../../run-skill.ts';
import { startLocalServer, type LocalServer } from '../../testing/local-server.ts';
import { createTestRegistry } from '../../testing/test-registry.ts';

interface EncodedFeed {
  name: string;
  encoding: string;
  bom: boolean;
  /** What the XML declaration says; null = no encoding pseudo-attribute at all. */
  declared: string | null;
  titles: [string, string];
  format: 'rss' | 'atom';
  /** The step that must have chosen the charset when the file is read. */
  source: string;
}

const LINKS = ['https://news.example.org/2026/11/first', 'https://news.example.org/2026/11/second'];

function feedText(feed: EncodedFeed): string {
  const declaration = feed.declared === null ? '<?xml version="1.0"?>' : `<?xml version="1.0" encoding="${feed.declared}"?>`;
  const [first, second] = feed.titles;
  if (feed.format === 'atom') {
    return `${declaration}
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${first} | ${second}</title>
  <id>urn:skrya:test:${feed.name}</id>
  <updated>2026-11-20T10:00:00Z</updated>
  <entry><title>${first}</title><link href="${LINKS[0]}"/><id>urn:1</id><updated>2026-11-20T10:00:00Z</updated><summary>${first}. ${second}</summary></entry>
  <entry><title>${second}</title><link href="${LINKS[1]}"/><id>urn:2</id><updated>2026-11-19T10:00:00Z</updated><summary>${second}</summary></entry>
</feed>
`;
  }
  return `${declaration}
<rss version="2.0"><channel>
  <title>${first} | ${second}</title>
  <link>https://news.example.org/</link>
  <description>${second}</description>
  <item><title>${first}</title><link>${LINKS[0]}</link><pubDate>Fri, 20 Nov 2026 10:00:00 GMT</pubDate><description>${first}. ${second}</description></item>
  <item><title>${second}</title><link>${LINKS[1]}</link><pubDate>Thu, 19 Nov 2026 10:00:00 GMT</pubDate><description>${second}</description></item>
</channel></rss>
`;
}

const POLISH: [string, string] = ['ZAŻÓŁĆ GĘŚLĄ JAŹŃ: pchnąć w tę łódź jeża', 'Żółta łódź płynie przez jezioro; ośm skrzyń fig dla wszystkich'];
const FRENCH: [string, string] = ['Crème brûlée à la française : où est le garçon ?', 'Über München, Köln et Zürich, la façade naïve du château'];
const CHINESE: [string, string] = ['国务院发布关于加强数字经济发展的指导意见', '人工智能浏览器市场竞争加剧，国内厂商纷纷推出新产品'];
const TRADITIONAL: [string, string] = ['政府今天宣布新的經濟發展計畫', '預計明年開始實施，國內廠商紛紛推出新產品'];
const KOREAN: [string, string] = ['대한민국 정부는 오늘 새로운 경제 발전 계획을 발표했습니다', '인공지능 브라우저 시장의 경쟁이 치열해지고 있습니다'];
const JAPANESE: [string, string] = ['日本政府は本日、新しい経済発展計画を発表しました', '来年から実施される予定で、国内企業が新製品を相次いで発表'];
const MIXED: [string, string] = ['Kafka 4.0 ohne ZooKeeper — 卡夫卡 四点零', 'Ελληνικά, русский, 한국어 und emoji 🚀 in one feed'];

const FEEDS: EncodedFeed[] = [
  { name: 'utf-16le-bom', encoding: 'utf-16le', bom: true, declared: 'UTF-16', titles: MIXED, format: 'atom', source: 'bom' },
  { name: 'utf-16be-bom', encoding: 'utf-16be', bom: true, declared: 'UTF-16', titles: MIXED, format: 'rss', source: 'bom' },
  { name: 'utf-16le-no-bom', encoding: 'utf-16le', bom: false, declared: 'UTF-16LE', titles: CHINESE, format: 'rss', source: 'byte-pattern' },
  { name: 'utf-16be-no-bom', encoding: 'utf-16be', bom: false, declared: 'UTF-16BE', titles: KOREAN, format: 'atom', source: 'byte-pattern' },
  { name: 'utf-32le-bom', encoding: 'utf-32le', bom: true, declared: 'UTF-32', titles: MIXED, format: 'rss', source: 'bom' },
  { name: 'utf-32be-bom', encoding: 'utf-32be', bom: true, declared: 'UTF-32', titles: JAPANESE, format: 'atom', source: 'bom' },
  { name: 'utf-32le-no-bom', encoding: 'utf-32le', bom: false, declared: null, titles: MIXED, format: 'atom', source: 'byte-pattern' },
  { name: 'utf-32be-no-bom', encoding: 'utf-32be', bom: false, declared: 'UTF-32BE', titles: FRENCH, format: 'rss', source: 'byte-pattern' },
  { name: 'utf-8-bom', encoding: 'utf-8', bom: true, declared: 'UTF-8', titles: MIXED, format: 'rss', source: 'bom' },
  { name: 'gb2312-declared', encoding: 'gb2312', bom: false, declared: 'GB2312', titles: CHINESE, format: 'rss', source: 'xml-declaration' },
  { name: 'gb2312-undeclared', encoding: 'gb2312', bom: false, declared: null, titles: CHINESE, format: 'rss', source: 'detected' },
  { name: 'big5-declared', encoding: 'big5', bom: false, declared: 'Big5', titles: TRADITIONAL, format: 'atom', source: 'xml-declaration' },
  { name: 'euc-kr-declared', encoding: 'euc-kr', bom: false, declared: 'EUC-KR', titles: KOREAN, format: 'rss', source: 'xml-declaration' },
  { name: 'shift_jis-declared', encoding: 'shift_jis', bom: false, declared: 'Shift_JIS', titles: JAPANESE, format: 'atom', source: 'xml-declaration' },
  { name: 'shift_jis-undeclared', encoding: 'shift_jis', bom: false, declared: null, titles: JAPANESE, format: 'rss', source: 'detected' },
  { name: 'iso-8859-1-declared', encoding: 'iso-8859-1', bom: false, declared: 'ISO-8859-1', titles: FRENCH, format: 'rss', source: 'xml-declaration' },
  { name: 'iso-8859-1-undeclared', encoding: 'iso-8859-1', bom: false, declared: null, titles: FRENCH, format: 'rss', source: 'detected' },
  { name: 'iso-8859-2-declared', encoding: 'iso-8859-2', bom: false, declared: 'ISO-8859-2', titles: POLISH, format: 'atom', source: 'xml-declaration' },
  { name: 'iso-8859-2-undeclared', encoding: 'iso-8859-2', bom: false, declared: null, titles: POLISH, format: 'rss', source: 'detected' },
];

function encode(feed: EncodedFeed): Buffer {
  const bytes = iconv.encode(feedText(feed), feed.encoding, { addBOM: feed.bom });
  // iconv-lite writes a character the charset lacks as '?': a fixture that lost text is a broken fixture.
  expect(iconv.decode(bytes, feed.encoding)).toBe(feedText(feed));
  return bytes;
}

const root = mkdtempSync(path.join(os.tmpdir(), 'skrya-encodings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function expectIntact(results: Array<{ title: string; url: string }> | undefined, feed: EncodedFeed) {
  expect(JSON.stringify(results)).not.toContain('\uFFFD');
  expect(results?.map((entry) => entry.title)).toEqual(feed.titles);
  expect(results?.map((entry) => entry.url)).toEqual(LINKS);
}

describe('feed_reader reads feeds in every encoding intact', () => {
  it.each(FEEDS)('$name from a file: titles and links intact, no U+FFFD', async (feed) => {
    const bytes = encode(feed);
    writeFileSync(path.join(root, `${feed.name}.xml`), bytes);
    expect(decodeBytes(bytes).source).toBe(feed.source);
    const { registry } = await createTestRegistry();
    const result = await runSkill(registry, 'feed_reader', { path: `${feed.name}.xml` }, { tenant: 'acme', runId: 'r1', localRoot: root });
    expect(result.status).toBe('ok');
    expectIntact(result.output?.results, feed);
  });

  describe('over HTTP', () => {
    let server: LocalServer | null = null;
    afterEach(async () => {
      await server?.close();
      server = null;
    });

    const serve = async (bytes: Buffer, contentType: string) => {
      server = await startLocalServer((request, response) => {
        if (request.path === '/robots.txt') response.writeHead(404).end();
        else response.writeHead(200, { 'content-type': contentType }).end(bytes);
      });
      const { registry } = await createTestRegistry({
        network: { policy: { allowedPrivateTargets: [{ address: '127.0.0.1', port: server.port }] } },
      });
      return { registry, url: `${server.origin}/feed.xml` };
    };

    it.each(FEEDS)('$name served as application/xml without a charset', async (feed) => {
      const { registry, url } = await serve(encode(feed), 'application/xml');
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      expect(result.status).toBe('ok');
      expectIntact(result.output?.results, feed);
    });

    it.each([
      { name: 'ISO-8859-2 named only by the HTTP charset', encoding: 'iso-8859-2', titles: POLISH },
      { name: 'GB2312 named only by the HTTP charset', encoding: 'gb2312', titles: CHINESE },
      { name: 'Big5 named only by the HTTP charset', encoding: 'big5', titles: TRADITIONAL },
    ])('$name', async ({ encoding, titles }) => {
      const feed: EncodedFeed = { name: encoding, encoding, bom: false, declared: null, titles, format: 'rss', source: 'http' };
      const bytes = encode(feed);
      expect(decodeBytes(bytes, `text/xml; charset=${encoding}`).source).toBe('http');
      const { registry, url } = await serve(bytes, `text/xml; charset=${encoding}`);
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      expect(result.status).toBe('ok');
      expectIntact(result.output?.results, feed);
    });

    it('a UTF-16 BOM followed by a broken surrogate is BAD_RESPONSE (undecodable), not replacement characters', async () => {
      const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode('<rss version="2.0"><channel><title>x', 'utf-16le'), Buffer.from([0x00, 0xd8, 0x41, 0x00])]);
      const { registry, url } = await serve(bytes, 'application/rss+xml');
      const result = await runSkill(registry, 'feed_reader', { url }, { tenant: 'acme', runId: 'r1' });
      expect(result).toMatchObject({ status: 'error', code: 'BAD_RESPONSE' });
    });
  });
});

describe('decodeBytes: which step chooses the charset', () => {
  const utf8 = (text: string) => Buffer.from(text, 'utf8');
  it.each([
    { name: 'the XML declaration beats the HTTP charset', bytes: iconv.encode('<?xml version="1.0" encoding="iso-8859-2"?><a>łódź</a>', 'iso-8859-2'), type: 'text/xml; charset=utf-8', charset: 'iso-8859-2', source: 'xml-declaration', text: 'łódź' },
    { name: '<meta charset> in HTML without an HTTP charset', bytes: iconv.encode('<html><head><meta charset="windows-1250"></head><body>Žluťoučký kůň</body></html>', 'windows-1250'), type: 'text/html', charset: 'windows-1250', source: 'meta', text: 'Žluťoučký kůň' },
    { name: 'the http-equiv form of <meta>', bytes: iconv.encode('<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"></head><body>대한민국 정부</body></html>', 'euc-kr'), type: '', charset: 'euc-kr', source: 'meta', text: '대한민국 정부' },
    { name: 'a declared UTF-8 that is not falls through to detection', bytes: iconv.encode('<?xml version="1.0" encoding="utf-8"?><p>Crème brûlée à la française, où est le garçon ? Über München.</p>', 'iso-8859-1'), type: '', charset: null, source: 'detected', text: 'Crème brûlée' },
    { name: 'undeclared valid UTF-8', bytes: utf8('Kafka — 卡夫卡'), type: '', charset: 'utf-8', source: 'utf-8', text: 'Kafka — 卡夫卡' },
    { name: 'a declared UTF-16 in ASCII bytes is a mislabel', bytes: utf8('<?xml version="1.0" encoding="UTF-16"?><a>plain</a>'), type: '', charset: 'utf-8', source: 'utf-8', text: '<a>plain</a>' },
  ])('$name', ({ bytes, type, charset, source, text }) => {
    const decoded = decodeBytes(bytes, type);
    expect(decoded.source).toBe(source);
    if (charset) expect(decoded.charset).toBe(charset);
    expect(decoded.text).toContain(text);
    expect(decoded.text).not.toContain('\uFFFD');
  });

  it.each([
    { name: 'UTF-8 BOM then invalid bytes', bytes: Buffer.from([0xef, 0xbb, 0xbf, 0x3c, 0xff, 0xfe, 0x3e]) },
    { name: 'UTF-32 BOM with a code point past U+10FFFF', bytes: Buffer.from([0xff, 0xfe, 0x00, 0x00, 0x00, 0x00, 0x11, 0x00]) },
    { name: 'UTF-16 without BOM cut mid-character', bytes: Buffer.concat([iconv.encode('<?xml version="1.0"?><a>x</a>', 'utf-16le'), Buffer.from([0x3c])]) },
  ])('$name → BAD_RESPONSE undecodable', ({ bytes }) => {
    let failure: unknown = null;
    try {
      decodeBytes(bytes);
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ code: 'BAD_RESPONSE', details: { reason: 'undecodable' } });
  });
});
