/**
 * `skrya sources migrate`: rewrites a sources.json written for the original Skrya tool into the
 * capability form (spec 000). An original `"type": "rss"` source with its feed `url` and
 * `"adapter": "rss"` becomes a runtime-retrieval source with the rss_feed capability and the URL
 * in `feeds`; everything else (a source's own recency_hours, unknown fields, other sources) is
 * kept as written. Pure: text in, text and the list of changes out.
 */
import { SkryaError } from '../../runtime/errors.ts';

export interface Migration {
  text: string;
  /** One line per rewritten source; empty when the file was already in the capability form. */
  changes: string[];
}

type Json = Record<string, unknown>;

const DROPPED = new Set(['type', 'adapter', 'url', 'feed_url', 'feeds']);

function migrateSource(source: Json): { source: Json; change: string } | null {
  if (source.type !== 'rss') return null;
  const feeds = [...new Set([
    ...(Array.isArray(source.feeds) ? source.feeds : []),
    source.feed_url,
    source.url,
  ].filter((feed): feed is string => typeof feed === 'string' && feed.length > 0))];
  const migrated: Json = {};
  // Keep the familiar fields first, in the order spec 000 writes them.
  if (source.id !== undefined) migrated.id = source.id;
  if (source.name !== undefined) migrated.name = source.name;
  migrated.type = 'runtime-retrieval';
  migrated.enabled = source.enabled ?? true;
  migrated.capabilities = ['rss_feed'];
  migrated.binding = 'runtime';
  migrated.feeds = feeds;
  for (const [key, value] of Object.entries(source)) {
    if (!DROPPED.has(key) && !(key in migrated)) migrated[key] = value;
  }
  return { source: migrated, change: `sources: "${String(source.id)}": "type": "rss" → "runtime-retrieval" with capabilities ["rss_feed"] and feeds ${JSON.stringify(feeds)}` };
}

export function migrateSourcesText(text: string): Migration {
  let raw: unknown;
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new SkryaError('INVALID_INPUT', `not JSON, so not migrated: ${(error as Error).message}; \`skrya sources lint\` shows where`);
  }
  if (typeof raw !== 'object' || raw === null || !Array.isArray((raw as Json).sources)) {
    throw new SkryaError('INVALID_INPUT', 'not a sources.json: it has no "sources" list');
  }
  const changes: string[] = [];
  const sources = ((raw as Json).sources as unknown[]).map((source) => {
    if (typeof source !== 'object' || source === null) return source;
    const migrated = migrateSource(source as Json);
    if (!migrated) return source;
    changes.push(migrated.change);
    return migrated.source;
  });
  if (changes.length === 0) return { text, changes };
  return { text: `${JSON.stringify({ ...(raw as Json), sources }, null, 2)}\n`, changes };
}

/**
 * A unified diff of two texts, whole-file, line by line (longest common subsequence): enough for
 * a sources.json, which is small.
 */
export function unifiedDiff(before: string, after: string, name: string): string {
  const a = before.replace(/\n$/, '').split('\n');
  const b = after.replace(/\n$/, '').split('\n');
  const lengths: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      const row = lengths[i] as number[];
      row[j] = a[i] === b[j] ? (lengths[i + 1]?.[j + 1] ?? 0) + 1 : Math.max(lengths[i + 1]?.[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const lines = [`--- ${name}`, `+++ ${name} (migrated)`, `@@ -1,${a.length} +1,${b.length} @@`];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push(` ${a[i]}`);
      i += 1;
      j += 1;
    } else if (i < a.length && (j >= b.length || (lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0))) {
      lines.push(`-${a[i]}`);
      i += 1;
    } else {
      lines.push(`+${b[j]}`);
      j += 1;
    }
  }
  return `${lines.join('\n')}\n`;
}
