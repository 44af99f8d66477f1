/**
 * HTML as text, read straight from htmlparser2's events. Main-content extraction, which needs a DOM,
 * lives in readable-document.ts, so that code reading only text does not load one.
 */
import { Parser } from 'htmlparser2';
import { cleanText, UNCOLLAPSED_WHITESPACE } from './clean-text.ts';

/** Elements whose text is never rendered: dropped from the text entirely. */
const UNRENDERED = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'iframe', 'object', 'svg', 'math']);
/** Elements that start and end a line of their own. */
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'body', 'br', 'caption', 'center', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'html',
  'li', 'main', 'menu', 'nav', 'ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'tfoot', 'thead', 'tr', 'ul',
]);
/** Table cells: words on either side of a cell boundary stay apart on the same line. */
const CELLS = new Set(['td', 'th']);
/** Void elements never get a close event of their own from the markup. */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr']);
const HIDING_STYLE = /display\s*:\s*none|visibility\s*:\s*hidden/i;

export interface HtmlText {
  /** What a reader sees: block elements on lines of their own, cells apart, nothing unrendered. */
  text: string;
  /** Text of elements the page hides (hidden attribute, display:none, visibility:hidden, aria-hidden): kept apart, for the screener to judge. */
  hidden: string;
}

/**
 * Text of HTML as a reader sees it, read straight from htmlparser2's events (no DOM is built):
 * p, br, li, headings, div, tr and the other block elements become line breaks and td/th a space,
 * so words never run together across them; script, style, noscript and template are dropped; text
 * the markup hides is returned apart instead of as visible text.
 */
export function htmlToText(html: string): HtmlText {
  // Without markup or entities the parser would hand the text back unchanged: most search-hit
  // snippets and many titles are plain text, and parsing each one cost more than all the rest of it.
  if (!html.includes('<') && !html.includes('&')) return { text: blockText(html), hidden: '' };
  let visible = '';
  let hidden = '';
  // One entry per open element: whether it drops its text, hides it, or neither.
  const stack: Array<{ name: string; mode: 'drop' | 'hide' | 'show' }> = [];
  let dropping = 0;
  let hiding = 0;
  const parser = new Parser({
    onopentag(name, attributes) {
      const mode = UNRENDERED.has(name) ? 'drop'
        : 'hidden' in attributes || attributes['aria-hidden'] === 'true' || HIDING_STYLE.test(attributes.style ?? '') ? 'hide'
          : 'show';
      if (BLOCKS.has(name)) visible += '\n';
      else if (CELLS.has(name)) visible += ' ';
      if (VOID.has(name)) return;
      stack.push({ name, mode });
      if (mode === 'drop') dropping += 1;
      if (mode === 'hide') hiding += 1;
    },
    onclosetag(name) {
      if (BLOCKS.has(name)) visible += '\n';
      else if (CELLS.has(name)) visible += ' ';
      if (VOID.has(name)) return;
      // htmlparser2 closes what it implied; pop to the matching element.
      while (stack.length > 0) {
        const open = stack.pop();
        if (open?.mode === 'drop') dropping -= 1;
        if (open?.mode === 'hide') hiding -= 1;
        if (open?.name === name) break;
      }
    },
    ontext(chunk) {
      if (dropping > 0) return;
      if (hiding > 0) hidden += chunk;
      else visible += chunk;
    },
  }, { decodeEntities: true });
  parser.end(html);
  return { text: blockText(visible), hidden: cleanText(hidden) };
}

/** A run cleanText collapses that holds a line break ends a line; any other is a space within one. */
const collapseRun = (run: string) => (run.includes('\n') ? '\n' : ' ');

/**
 * Lines with their spaces collapsed, blank runs gone: every line cleaned (cleanText) and the empty
 * ones dropped, in one pass over the text rather than a string per line (normalizing a feed's
 * entries, splitting and joining their lines cost more than collapsing their spaces).
 */
export function blockText(text: string): string {
  return text.replace(UNCOLLAPSED_WHITESPACE, collapseRun).trim();
}

/** Text of an HTML fragment (a search hit's title, a feed entry's content) on one line; see htmlToText. */
export function htmlFragmentText(html: string): string {
  // htmlToText's text has every white-space run collapsed already, to one space or one line break:
  // joining its lines is all cleanText would still do, without a second scan of the text.
  return htmlToText(html).text.replaceAll('\n', ' ');
}

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Text as HTML or XML character data: the characters markup reserves escaped (quotes need no escape outside attributes). */
export function escapeMarkupText(text: string): string {
  return text.replace(/[&<>]/g, (char) => TEXT_ESCAPES[char]!);
}
