/**
 * Query candidates from documents written by other people: the headings of FAQs and manuals ("How
 * can I install a developer's environment?", "我应该如何获得…"), with their numbering removed. Each
 * candidate is keyed by a hash of its source document and text, so a label file can name it without
 * holding the text (which comes from the pinned package at build time). A document is a family: it
 * and its translation sit in one split, chosen by a hash of the family's name.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fnv1a, type Split } from '../../learned/random.ts';
import { ensureDebianPackage } from '../../screening/real-text/fetch-packages.ts';
import { htmlFragmentText } from '../../text/html.ts';
import { QUERY_SOURCES, type QuerySource } from './query-sources.ts';

export interface QueryCandidate {
  /** Hash of the source document and the text: what the label file is keyed by. */
  key: string;
  query: string;
  lang: 'en' | 'zh' | 'mixed';
  source: string;
  /** Source and document name, e.g. `debian-faq-en/software`. */
  document: string;
  /** Work and document name shared by a document and its translation, e.g. `debian-faq/software`. */
  family: string;
  split: Split;
}

/** Shares of families in train / validation (the rest is test). */
export const REAL_QUERY_SPLIT = { trainShare: 0.4, validationShare: 0.3 } as const;

const HEADING = /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>/gi;
// "5.1. ", "3.1: ", "A.2.3 ", "G12. ", "Chapter 3: ", "第 5 章 "; the first or second group is a section number's chapter.
const NUMBERING = /^(?:(?:Chapter|Appendix)\s+[\dA-Z]+[.:]?\s+|第\s*[\d一二三四五六七八九十]+\s*章\s*|(\d+|[A-Z])(?:\.\d+)+\.?:?\s+|([A-Z])\d+\.\s+|\d+[.:]\s+)/;
const MIN_LENGTH = 4;
const MAX_LENGTH = 160;

export interface Heading {
  text: string;
  /** The chapter of a numbered section ("7" of "7.31 Why …"), if numbered. */
  chapter?: string;
}

/** The headings of an HTML document at or below `minLevel`, numbering removed, as one-line texts. */
export function headingsOf(html: string, minLevel: number): Heading[] {
  const headings: Heading[] = [];
  for (const match of html.matchAll(HEADING)) {
    if (Number(match[1]) < minLevel) continue;
    const whole = htmlFragmentText(match[2] ?? '');
    const numbering = NUMBERING.exec(whole);
    const chapter = numbering?.[1] ?? numbering?.[2];
    const text = whole.replace(NUMBERING, '').trim();
    if (text.length >= MIN_LENGTH && text.length <= MAX_LENGTH) headings.push(chapter === undefined ? { text } : { text, chapter });
  }
  return headings;
}

export function candidateKey(document: string, query: string): string {
  return createHash('sha256').update(`${document}\n${query}`).digest('hex').slice(0, 16);
}

export function splitOfQueryFamily(family: string): Split {
  const share = fnv1a(`real-queries:${family}`) / 4294967296;
  return share < REAL_QUERY_SPLIT.trainShare ? 'train' : share < REAL_QUERY_SPLIT.trainShare + REAL_QUERY_SPLIT.validationShare ? 'validation' : 'test';
}

const CJK_CHARACTER = /[\u3400-\u9fff\uf900-\ufaff]/g;
const LETTER = /\p{L}/gu;

/** A query's language by its share of CJK characters among letters (Chinese FAQs keep names and commands in Latin letters). */
export function queryLanguage(text: string, sourceLang: QuerySource['lang']): QueryCandidate['lang'] {
  if (sourceLang === 'en') return 'en';
  const share = (text.match(CJK_CHARACTER)?.length ?? 0) / Math.max(1, text.match(LETTER)?.length ?? 0);
  return share >= 0.3 ? 'zh' : share === 0 ? 'en' : 'mixed';
}

/** The candidates of one source's documents (given as file name → HTML), in document order. */
export function candidatesOf(source: QuerySource, documents: ReadonlyArray<{ file: string; html: string }>): QueryCandidate[] {
  const candidates: QueryCandidate[] = [];
  const seen = new Set<string>();
  for (const { file, html } of documents) {
    const fileName = source.files.exec(file)?.[1];
    if (fileName === undefined) continue;
    for (const { text: query, chapter } of headingsOf(html, source.minLevel)) {
      const name = source.chapters === true ? `${fileName}/${chapter ?? 'front'}` : fileName;
      const document = `${source.name}/${name}`;
      const family = `${source.work}/${name}`;
      const key = candidateKey(document, query);
      if (seen.has(key)) continue;
      seen.add(key);
      candidates.push({ key, query, lang: queryLanguage(query, source.lang), source: source.name, document, family, split: splitOfQueryFamily(family) });
    }
  }
  if (source.cap === undefined || candidates.length <= source.cap) return candidates;
  const kept = new Set(candidates.map((candidate) => candidate.key).sort().slice(0, source.cap));
  return candidates.filter((candidate) => kept.has(candidate.key));
}

function sourceCandidates(source: QuerySource): QueryCandidate[] {
  const root = ensureDebianPackage(source.package, source.version, 'domain/intent/real-queries/query-sources.ts');
  const folder = join(root, source.under);
  const files = readdirSync(folder).filter((file) => source.files.test(file)).sort();
  return candidatesOf(source, files.map((file) => ({ file, html: readFileSync(join(folder, file), 'utf8') })));
}

let cached: QueryCandidate[] | undefined;

/** Every candidate of the pinned sources (fetched into the cache first when missing). */
export function queryCandidates(): QueryCandidate[] {
  cached ??= QUERY_SOURCES.flatMap(sourceCandidates);
  return cached;
}
