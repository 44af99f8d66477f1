/**
 * Regions of HTML (or Markdown) that a person looking at the rendered page never sees but a model
 * reading the source does: comments, elements hidden by inline style or attributes (display:none,
 * white or transparent text, zero font size, off-screen positioning, SVG fill), attribute text
 * (alt, title, aria-label, meta content), and script/JSON-LD bodies.
 * Works on the normalized (lower-cased) text; a cheap `<` check skips plain prose.
 */

export type HiddenRegionKind = 'comment' | 'hidden_element' | 'attribute' | 'script' | 'markdown_comment';

export interface HiddenRegion {
  kind: HiddenRegionKind;
  /** Span of the hidden text in the normalized string. */
  start: number;
  end: number;
  /** What hid it: the CSS declaration, attribute name or tag. */
  how: string;
}

const COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
const MARKDOWN_COMMENT = /^\[\/\/\]:\s*#\s*\((.*)\)\s*$/gm;
const OPEN_TAG = /<([a-z][\w:-]*)\b([^<>]*)>/g;
const ATTRIBUTE = /([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g;
/** Attributes whose text is not rendered as page content. */
const TEXT_ATTRIBUTES = /^(?:alt|title|aria-label|aria-description|aria-roledescription|content|placeholder|summary|label|data-[\w-]+)$/;
const HIDING_DECLARATION =
  /display\s*:\s*none|visibility\s*:\s*hidden|opacity\s*:\s*0(?:\.0+)?(?![.\d])|font-size\s*:\s*(?:0|[0-2](?:\.\d+)?)(?:px|pt)?(?![.\d])|font-size\s*:\s*0(?:\.\d+)?(?:em|rem|%)|(?:left|top|right|text-indent|margin-left|margin-top)\s*:\s*-\d{3,}|clip\s*:\s*rect\(\s*0|clip-path\s*:\s*inset\(\s*(?:50|100)%|(?:^|;|\s)(?:height|width|max-height)\s*:\s*0(?:px)?(?![.\d])|transform\s*:\s*scale\(\s*0\s*\)/;
const WHITE_OR_CLEAR = /^(?:#f{3}|#f{6}|#f{8}|white|transparent|rgba?\(\s*255\s*,\s*255\s*,\s*255\s*(?:,\s*[\d.]+\s*)?\)|rgba\([^)]*,\s*0(?:\.0+)?\s*\)|hsla?\(\s*\d+\s*,\s*\d+%\s*,\s*100%.*\))$/;
const TEXT_COLOUR = /(?:^|;|\s)color\s*:\s*([^;]+)/;
const BACKGROUND = /background(?:-color)?\s*:\s*([^;]+)/;
const CONTAINER_TAGS = /^(?:script|style|template|noscript)$/;

export function findHiddenRegions(text: string): HiddenRegion[] {
  if (!text.includes('<') && !text.includes('[//]')) return [];
  const regions: HiddenRegion[] = [];
  for (const match of text.matchAll(COMMENT)) {
    const start = (match.index ?? 0) + 4;
    regions.push({ kind: 'comment', start, end: start + (match[1] ?? '').length, how: 'html comment' });
  }
  for (const match of text.matchAll(MARKDOWN_COMMENT)) {
    const inner = match[1] ?? '';
    const start = (match.index ?? 0) + match[0].indexOf(inner);
    regions.push({ kind: 'markdown_comment', start, end: start + inner.length, how: 'markdown comment' });
  }
  if (!text.includes('<')) return regions;
  for (const tag of text.matchAll(OPEN_TAG)) {
    const name = tag[1] ?? '';
    const attributes = tag[2] ?? '';
    const tagStart = tag.index ?? 0;
    const attributesStart = tagStart + 1 + name.length;
    const afterTag = tagStart + tag[0].length;
    let hiding: string | null = null;
    for (const attribute of attributes.matchAll(ATTRIBUTE)) {
      const key = attribute[1] ?? '';
      const value = attribute[2] ?? attribute[3] ?? attribute[4] ?? '';
      const valueStart = attributesStart + (attribute.index ?? 0) + attribute[0].length - value.length - (attribute[4] === undefined ? 1 : 0);
      if (TEXT_ATTRIBUTES.test(key) && value.trim().length >= 12) {
        regions.push({ kind: 'attribute', start: valueStart, end: valueStart + value.length, how: `${name}[${key}]` });
      }
      hiding ??= hidingReason(key, value);
    }
    if (/\bhidden\b(?!\s*=\s*["']?false)/.test(attributes.replace(ATTRIBUTE, ''))) hiding ??= 'hidden attribute';
    if (CONTAINER_TAGS.test(name)) hiding ??= `<${name}>`;
    if (hiding === null) continue;
    const close = text.indexOf(`</${name}`, afterTag);
    const end = close < 0 ? Math.min(text.length, afterTag + 2_000) : close;
    if (end > afterTag) regions.push({ kind: CONTAINER_TAGS.test(name) ? 'script' : 'hidden_element', start: afterTag, end, how: hiding });
  }
  return regions;
}

function hidingReason(key: string, value: string): string | null {
  const trimmed = value.trim();
  if (key === 'style') {
    const declaration = HIDING_DECLARATION.exec(trimmed);
    if (declaration !== null) return declaration[0].trim();
    const colour = TEXT_COLOUR.exec(trimmed)?.[1]?.trim();
    if (colour !== undefined && WHITE_OR_CLEAR.test(colour)) {
      // White text on a dark background is visible; white on white (or on nothing) is not.
      const background = BACKGROUND.exec(trimmed)?.[1]?.trim();
      if (background === undefined || WHITE_OR_CLEAR.test(background)) return `color:${colour}`;
    }
    return null;
  }
  if ((key === 'color' || key === 'fill') && WHITE_OR_CLEAR.test(trimmed)) return `${key}=${trimmed}`;
  if ((key === 'opacity' || key === 'fill-opacity') && /^0(?:\.0+)?$/.test(trimmed)) return `${key}=${trimmed}`;
  if (key === 'font-size' && /^(?:0|[0-2](?:\.\d+)?)(?:px|pt)?$/.test(trimmed)) return `${key}=${trimmed}`;
  return null;
}
