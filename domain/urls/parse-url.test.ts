import { describe, expect, it } from 'vitest';
import { parseUrl } from './parse-url.ts';
import { canonicalUrl } from './canonical-url.ts';
import { hostOf } from '../ranking/score-item.ts';

describe('parseUrl', () => {
  it('parses an absolute URL, and gives the same parse for the same text in a row', () => {
    const parsed = parseUrl('http://Example.com:8080/a/b?x=1#top');
    expect(parsed?.hostname).toBe('example.com');
    expect(parsed?.port).toBe('8080');
    expect(parsed?.pathname).toBe('/a/b');
    expect(parseUrl('http://Example.com:8080/a/b?x=1#top')).toBe(parsed);
  });

  it('gives null for text that is no absolute URL, and parses the next text afresh', () => {
    expect(parseUrl('/relative/path')).toBeNull();
    expect(parseUrl('not a url')).toBeNull();
    expect(parseUrl('https://example.org/')?.hostname).toBe('example.org');
    expect(parseUrl('not a url')).toBeNull();
  });

  it('is left as it was by the steps that share it (canonicalization edits a copy of its own)', () => {
    // Escapes in the path take canonicalUrl's general way, which sets scheme, query and path on a URL.
    const text = 'http://www.example.com/caf%c3%a9/%41?utm_source=x&b=2';
    const parsed = parseUrl(text)!;
    const href = parsed.href;
    expect(canonicalUrl(text)).toBe('https://example.com/caf%C3%A9/A?b=2');
    expect(hostOf(text)).toBe('www.example.com');
    expect(parseUrl(text)).toBe(parsed);
    expect(parsed.href).toBe(href);
    expect(parsed.protocol).toBe('http:');
  });
});
