import { describe, expect, it } from 'vitest';
import { canonicalUrl } from './canonical-url.ts';

describe('canonicalUrl', () => {
  it.each([
    // Host
    ['upper-case host', 'https://GitHub.COM/nodejs/node', 'https://github.com/nodejs/node'],
    ['www. dropped', 'https://www.github.com/nodejs/node', 'https://github.com/nodejs/node'],
    ['trailing dot of a fully qualified host', 'https://github.com./nodejs/node', 'https://github.com/nodejs/node'],
    ['default port dropped', 'https://github.com:443/nodejs/node', 'https://github.com/nodejs/node'],
    ['other ports kept', 'http://localhost:8080/a', 'https://localhost:8080/a'],
    ['IDN host in Unicode → punycode', 'https://例子.测试/a', 'https://xn--fsqu00a.xn--0zwm56d/a'],
    ['IDN host already in punycode', 'https://xn--fsqu00a.xn--0zwm56d/a', 'https://xn--fsqu00a.xn--0zwm56d/a'],
    ['credentials dropped', 'https://user:secret@example.com/a', 'https://example.com/a'],
    ['www. kept before a second www.', 'https://www.www.example.com/a', 'https://www.www.example.com/a'],
    ['www. kept on a host without a top-level domain', 'https://www.localhost/a', 'https://www.localhost/a'],
    ['http on port 443 becomes https on its default port', 'http://example.com:443/a/', 'https://example.com/a'],
    // Scheme
    ['http unified to https', 'http://example.com/a', 'https://example.com/a'],
    // Path
    ['trailing slash dropped', 'https://example.com/blog/post/', 'https://example.com/blog/post'],
    ['root slash dropped', 'https://example.com/', 'https://example.com'],
    ['duplicate slashes collapsed', 'https://example.com//blog///post', 'https://example.com/blog/post'],
    ['percent-encoding hex upper-cased', 'https://example.com/caf%c3%a9', 'https://example.com/caf%C3%A9'],
    ['raw Unicode path encoded the same way', 'https://example.com/café', 'https://example.com/caf%C3%A9'],
    ['encoded unreserved characters decoded', 'https://example.com/%7Euser/a%2Db', 'https://example.com/~user/a-b'],
    ['an encoded slash stays encoded', 'https://example.com/a%2fb', 'https://example.com/a%2Fb'],
    ['an encoded percent sign is not decoded twice', 'https://example.com/a%2541', 'https://example.com/a%2541'],
    ['path case kept', 'https://example.com/Blog/Post', 'https://example.com/Blog/Post'],
    ['sub-delimiters in the path kept as they are', "https://example.com/a/(b)/c;d=1,e/", 'https://example.com/a/(b)/c;d=1,e'],
    ['a scheme inside the path keeps its double slash', 'https://example.com/a/http://x.org//b', 'https://example.com/a/http://x.org/b'],
    // Fragment and query
    ['fragment dropped', 'https://example.com/a#section-2', 'https://example.com/a'],
    ['text fragment dropped', 'https://example.com/a#:~:text=hello', 'https://example.com/a'],
    ['utm_* dropped', 'https://example.com/a?utm_source=hn&utm_medium=social&utm_campaign=x', 'https://example.com/a'],
    ['click ids dropped', 'https://example.com/a?gclid=1&fbclid=2&msclkid=3&yclid=4&igshid=5', 'https://example.com/a'],
    ['mailchimp and hubspot ids dropped', 'https://example.com/a?mc_cid=1&mc_eid=2&_hsenc=3&_hsmkt=4', 'https://example.com/a'],
    ['ref and spm dropped', 'https://example.com/a?ref=producthunt&ref_src=twsrc&spm=a2c6h', 'https://example.com/a'],
    ['tracking names match case-insensitively', 'https://example.com/a?UTM_Source=x&Ref=y', 'https://example.com/a'],
    ['query sorted by name', 'https://example.com/search?q=rust&page=2&lang=en', 'https://example.com/search?lang=en&page=2&q=rust'],
    ['repeated names keep their order', 'https://example.com/a?tag=b&x=1&tag=a', 'https://example.com/a?tag=b&tag=a&x=1'],
    ['meaningful parameters kept among tracking ones', 'https://news.ycombinator.com/item?id=123&utm_source=x', 'https://news.ycombinator.com/item?id=123'],
    ['an encoded & in a value stays encoded', 'https://example.com/s?q=a%26b', 'https://example.com/s?q=a%26b'],
    ['query percent-encoding normalized', 'https://example.com/s?q=%e4%b8%ad&r=%7e', 'https://example.com/s?q=%E4%B8%AD&r=~'],
    ['empty query dropped', 'https://example.com/a?', 'https://example.com/a'],
    ['a parameter without a value kept as is', 'https://example.com/a?print&b=1', 'https://example.com/a?b=1&print'],
    // AMP and mobile
    ['AMP cache wrapper unwrapped', 'https://www-example-com.cdn.ampproject.org/c/s/www.example.com/2026/03/story', 'https://example.com/2026/03/story'],
    ['Google AMP viewer unwrapped', 'https://www.google.com/amp/s/example.com/2026/03/story/', 'https://example.com/2026/03/story'],
    ['an /amp path is a different URL (rel=canonical decides)', 'https://example.com/2026/03/story/amp', 'https://example.com/2026/03/story/amp'],
    ['a mobile host is a different URL (m. sites can differ)', 'https://m.example.com/story', 'https://m.example.com/story'],
    // Not canonicalizable
    ['mailto', 'mailto:someone@example.com', null],
    ['javascript', 'javascript:alert(1)', null],
    ['ftp', 'ftp://example.com/file', null],
    ['relative', '/blog/post', null],
    ['no scheme', 'example.com/blog', null],
    ['garbage', 'not a url', null],
    ['empty', '', null],
  ])('%s', (_name, url, expected) => {
    expect(canonicalUrl(url)).toBe(expected);
  });

  it.each([
    ['rel=canonical of an AMP page', 'https://example.com/story/amp', { relCanonical: 'https://www.example.com/story/' }, 'https://example.com/story'],
    ['a relative rel=canonical resolves against the page', 'https://example.com/story?page=1', { relCanonical: '/story' }, 'https://example.com/story'],
    ['og:url when there is no rel=canonical', 'https://m.example.com/story', { ogUrl: 'https://example.com/story' }, 'https://example.com/story'],
    ['rel=canonical wins over og:url', 'https://example.com/a', { relCanonical: 'https://example.com/b', ogUrl: 'https://example.com/c' }, 'https://example.com/b'],
    ['a syndicated copy pointing at the original site', 'https://medium.com/@ann/post-1a2b', { relCanonical: 'https://ann.dev/post' }, 'https://ann.dev/post'],
    ['a non-http hint is ignored', 'https://example.com/a', { relCanonical: 'javascript:void(0)', ogUrl: 'https://example.com/og' }, 'https://example.com/og'],
    ['a blank hint is ignored', 'https://example.com/a', { relCanonical: '  ' }, 'https://example.com/a'],
    ['a hint to the site root from a deeper page is ignored (CMS default)', 'https://example.com/2026/story', { relCanonical: 'https://example.com/' }, 'https://example.com/2026/story'],
    ['a hint to the root is accepted from the root', 'https://example.com/?utm_source=x', { relCanonical: 'https://example.com/' }, 'https://example.com'],
    ['hints cannot rescue a non-http page', 'mailto:x@example.com', { relCanonical: 'https://example.com/' }, null],
  ])('%s', (_name, url, hints, expected) => {
    expect(canonicalUrl(url, hints)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const url of ['https://www.Example.com:443//a/b/?b=2&a=1&utm_source=x#top', 'http://例子.测试/路径/?q=%e4']) {
      const once = canonicalUrl(url);
      expect(once).not.toBeNull();
      expect(canonicalUrl(once!)).toBe(once);
    }
  });
});
