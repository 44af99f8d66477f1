import { describe, expect, it } from 'vitest';
import { findHiddenRegions } from './hidden-html.ts';

// The detector reads normalized (lower-case) text, as the screener hands it over.
describe('findHiddenRegions', () => {
  it.each([
    ['comment', '<p>a</p><!-- secret note --><p>b</p>', 'comment', ' secret note '],
    ['display:none', '<span style="display: none">secret note</span>', 'hidden_element', 'secret note'],
    ['visibility:hidden', "<div style='visibility:hidden'>secret note</div>", 'hidden_element', 'secret note'],
    ['zero font size', '<p style="font-size:0px;color:transparent">secret note</p>', 'hidden_element', 'secret note'],
    ['white on white', '<span style="color:#ffffff;background-color:#ffffff">secret note</span>', 'hidden_element', 'secret note'],
    ['off-screen', '<p style="position:absolute;left:-9999px">secret note</p>', 'hidden_element', 'secret note'],
    ['font colour', '<font color="#fff" size="1">secret note</font>', 'hidden_element', 'secret note'],
    ['svg fill', '<svg><text fill="white" x="0">secret note</text></svg>', 'hidden_element', 'secret note'],
    ['hidden attribute', '<div hidden>secret note</div>', 'hidden_element', 'secret note'],
    ['alt text', '<img src="a.png" alt="a picture with a secret note">', 'attribute', 'a picture with a secret note'],
    ['aria-label', '<button aria-label="share this with a secret note"></button>', 'attribute', 'share this with a secret note'],
    ['meta description', '<meta name="description" content="the page with a secret note">', 'attribute', 'the page with a secret note'],
    ['json-ld', '<script type="application/ld+json">{"description":"secret note"}</script>', 'script', '{"description":"secret note"}'],
    ['markdown comment', 'text\n[//]: # (secret note here)\nmore', 'markdown_comment', 'secret note here'],
  ])('%s', (_name, text, kind, hidden) => {
    const region = findHiddenRegions(text).find((entry) => entry.kind === kind);
    expect(region).toBeDefined();
    expect(text.slice(region?.start, region?.end)).toBe(hidden);
  });

  it.each([
    ['plain prose', 'no markup here at all'],
    ['visible styled text', '<span style="color:#ffffff;background:#000000">visible</span>'],
    ['bold text', '<b>important</b> and <a href="/x">a link</a>'],
    ['short alt text', '<img src="a.png" alt="logo">'],
  ])('finds nothing hidden in %s', (_name, text) => {
    expect(findHiddenRegions(text)).toEqual([]);
  });
});
