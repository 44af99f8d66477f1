/**
 * A translation published beside its original as a sibling file: `README.zh-CN.md` next to
 * `README.md`, `guide_ja.md` next to `guide.md`. Text fingerprints cannot see such a pair (the
 * two texts share no words), but the URLs say it: with the language tag taken out of the file
 * name they are the same address. Only documentation files (Markdown, reStructuredText,
 * AsciiDoc, plain text) take part, so a web page's `index.en.html` or a site's `/zh/` section is
 * never merged with another language's page on this evidence alone. Different branches or tags
 * (`blob/v1/…`, `blob/v2/…`) keep different keys, so versions stay apart.
 */

/** An http(s) URL up to the first slash of its path. */
const SCHEME = /^https?:\/\/[^/?#]+\//iu;
const DOCUMENT_EXTENSION = /\.(?:md|markdown|mdx|rst|adoc|asciidoc|txt)(?:[?#]|$)/iu;
const DOCUMENT_FILE = /^(?<stem>[^/]+?)(?:[._-](?<language>[a-z]{2}(?:[-_](?:[a-z]{2}|hans|hant|latn|cyrl))?))?\.(?<extension>md|markdown|mdx|rst|adoc|asciidoc|txt)$/iu;

/** ISO 639-1 codes a file-name suffix must use to count as a language tag (`guide-xy.md` is no translation of `guide.md`). */
const LANGUAGES: ReadonlySet<string> = new Set([
  'ar', 'bg', 'bn', 'ca', 'cs', 'da', 'de', 'el', 'en', 'es', 'et', 'fa', 'fi', 'fr', 'he', 'hi', 'hr', 'hu', 'id', 'it',
  'ja', 'ko', 'lt', 'lv', 'ms', 'nl', 'no', 'pl', 'pt', 'ro', 'ru', 'sk', 'sl', 'sr', 'sv', 'th', 'tr', 'uk', 'vi', 'zh',
]);

/**
 * The address shared by a documentation file and its sibling translations (the canonical URL
 * with the file name's language tag removed), or null when the URL is not a documentation file.
 * Takes a canonical URL, so tracking parameters and fragments are already gone.
 */
export function translationKey(canonical: string): string | null {
  // String work only (no URL parsing), and most URLs leave at the first test: this runs once per
  // item of a run, 100k items in `skrya rank`.
  if (!DOCUMENT_EXTENSION.test(canonical)) return null;
  const pathStart = SCHEME.exec(canonical)?.[0].length;
  if (pathStart === undefined) return null;
  const end = canonical.slice(pathStart).search(/[?#]/u);
  const address = end === -1 ? canonical : canonical.slice(0, pathStart + end);
  const slash = address.lastIndexOf('/');
  if (slash < pathStart - 1) return null;
  const name = address.slice(slash + 1);
  const match = DOCUMENT_FILE.exec(name);
  if (match === null) return null;
  const { stem, language, extension } = match.groups as { stem: string; language?: string; extension: string };
  const tagged = language !== undefined && LANGUAGES.has(language.slice(0, 2).toLowerCase());
  const base = tagged ? stem : name.slice(0, name.length - extension.length - 1);
  return `${address.slice(0, slash + 1)}${base}.${extension.toLowerCase()}`;
}
