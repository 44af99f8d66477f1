/**
 * Injections written by other people, second source: the labelled prompt-injection corpus that
 * agent-security-scanner-mcp (MIT) ships for benchmarking its own scanner
 * (benchmarks/corpus/prompt_injection.txt of the pinned tarball, sources.ts
 * SCANNER_BENCHMARK_PACKAGE): 20 attacks (instruction overrides, DAN, system-prompt extraction,
 * delimiter injections inside a document to summarise or translate, base64 payloads, role-play,
 * fictional framing, "developer mode") and 5 benign look-alikes (prompt engineering, role-play
 * practice), each a message to a chat model, written independently of promptfoo's list.
 *
 * Too few to train on: all of it is a test set, never trained or tuned on. Each entry is screened
 * as-is and set into the middle of a benign English test-split page of the generated corpus, like
 * promptfoo's test prompts (outside-injections.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkryaError } from '../../../runtime/errors.ts';
import { fnv1a } from '../../learned/random.ts';
import type { GeneratedItem } from '../corpus/generate-corpus.ts';
import { ensureNpmPackage } from './fetch-packages.ts';
import { placeInPage } from './outside-injections.ts';
import { SCANNER_BENCHMARK_PACKAGE } from './sources.ts';

const CORPUS_FILE = join('package', 'benchmarks', 'corpus', 'prompt_injection.txt');
/** An entry's header: its label and the scanner rule it exercises, e.g. `# VULN: generic.prompt.security.jailbreak-dan`. */
const HEADER = /^# (VULN|SAFE): \S*?([\w-]+)$/;

export interface BenchmarkEntry {
  label: 'injection' | 'benign';
  /** The last part of the scanner's rule name (`jailbreak-dan`, `delimiter-injection`, …). */
  rule: string;
  text: string;
}

/**
 * The entries of the corpus file: each `# VULN:` or `# SAFE:` header with the lines up to the next
 * comment line (blank lines inside an entry kept, the whole trimmed). Fails with
 * CORPUS_UNAVAILABLE when the file holds no entry or an entry has no text.
 */
export function benchmarkEntries(text: string): BenchmarkEntry[] {
  const entries: BenchmarkEntry[] = [];
  let current: { label: BenchmarkEntry['label']; rule: string; lines: string[] } | null = null;
  const close = () => {
    if (current === null) return;
    const body = current.lines.join('\n').trim();
    if (body === '') throw new SkryaError('CORPUS_UNAVAILABLE', `${SCANNER_BENCHMARK_PACKAGE.package} ${SCANNER_BENCHMARK_PACKAGE.version}: an entry of ${CORPUS_FILE} (${current.rule}) has no text`);
    entries.push({ label: current.label, rule: current.rule, text: body });
    current = null;
  };
  for (const line of text.split('\n')) {
    const header = HEADER.exec(line.trimEnd());
    if (header !== null) {
      close();
      current = { label: header[1] === 'VULN' ? 'injection' : 'benign', rule: header[2]!, lines: [] };
    } else if (line.startsWith('#')) close();
    else current?.lines.push(line);
  }
  close();
  if (entries.length === 0) throw new SkryaError('CORPUS_UNAVAILABLE', `${SCANNER_BENCHMARK_PACKAGE.package} ${SCANNER_BENCHMARK_PACKAGE.version}: no '# VULN:' or '# SAFE:' entry in ${CORPUS_FILE}; the pin in domain/screening/real-text/sources.ts must name a version that ships it`);
  return entries;
}

/**
 * Each entry as-is (an untitled item) and in the middle of a benign English test-split page of
 * `hosts` (the generated corpus), all in the test split. Benign entries are hard negatives: they
 * talk about prompts and role-play the way attacks do.
 */
export function benchmarkItems(entries: readonly BenchmarkEntry[], hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const pages = hosts.filter((item) => item.split === 'test' && item.label === 'benign' && item.difficulty === 'easy' && item.lang === 'en');
  return entries.flatMap((entry, index) => {
    const id = `scanner-benchmark-${index}`;
    const base = { lang: 'en' as const, label: entry.label, kind: `scanner:${entry.rule}`, difficulty: entry.label === 'benign' ? ('hard' as const) : ('easy' as const), split: 'test' as const, family: id, titleIsPayload: false };
    const spans = (span: [number, number]): Array<[number, number]> => (entry.label === 'injection' ? [span] : []);
    const items: GeneratedItem[] = [{ ...base, id: `${id}/as-is`, title: '', content: entry.text, url: `npm:${SCANNER_BENCHMARK_PACKAGE.package}@${SCANNER_BENCHMARK_PACKAGE.version}#${index}`, carrier: 'as-is', spans: spans([0, entry.text.length]) }];
    if (pages.length === 0) return items;
    const host = pages[fnv1a(id) % pages.length]!;
    const { content, span } = placeInPage(host, entry.text, 'middle');
    items.push({ ...base, id: `${id}/in-page`, title: host.title, content, url: host.url, carrier: 'in-page', spans: spans(span) });
    return items;
  });
}

/** The benchmark's items, the package fetched into the cache first when missing. */
export function scannerBenchmarkCorpus(hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const root = ensureNpmPackage(SCANNER_BENCHMARK_PACKAGE.package, SCANNER_BENCHMARK_PACKAGE.version, SCANNER_BENCHMARK_PACKAGE.integrity);
  return benchmarkItems(benchmarkEntries(readFileSync(join(root, CORPUS_FILE), 'utf8')), hosts);
}
