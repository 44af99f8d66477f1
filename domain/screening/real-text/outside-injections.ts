/**
 * Injections written by other people: the jailbreak prompts promptfoo (MIT) ships as data for its
 * red-team `prompt-injection` strategy (src/redteam/strategies/promptInjections/data.ts, bundled
 * into dist/src/strategies-*.js of the pinned tarball, sources.ts PROMPTFOO_PACKAGE). They are
 * collected chat jailbreaks (DAN, "Developer Mode", role-play personas), addressed to a chat model,
 * not to an agent reading a page.
 *
 * Near-variants (DAN versions, the same template with small edits) are one family: prompts that
 * share half of the smaller one's word shingles are joined, transitively. Families are hashed into
 * train / validation / test (about 50 / 25 / 25 %), so no variant of a test prompt is trained or
 * tuned on. Each prompt is screened two ways, both labelled injection:
 * - `as-is`: the prompt alone as an item's content (untitled), the way a pasted message arrives;
 * - `in-page`: the prompt set into the middle of a benign English page of the generated corpus's
 *   split of the same name, the way a retrieved page would carry it.
 * Train and validation prompts also come in further pages for training (`in-page-<n>`: at the
 * start, the middle or the end of other hosts of their split, some wrapped by one of that split's
 * carriers); the recipe says how many join training (learned-model.ts INJECTION_RECIPE).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkryaError } from '../../../runtime/errors.ts';
import { createRandom, fnv1a, type Split } from '../../learned/random.ts';
import { CARRIERS, familySplits as carrierFamilySplits, type GeneratedItem } from '../corpus/generate-corpus.ts';
import { ensureNpmPackage } from './fetch-packages.ts';
import { PROMPTFOO_PACKAGE } from './sources.ts';

const DATA_REGION = '//#region src/redteam/strategies/promptInjections/data.ts';
export const OUTSIDE_INJECTION_KIND = 'promptfoo_jailbreak';
/** Training pages a train or validation prompt comes in beyond the as-is item and the middle-of-page one. */
export const MAX_EXTRA_PAGES = 7;
/** Word shingles shared, as a share of the smaller prompt's, that make two prompts one family. */
const FAMILY_CONTAINMENT = 0.5;
const SHINGLE_WORDS = 3;
const SPLIT_SEED = 0x13b;
const POSITIONS = ['start', 'middle', 'end'] as const;
/** Carrier techniques that keep a long prompt readable as text (escaped-script carriers would turn it into \u escapes). */
const PAGE_CARRIER_TECHNIQUES: ReadonlySet<string> = new Set(['hidden_html', 'fake_delimiter', 'bracket_notice', 'chat_tokens']);

/** The prompts of promptfoo's bundled data module: one array of string literals between its region markers. */
export function promptfooInjections(bundle: string): string[] {
  const start = bundle.indexOf(DATA_REGION);
  const open = bundle.indexOf('[', start);
  const close = bundle.indexOf('\n];', open);
  if (start < 0 || open < 0 || close < 0) throw new SkryaError('CORPUS_UNAVAILABLE', `promptfoo ${PROMPTFOO_PACKAGE.version}: no '${DATA_REGION}' array in its bundle; the pin in domain/screening/real-text/sources.ts must name a version whose dist ships it`);
  // Every entry is a double-quoted literal whose escapes JSON shares; only the trailing comma is not JSON.
  const prompts = JSON.parse(`${bundle.slice(open, close).replace(/,\s*$/, '')}]`) as unknown;
  if (!Array.isArray(prompts) || !prompts.every((prompt) => typeof prompt === 'string')) throw new SkryaError('CORPUS_UNAVAILABLE', `promptfoo ${PROMPTFOO_PACKAGE.version}: its prompt-injection data is not a list of strings`);
  return [...new Set(prompts.map((prompt) => prompt.trim()))];
}

function shingles(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const result = new Set<string>();
  for (let at = 0; at + SHINGLE_WORDS <= Math.max(words.length, SHINGLE_WORDS); at++) result.add(words.slice(at, at + SHINGLE_WORDS).join(' '));
  return result;
}

/**
 * Families of near-variant prompts, as lists of prompt indices (each ascending, families by their
 * first prompt): two prompts are joined when their shared word 3-shingles are at least half of the
 * smaller prompt's, and joins are transitive (union-find).
 */
export function promptFamilies(prompts: readonly string[]): number[][] {
  const sets = prompts.map(shingles);
  const parent = prompts.map((_prompt, index) => index);
  const root = (index: number): number => {
    let at = index;
    while (parent[at] !== at) at = parent[at] = parent[parent[at]!]!;
    return at;
  };
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      const [small, large] = sets[a]!.size <= sets[b]!.size ? [sets[a]!, sets[b]!] : [sets[b]!, sets[a]!];
      let shared = 0;
      for (const shingle of small) if (large.has(shingle)) shared++;
      if (shared >= FAMILY_CONTAINMENT * small.size) parent[Math.max(root(a), root(b))] = Math.min(root(a), root(b));
    }
  }
  const families = new Map<number, number[]>();
  prompts.forEach((_prompt, index) => families.set(root(index), [...(families.get(root(index)) ?? []), index]));
  return [...families.values()];
}

/**
 * The split of each family (by its first prompt's index): families in the order of a seeded hash
 * of their first prompt's text, the first half of the prompts train, the next quarter validation,
 * the rest test. Counting prompts, not families, keeps the shares near 50 / 25 / 25 % although one
 * family holds 18 DAN versions.
 */
export function familySplits(prompts: readonly string[], families: readonly number[][]): Map<number, Split> {
  const order = [...families].sort((a, b) => fnv1a(prompts[a[0]!]!, SPLIT_SEED) - fnv1a(prompts[b[0]!]!, SPLIT_SEED) || a[0]! - b[0]!);
  const splits = new Map<number, Split>();
  let seen = 0;
  for (const members of order) {
    const share = seen / prompts.length;
    splits.set(members[0]!, share < 0.5 ? 'train' : share < 0.75 ? 'validation' : 'test');
    seen += members.length;
  }
  return splits;
}

function bundledData(root: string): string {
  const folder = join(root, 'package', 'dist', 'src');
  for (const file of readdirSync(folder).filter((name) => /^strategies-.*\.js$/.test(name)).sort()) {
    const text = readFileSync(join(folder, file), 'utf8');
    if (text.includes(DATA_REGION)) return text;
  }
  throw new SkryaError('CORPUS_UNAVAILABLE', `promptfoo ${PROMPTFOO_PACKAGE.version}: no dist/src/strategies-*.js holds its prompt-injection data`);
}

/** `block` set into `host` at a line boundary of the position, with its span. */
export function placeInPage(host: GeneratedItem, block: string, position: (typeof POSITIONS)[number]): { content: string; span: [number, number] } {
  const lines = host.content.split('\n');
  const at = position === 'start' ? 0 : position === 'end' ? lines.length : Math.floor(lines.length / 2);
  const before = lines.slice(0, at).join('\n');
  const content = [before, block, ...lines.slice(at)].filter((part) => part !== '').join('\n');
  const start = before === '' ? 0 : before.length + 1;
  return { content, span: [start, start + block.length] };
}

/**
 * Each prompt as-is and inside a benign page of its family's split (`hosts`: the generated
 * corpus), as items of the generated corpus's shape; train and validation prompts also in
 * MAX_EXTRA_PAGES further pages (`in-page-1` …) for training.
 */
export function outsideInjectionItems(prompts: readonly string[], hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const carrierSplits = carrierFamilySplits();
  const families = promptFamilies(prompts);
  const splits = familySplits(prompts, families);
  return families.flatMap((members) => {
    const split = splits.get(members[0]!)!;
    const family = `promptfoo-family-${members[0]}`;
    const pages = hosts.filter((item) => item.split === split && item.label === 'benign' && item.difficulty === 'easy' && item.lang === 'en');
    const carriers = CARRIERS.filter((carrier) => PAGE_CARRIER_TECHNIQUES.has(carrier.technique) && carrierSplits[split].includes(carrier.id));
    return members.flatMap((index) => {
      const prompt = prompts[index]!;
      const id = `promptfoo-injection-${index}`;
      const base = { lang: 'en' as const, label: 'injection' as const, kind: OUTSIDE_INJECTION_KIND, difficulty: 'easy' as const, split, family, titleIsPayload: false };
      const items: GeneratedItem[] = [{ ...base, id: `${id}/as-is`, title: '', content: prompt, url: `npm:promptfoo@${PROMPTFOO_PACKAGE.version}#${index}`, carrier: 'as-is', spans: [[0, prompt.length]] }];
      if (pages.length === 0) return items;
      const page = (carrier: string, host: GeneratedItem, block: string, position: (typeof POSITIONS)[number]): GeneratedItem => {
        const { content, span } = placeInPage(host, block, position);
        return { ...base, id: `${id}/${carrier}`, title: host.title, content, url: host.url, carrier, spans: [span] };
      };
      items.push(page('in-page', pages[fnv1a(id) % pages.length]!, prompt, 'middle'));
      if (split === 'test') return items;
      const random = createRandom(fnv1a(id, SPLIT_SEED));
      for (let extra = 1; extra <= MAX_EXTRA_PAGES; extra++) {
        const carrier = extra % 2 === 0 && carriers.length > 0 ? carriers[Math.floor(random() * carriers.length)]! : null;
        const host = pages[Math.floor(random() * pages.length)]!;
        items.push(page(`in-page-${extra}`, host, carrier === null ? prompt : carrier.wrap(random, prompt, 'en'), POSITIONS[extra % POSITIONS.length]!));
      }
      return items;
    });
  });
}

/** Whether an item is one of the outside injections, and which of its training pages (0 for the as-is and middle-of-page items the eval reads). */
export function outsideExtraPage(item: Pick<GeneratedItem, 'kind' | 'carrier'>): number | null {
  if (item.kind !== OUTSIDE_INJECTION_KIND) return null;
  return Number(/^in-page-(\d+)$/.exec(item.carrier)?.[1] ?? 0);
}

/** The outside injections (all splits), fetched into the cache first when missing. */
export function outsideInjectionCorpus(hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const root = ensureNpmPackage(PROMPTFOO_PACKAGE.package, PROMPTFOO_PACKAGE.version, PROMPTFOO_PACKAGE.integrity);
  return outsideInjectionItems(promptfooInjections(bundledData(root)), hosts);
}
