/**
 * Injections written by other people, as a test set only (never trained or tuned on): the jailbreak
 * prompts promptfoo (MIT) ships as data for its red-team `prompt-injection` strategy
 * (src/redteam/strategies/promptInjections/data.ts, bundled into dist/src/strategies-*.js of the
 * pinned tarball, sources.ts PROMPTFOO_PACKAGE). They are collected chat jailbreaks (DAN,
 * "Developer Mode", role-play personas), addressed to a chat model, not to an agent reading a page.
 *
 * Each prompt is screened two ways, both labelled injection:
 * - `as-is`: the prompt alone as an item's content (untitled), the way a pasted message arrives;
 * - `in-page`: the prompt set into the middle of a benign page of the generated corpus's test
 *   split (families never trained or tuned on), the way a retrieved page would carry it.
 * One prompt is one family; exact duplicates are dropped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SkryaError } from '../../../runtime/errors.ts';
import { fnv1a } from '../../learned/random.ts';
import type { GeneratedItem } from '../corpus/generate-corpus.ts';
import { ensureNpmPackage } from './fetch-packages.ts';
import { PROMPTFOO_PACKAGE } from './sources.ts';

const DATA_REGION = '//#region src/redteam/strategies/promptInjections/data.ts';

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

function bundledData(root: string): string {
  const folder = join(root, 'package', 'dist', 'src');
  for (const file of readdirSync(folder).filter((name) => /^strategies-.*\.js$/.test(name)).sort()) {
    const text = readFileSync(join(folder, file), 'utf8');
    if (text.includes(DATA_REGION)) return text;
  }
  throw new SkryaError('CORPUS_UNAVAILABLE', `promptfoo ${PROMPTFOO_PACKAGE.version}: no dist/src/strategies-*.js holds its prompt-injection data`);
}

/** Each prompt as-is and inside a benign test-split page (`hosts`), as items of the generated corpus's shape. */
export function outsideInjectionItems(prompts: readonly string[], hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const pages = hosts.filter((item) => item.split === 'test' && item.label === 'benign' && item.difficulty === 'easy' && item.lang === 'en');
  return prompts.flatMap((prompt, index) => {
    const family = `promptfoo-injection-${index}`;
    const base = { lang: 'en' as const, label: 'injection' as const, kind: 'promptfoo_jailbreak', difficulty: 'easy' as const, split: 'test' as const, family, titleIsPayload: false };
    const items: GeneratedItem[] = [{ ...base, id: `${family}/as-is`, title: '', content: prompt, url: `npm:promptfoo@${PROMPTFOO_PACKAGE.version}#${index}`, carrier: 'as-is', spans: [[0, prompt.length]] }];
    const host = pages[fnv1a(family) % Math.max(1, pages.length)];
    if (host !== undefined) {
      const lines = host.content.split('\n');
      const at = Math.floor(lines.length / 2);
      const before = lines.slice(0, at).join('\n');
      const content = [before, prompt, ...lines.slice(at)].filter((part) => part !== '').join('\n');
      const start = before === '' ? 0 : before.length + 1;
      items.push({ ...base, id: `${family}/in-page`, title: host.title, content, url: host.url, carrier: 'in-page', spans: [[start, start + prompt.length]] });
    }
    return items;
  });
}

/** The outside injection test set, fetched into the cache first when missing. */
export function outsideInjectionCorpus(hosts: readonly GeneratedItem[]): GeneratedItem[] {
  const root = ensureNpmPackage(PROMPTFOO_PACKAGE.package, PROMPTFOO_PACKAGE.version, PROMPTFOO_PACKAGE.integrity);
  return outsideInjectionItems(promptfooInjections(bundledData(root)), hosts);
}
