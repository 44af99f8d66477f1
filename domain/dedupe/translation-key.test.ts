import { describe, expect, it } from 'vitest';
import { translationKey } from './translation-key.ts';

const REPO = 'https://github.com/servicemesher/service-mesh-explained/blob/main';

describe('translationKey', () => {
  it.each([
    ['the original README', `${REPO}/README.md`, `${REPO}/README.md`],
    ['a dotted region tag', `${REPO}/README.zh-CN.md`, `${REPO}/README.md`],
    ['an underscore tag', `${REPO}/README_zh.md`, `${REPO}/README.md`],
    ['an underscore region tag', `${REPO}/README-zh_CN.md`, `${REPO}/README.md`],
    ['a script tag', `${REPO}/README.zh-Hans.md`, `${REPO}/README.md`],
    ['a Japanese guide in docs/', `${REPO}/docs/guide.ja.rst`, `${REPO}/docs/guide.rst`],
    ['an upper-case extension', `${REPO}/README.MD`, `${REPO}/README.md`],
    ['a query left on the canonical URL', `${REPO}/README.ja.md?plain=1`, `${REPO}/README.md`],
    ['a hyphenated name without a language', `${REPO}/getting-started.md`, `${REPO}/getting-started.md`],
    ['a two-letter suffix that is no language', `${REPO}/notes-v2.md`, `${REPO}/notes-v2.md`],
    ['a two-letter suffix outside the language list', `${REPO}/guide-xy.md`, `${REPO}/guide-xy.md`],
  ])('%s: %s → %s', (_name, url, key) => {
    expect(translationKey(url)).toBe(key);
  });

  it.each([
    ['a web page with a language in its name', 'https://example.com/docs/index.en.html'],
    ['a site section in another language', 'https://istio.io/latest/zh/docs/overview/what-is-istio/'],
    ['a repository home page', 'https://github.com/istio/istio'],
    ['not a URL', 'README.zh-CN.md'],
    ['a host that looks like a file name', 'https://readme.md/'],
    ['a query naming a file', 'https://example.com/view?file=README.zh-CN.md'],
  ])('%s is no documentation file: null', (_name, url) => {
    expect(translationKey(url)).toBeNull();
  });

  it('keeps branches and tags apart: a translation on another tag is another document', () => {
    const v1 = translationKey('https://github.com/o/r/blob/v1.0/README.zh-CN.md');
    const v2 = translationKey('https://github.com/o/r/blob/v2.0/README.md');
    expect(v1).not.toBe(v2);
  });
});
