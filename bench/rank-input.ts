/**
 * Provider-style results for `skrya rank` ({url, title, snippet, published_date, source}, one JSON
 * object a line), with a known number of true documents: a share of the lines are URL variants of
 * an earlier document (tracking parameters, www., http, a trailing slash, a fragment, query keys
 * reordered, an upper-case host) returned by another provider, half with that provider's own
 * snippet, so only the URL says they are the same page. Words come from a generated vocabulary
 * large enough that two different documents never look alike. The same seed gives the same bytes.
 */
import { createRandom, pick, type Random } from '../domain/learned/random.ts';
import { HOSTS } from './payloads.ts';

const PROVIDERS = ['brave', 'exa', 'tavily', 'searxng', 'rss'];
const SYLLABLES = ['ka', 'fo', 'ri', 'tem', 'lo', 'stra', 'min', 've', 'qu', 'bel', 'dor', 'sa', 'nit', 'po', 'gre', 'lu', 'xan', 'mer', 'ti', 'zo', 'ark', 'pel', 'vin', 'chu'];

/** Distinct pseudo-words of two to four syllables. */
function vocabulary(random: Random, size: number): string[] {
  const words = new Set<string>();
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length }, () => pick(random, SYLLABLES)).join(''));
  }
  return [...words];
}

function words(random: Random, vocabularyWords: readonly string[], count: number): string {
  return Array.from({ length: count }, () => pick(random, vocabularyWords)).join(' ');
}

/** The same page's URL as another provider or feed might give it. */
const URL_VARIANTS: ReadonlyArray<(host: string, path: string, query: string) => string> = [
  (host, path, query) => `https://${host}${path}${query ? `${query}&` : '?'}utm_source=newsletter&utm_medium=email`,
  (host, path, query) => `http://${host}${path}${query}`,
  (host, path, query) => `https://${host.startsWith('www.') ? host.slice(4) : `www.${host}`}${path}${query}`,
  (host, path, query) => `https://${host}${path}/${query}`,
  (host, path, query) => `https://${host}${path}${query}#comments`,
  (host, path, query) => `https://${host.toUpperCase()}${path}${query ? `?${query.slice(1).split('&').reverse().join('&')}` : ''}`,
  (host, path, query) => `https://${host}${path}${query ? `${query}&` : '?'}fbclid=IwAR${host.length}x`,
];

export interface RankInput {
  /** JSON lines, newline-terminated. */
  text: string;
  lines: number;
  /** Distinct documents among the lines: what a correct dedupe leaves. */
  trueDocuments: number;
}

export function generateRankInput(options: { lines: number; duplicateShare: number; seed?: number }): RankInput {
  const random = createRandom(options.seed ?? 41);
  const vocabularyWords = vocabulary(random, 20_000);
  const documents: { host: string; path: string; query: string; title: string; snippet: string; published: string }[] = [];
  const out: string[] = [];
  const windowEndMs = Date.parse('2026-11-30T00:00:00Z');
  for (let line = 0; line < options.lines; line++) {
    const source = pick(random, PROVIDERS);
    if (documents.length > 0 && random() < options.duplicateShare) {
      const original = documents[Math.floor(random() * documents.length)]!;
      const url = pick(random, URL_VARIANTS)(original.host, original.path, original.query);
      // Half the copies carry the provider's own snippet: only the URL ties them to the original.
      const snippet = random() < 0.5 ? original.snippet : words(random, vocabularyWords, 30);
      out.push(JSON.stringify({ url, title: original.title, snippet, published_date: original.published, source }));
      continue;
    }
    const host = pick(random, HOSTS);
    const path = `/${words(random, vocabularyWords, 1)}/${documents.length}-${words(random, vocabularyWords, 3).replaceAll(' ', '-')}`;
    const query = random() < 0.3 ? `?id=${documents.length}&page=${1 + Math.floor(random() * 3)}` : '';
    const document = {
      host,
      path,
      query,
      title: words(random, vocabularyWords, 6 + Math.floor(random() * 6)),
      snippet: words(random, vocabularyWords, 30),
      published: new Date(windowEndMs - Math.floor(random() * 30 * 86_400_000)).toISOString(),
    };
    documents.push(document);
    out.push(JSON.stringify({ url: `https://${host}${path}${query}`, title: document.title, snippet: document.snippet, published_date: document.published, source }));
  }
  return { text: `${out.join('\n')}\n`, lines: options.lines, trueDocuments: documents.length };
}
