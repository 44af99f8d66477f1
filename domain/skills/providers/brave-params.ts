/**
 * What Brave's search endpoints accept, enforced before the call so that an input we can fix never
 * costs a 422: `q` at most 400 characters and 50 words (the `site:` operator included; cut from the
 * end, never refused), `search_lang` and `country` from Brave's fixed lists (our language codes
 * mapped onto them, e.g. ja → jp; a code Brave does not offer is left out with a note), `offset`
 * 0–9. Each adjustment comes back as a note the run reports.
 */

export const BRAVE_MAX_QUERY_CHARS = 400;
export const BRAVE_MAX_QUERY_WORDS = 50;
export const BRAVE_MAX_OFFSET = 9;

/** Brave's search_lang values (Web and News Search API reference). */
export const BRAVE_SEARCH_LANGS: ReadonlySet<string> = new Set([
  'ar', 'eu', 'bn', 'bg', 'ca', 'zh-hans', 'zh-hant', 'hr', 'cs', 'da', 'nl', 'en', 'en-gb', 'et', 'fi', 'fr', 'gl', 'de',
  'gu', 'he', 'hi', 'hu', 'is', 'it', 'jp', 'kn', 'ko', 'lv', 'lt', 'ms', 'ml', 'mr', 'nb', 'pl', 'pt-br', 'pt-pt', 'pa',
  'ro', 'ru', 'sr', 'sk', 'sl', 'es', 'sv', 'ta', 'te', 'th', 'tr', 'uk', 'vi',
]);

/** Brave's country values; ALL = no country preference. */
export const BRAVE_COUNTRIES: ReadonlySet<string> = new Set([
  'ALL', 'AR', 'AU', 'AT', 'BE', 'BR', 'CA', 'CL', 'DK', 'FI', 'FR', 'DE', 'HK', 'IN', 'ID', 'IT', 'JP', 'KR', 'MY', 'MX',
  'NL', 'NZ', 'NO', 'CN', 'PL', 'PT', 'PH', 'RU', 'SA', 'ZA', 'ES', 'SE', 'CH', 'TW', 'TR', 'GB', 'US',
]);

/** Our (ISO 639-1 / BCP 47) codes whose Brave spelling differs. */
const LANGUAGE_ALIASES: Record<string, string> = {
  ja: 'jp',
  'ja-jp': 'jp',
  zh: 'zh-hans',
  'zh-cn': 'zh-hans',
  'zh-sg': 'zh-hans',
  'zh-tw': 'zh-hant',
  'zh-hk': 'zh-hant',
  'zh-mo': 'zh-hant',
  pt: 'pt-br',
  'pt-br': 'pt-br',
  'pt-pt': 'pt-pt',
  'en-gb': 'en-gb',
  'en-uk': 'en-gb',
  no: 'nb',
  nn: 'nb',
  iw: 'he',
};

const COUNTRY_ALIASES: Record<string, string> = { UK: 'GB' };

export interface Mapped {
  value: string | null;
  note: string | null;
}

/** Our language code as Brave's search_lang, or null (with a note) when Brave offers none for it. */
export function braveSearchLang(code: string): Mapped {
  const lower = code.trim().toLowerCase().replace(/_/g, '-');
  const mapped = LANGUAGE_ALIASES[lower] ?? (BRAVE_SEARCH_LANGS.has(lower) ? lower : (LANGUAGE_ALIASES[lower.split('-')[0]!] ?? lower.split('-')[0]!));
  if (BRAVE_SEARCH_LANGS.has(mapped)) return { value: mapped, note: mapped === lower ? null : `search_lang ${code} sent as ${mapped}` };
  return { value: null, note: `search_lang ${code} is not a language Brave offers: sent without a language` };
}

/** A country code as Brave's, or null (with a note) when Brave does not list it. */
export function braveCountry(code: string): Mapped {
  const upper = code.trim().toUpperCase();
  const mapped = COUNTRY_ALIASES[upper] ?? upper;
  if (BRAVE_COUNTRIES.has(mapped)) return { value: mapped, note: mapped === upper ? null : `country ${code} sent as ${mapped}` };
  return { value: null, note: `country ${code} is not a country Brave offers: sent without a country` };
}

/**
 * The query within Brave's 50 words and 400 characters: whitespace collapsed, whole words kept
 * from the start (so a leading `site:` operator stays), a single overlong word cut at 400.
 */
export function cutBraveQuery(query: string): { q: string; note: string | null } {
  const words = query.trim().split(/\s+/).filter(Boolean);
  let kept = words.slice(0, BRAVE_MAX_QUERY_WORDS);
  while (kept.length > 1 && kept.join(' ').length > BRAVE_MAX_QUERY_CHARS) kept = kept.slice(0, -1);
  let q = kept.join(' ');
  if (q.length > BRAVE_MAX_QUERY_CHARS) q = q.slice(0, BRAVE_MAX_QUERY_CHARS);
  const original = words.join(' ');
  if (q === original) return { q, note: null };
  return { q, note: `query cut to Brave's limit of ${BRAVE_MAX_QUERY_WORDS} words and ${BRAVE_MAX_QUERY_CHARS} characters (${words.length} words, ${original.length} characters asked)` };
}
