/**
 * HTML built by a tagged template that escapes every interpolated value unless it is already
 * escaped markup (another `html` result). Evidence, titles, URLs and error messages are untrusted
 * (a page may carry prompt-injection text aimed at whoever reads it), so nothing reaches a page
 * unescaped by default.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** Markup that is safe to emit as it is: built by `html`, or by a renderer that escapes (markdown-it with html off). */
export class SafeHtml {
  readonly markup: string;
  constructor(markup: string) {
    this.markup = markup;
  }
  toString(): string {
    return this.markup;
  }
}

function render(value: unknown): string {
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += render(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

/** A URL from evidence as a link target: only http(s), so `javascript:` and `data:` never become links. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/** Data for the client script, in a JSON script element: `<` is escaped so no string can close the element. */
export function jsonScript(id: string, data: unknown): SafeHtml {
  const json = JSON.stringify(data).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return new SafeHtml(`<script type="application/json" id="${escapeHtml(id)}">${json}</script>`);
}

/** The neutralization marks the screener leaves in content (`[neutralized:rule]`, quarantine brackets), highlighted. */
const NEUTRALIZED_MARK = /(\[neutralized:[^\]\s]{1,80}\]|⟦SKRYA-QUARANTINE[^⟧]{0,200}⟧|⟦\/SKRYA-QUARANTINE⟧)/u;

export function markNeutralized(text: string): SafeHtml {
  const parts = text.split(NEUTRALIZED_MARK);
  return html`${parts.map((part, index) => (index % 2 === 1 ? html`<mark class="neutralized">${part}</mark>` : part))}`;
}
