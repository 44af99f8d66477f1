let lastText: string | null = null;
let lastParsed: Readonly<URL> | null = null;

/**
 * An absolute URL parsed by the WHATWG parser, or null when it is none; read-only, because the
 * parse is shared. One result's URL is read by several steps in a row: validation (is it a usable
 * source), scoring (its host, its path's date) and dedupe (its canonical form). Each parsed it
 * again, about a microsecond a parse and more for the getters read after it, three parses a result
 * in `skrya rank` and in the scorer. The last text parsed is remembered, so the steps of one result
 * share one parse. A caller that needs a URL to change makes its own (`new URL(parsed.href)`).
 */
export function parseUrl(text: string): Readonly<URL> | null {
  if (text !== lastText) {
    lastText = text;
    lastParsed = URL.parse(text);
  }
  return lastParsed;
}
