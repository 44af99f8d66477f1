import { describe, expect, it } from 'vitest';
import { escapeHtml, html, jsonScript, markNeutralized, safeHref } from './html.ts';

describe('html', () => {
  it.each([
    ['a script tag', '<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['an attribute break-out', '" onmouseover="alert(1)', '&quot; onmouseover=&quot;alert(1)'],
    ['single quotes and ampersands', "Tom's & Jerry's", 'Tom&#39;s &amp; Jerry&#39;s'],
  ])('escapes %s in text and attributes', (_name, input, expected) => {
    expect(html`<p title="${input}">${input}</p>`.markup).toBe(`<p title="${expected}">${expected}</p>`);
  });

  it('keeps nested templates and lists as markup, and renders nothing for null, undefined and false', () => {
    const items = ['<b>', 'x'].map((text) => html`<li>${text}</li>`);
    expect(html`<ul>${items}</ul>${null}${undefined}${false}${0}`.markup).toBe('<ul><li>&lt;b&gt;</li><li>x</li></ul>0');
  });

  it('never lets a plain string through as markup', () => {
    const evil = { toString: () => '<img src=x onerror=alert(1)>' };
    expect(html`${evil}`.markup).toBe(escapeHtml('<img src=x onerror=alert(1)>'));
  });
});

describe('safeHref', () => {
  it.each([
    ['https://example.com/a?b=1', 'https://example.com/a?b=1'],
    ['http://example.com/', 'http://example.com/'],
    ['javascript:alert(1)', null],
    ['JaVaScRiPt:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['/relative/path', null],
    [null, null],
  ])('%s → %s', (input, expected) => {
    expect(safeHref(input)).toBe(expected);
  });
});

describe('jsonScript', () => {
  it('cannot be closed early by a string inside the data', () => {
    const markup = jsonScript('data', { title: '</script><script>alert(1)</script>' }).markup;
    expect(markup.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(markup.slice(markup.indexOf('>') + 1, markup.lastIndexOf('</script>')))).toEqual({ title: '</script><script>alert(1)</script>' });
  });
});

describe('markNeutralized', () => {
  it('marks the screener\'s neutralization tokens and escapes the text around them', () => {
    const markup = markNeutralized('Intro <b>bold</b> [neutralized:override.ignore-previous] rest ⟦SKRYA-QUARANTINE rule=x⟧ body ⟦/SKRYA-QUARANTINE⟧').markup;
    expect(markup).toContain('Intro &lt;b&gt;bold&lt;/b&gt; <mark class="neutralized">[neutralized:override.ignore-previous]</mark> rest');
    expect(markup).toContain('<mark class="neutralized">⟦SKRYA-QUARANTINE rule=x⟧</mark> body <mark class="neutralized">⟦/SKRYA-QUARANTINE⟧</mark>');
  });
});
