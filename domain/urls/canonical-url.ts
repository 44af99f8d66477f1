import normalizeUrl from 'normalize-url';
import { parseUrl } from './parse-url.ts';

/**
 * One URL per document, so the same page found by several providers or sub-queries merges.
 *
 * Choices (and why):
 * - Only absolute http(s) URLs have a canonical form; anything else (mailto:, javascript:,
 *   relative, unparseable) is null and is never merged by URL.
 * - http is unified to https: today nearly every site serves the same document on both, and
 *   providers disagree on which one they report; two different documents at the http and https
 *   forms of one URL are rare enough not to matter for dedupe.
 * - Host lower-cased, IDN hosts in punycode (the WHATWG parser does both), trailing dot and `www.`
 *   dropped, default ports dropped (other ports kept: a different port is a different service).
 * - Fragment, credentials, tracking parameters and empty parameters dropped; the rest sorted by
 *   name (stable for repeated names), their percent-encoding normalized (unreserved characters
 *   decoded, hex upper-cased) but reserved ones kept encoded, so `q=a%26b` never becomes `q=a&b`.
 * - Path: duplicate slashes collapsed, trailing slash dropped, percent-encoding normalized;
 *   case kept (paths are case-sensitive).
 * - Mobile (`m.`) and AMP (`amp.`, `/amp`) variants are NOT merged by rule: many sites serve
 *   different content there, and an AMP page declares its original with rel=canonical, which
 *   wins when given. Only the unambiguous AMP cache wrappers (cdn.ampproject.org, google.com/amp/)
 *   are unwrapped to the page they carry.
 * - A hint (rel=canonical, then og:url) replaces the URL when it is an absolute http(s) URL or a
 *   relative one (resolved against the page), unless it points at the bare site root from a
 *   deeper page: CMS templates that stamp the home page as every page's canonical would otherwise
 *   merge a whole site into one item.
 */
export const TRACKING_PARAMETERS: readonly (string | RegExp)[] = [
  /^utm_/,
  /^hsa_/,
  /^pk_/,
  /^mtm_/,
  'gclid', 'gclsrc', 'dclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid', 'yclid', 'twclid', 'ttclid', 'li_fat_id',
  'mc_cid', 'mc_eid', '_hsenc', '_hsmkt', '__hssc', '__hstc', '__hsfp', 'hsctatracking',
  'ref', 'ref_src', 'ref_url', 'referrer', 'igshid', 'igsh', 'si', 'spm', 'scm', 'share_source', 'share_medium',
  'vd_source', 'from_source', 'wt_mc', 'cmpid', 'ncid', 'sr_share', 's_cid', 'oly_enc_id', 'oly_anon_id', 'rb_clickid',
  '_ga', '_gl', 'ved', 'usg', 'ei',
];

export interface CanonicalHints {
  relCanonical?: string | null;
  ogUrl?: string | null;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const AMP_CACHE_HOST = /\.cdn\.ampproject\.org$/;

// The list as a set of names and one pattern, rather than each parameter tested against its 55
// rules in turn: about 0.1 µs less a URL (of 1.5) on `skrya rank`'s bench input.
const TRACKING_NAMES: ReadonlySet<string> = new Set(TRACKING_PARAMETERS.filter((rule): rule is string => typeof rule === 'string'));
const TRACKING_PATTERNS = TRACKING_PARAMETERS.filter((rule): rule is RegExp => rule instanceof RegExp);
// An empty alternation would match every name: with no patterns, one that matches none.
const TRACKING_PATTERN = TRACKING_PATTERNS.length === 0 ? /(?!)/ : new RegExp(TRACKING_PATTERNS.map((rule) => `(?:${rule.source})`).join('|'));

function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return TRACKING_NAMES.has(lower) || TRACKING_PATTERN.test(lower);
}

/** Decodes percent-escapes of unreserved characters and upper-cases the hex of the others (RFC 3986 §6.2.2). */
function normalizePercentEncoding(part: string): string {
  return part.replace(/%([0-9a-fA-F]{2})/g, (_escape, hex: string) => {
    const character = String.fromCharCode(Number.parseInt(hex, 16));
    return UNRESERVED.test(character) ? character : `%${hex.toUpperCase()}`;
  });
}

interface QueryPair {
  name: string;
  raw: string;
}

function canonicalQuery(search: string): string {
  if (search === '' || search === '?') return '';
  // One loop into one array of one kind of object, not filter → map → filter: arrays of different
  // kinds (an empty one, one of pairs) at the same place were a fresh compilation of canonicalUrl
  // per kind on every thread that canonicalizes (about 150 ms of compiling in a 100k `skrya rank`).
  const pairs: QueryPair[] = [];
  for (const pair of search.slice(1).split('&')) {
    if (pair === '') continue;
    const equals = pair.indexOf('=');
    const name = normalizePercentEncoding(equals === -1 ? pair : pair.slice(0, equals));
    if (isTrackingParameter(safeDecode(name))) continue;
    pairs.push({ name, raw: equals === -1 ? name : `${name}=${normalizePercentEncoding(pair.slice(equals + 1))}` });
  }
  if (pairs.length === 0) return '';
  // Array#sort is stable: repeated names keep their relative order, which can carry meaning.
  pairs.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let query = '';
  for (const pair of pairs) query += `${query === '' ? '?' : '&'}${pair.raw}`;
  return query;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parseHttpUrl(text: string, base?: string): Readonly<URL> | null {
  const parsed = base === undefined ? parseUrl(text) : URL.parse(text, base);
  return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed : null;
}

/** The page inside an AMP cache URL: cdn.ampproject.org/c/s/<host>/<path> and google.com/amp/s/<host>/<path>. */
function unwrapAmpCache(url: Readonly<URL>): Readonly<URL> {
  const host = url.hostname;
  let inner: string | null = null;
  if (AMP_CACHE_HOST.test(host)) inner = url.pathname.replace(/^\/[a-z]+(?=\/)/, '');
  else if ((host === 'google.com' || host === 'www.google.com') && url.pathname.startsWith('/amp/')) inner = url.pathname.slice(4);
  if (inner === null) return url;
  const secure = inner.startsWith('/s/');
  const rest = secure ? inner.slice(3) : inner.slice(1);
  return parseHttpUrl(`${secure ? 'https' : 'http'}://${rest}${url.search}`) ?? url;
}

/** A path of unreserved and sub-delimiter characters only: no escapes to normalize, no scheme inside it (normalize-url keeps `//` after one). */
const PLAIN_PATH = /^[A-Za-z0-9\-._~/!$&'()*+,;=@]*$/;
const WWW_HOST = /^www\.(?!www\.)[a-z\-\d]{1,63}\.[a-z.\-\d]{2,63}$/;

/**
 * What normalize-url and the parse after it (canonicalForm) make of a URL whose path is plain and
 * whose host has no trailing dot, built directly: the host without `www.` (normalize-url's rule),
 * duplicate slashes collapsed, the trailing slash dropped. Null for any other URL, which takes
 * the general way. Most URLs are plain, and this saves three URL parses each.
 */
function plainCanonicalForm(url: Readonly<URL>, query: string): string | null {
  const { hostname, pathname } = url;
  if (hostname.endsWith('.') || !PLAIN_PATH.test(pathname)) return null;
  const host = WWW_HOST.test(hostname) ? hostname.slice(4) : hostname;
  const path = pathname.replace(/\/{2,}/g, '/').replace(/\/$/, '');
  const port = httpsPort(url);
  return `https://${host}${port === '' ? '' : `:${port}`}${path}${query}`;
}

/** The URL's port once its scheme is https (as the WHATWG `protocol` setter leaves it): 443, https's default, is dropped. */
function httpsPort(url: Readonly<URL>): string {
  return url.port === '443' ? '' : url.port;
}

function canonicalForm(url: Readonly<URL>): string {
  const page = unwrapAmpCache(url);
  const query = canonicalQuery(page.search);
  // Built from the shared parse when it can be (parseUrl's: read-only); the general way edits a copy.
  const plain = plainCanonicalForm(page, query);
  if (plain !== null) return plain;
  const unwrapped = new URL(page.href);
  unwrapped.protocol = 'https:';
  unwrapped.search = '';
  // normalize-url runs decodeURI over the path, which would turn a literal "%2541" into "%41" and
  // then "A"; doubling the escape of '%' makes that decode a no-op.
  unwrapped.pathname = normalizePercentEncoding(unwrapped.pathname).replace(/%25/g, '%2525');
  const normalized = normalizeUrl(unwrapped.href, {
    stripHash: true,
    stripWWW: true,
    stripAuthentication: true,
    removeTrailingSlash: true,
    removeSingleSlash: true,
    removeQueryParameters: false,
    sortQueryParameters: false,
    removeExplicitPort: false,
  });
  // normalize-url decodes the path (decodeURI) and the URL serializer re-encodes it; normalize
  // the escapes once more so the hex case is uniform whatever the input looked like.
  const reparsed = new URL(normalized);
  return `${reparsed.origin}${normalizePercentEncoding(reparsed.pathname === '/' ? '' : reparsed.pathname)}${query}`;
}

function isSiteRoot(url: URL): boolean {
  return (url.pathname === '/' || url.pathname === '') && url.search === '';
}

export function canonicalUrl(url: string, hints: CanonicalHints = {}): string | null {
  const page = parseHttpUrl(url.trim());
  if (page === null) return null;
  for (const hint of [hints.relCanonical, hints.ogUrl]) {
    if (hint === null || hint === undefined || hint.trim() === '') continue;
    const target = parseHttpUrl(hint.trim(), page.href);
    if (target === null) continue;
    if (isSiteRoot(target) && !isSiteRoot(page)) continue;
    return canonicalForm(target);
  }
  return canonicalForm(page);
}
