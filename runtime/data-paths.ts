/**
 * The data tree (BLUEPRINT §3), one tree per tenant. Every path is built from validated ids
 * and checked to stay inside the data root.
 */
import fs from 'node:fs';
import { ID_PATTERN, assertId, resolveInside } from './ids.ts';

/** The run every reader trusts: the sink replaces it only with a good run (issue 18). */
export const LATEST_FILE = 'latest-ingest.json';

export function topicDir(root: string, tenant: string, topicId: string): string {
  return resolveInside(root, assertId('tenant', tenant), 'topics', assertId('topic', topicId));
}

export function sourcesFile(root: string, tenant: string, topicId: string): string {
  return resolveInside(topicDir(root, tenant, topicId), 'sources.json');
}

export function ingestDir(root: string, tenant: string, topicId: string): string {
  return resolveInside(root, assertId('tenant', tenant), 'runs', assertId('topic', topicId), 'ingest');
}

/** The same folder as a storage key below the data root (runtime/sink-store.ts), for the sink's store. */
export function ingestKey(tenant: string, topicId: string): string {
  return [assertId('tenant', tenant), 'runs', assertId('topic', topicId), 'ingest'].join('/');
}

export function replaysDir(root: string, tenant: string, topicId: string): string {
  return resolveInside(root, assertId('tenant', tenant), 'runs', assertId('topic', topicId), 'replays');
}

export function replayDir(root: string, tenant: string, topicId: string, replayId: string): string {
  return resolveInside(replaysDir(root, tenant, topicId), assertId('replay', replayId));
}

function validSubdirectories(dir: string): string[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && ID_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

/** Every <tenant>/<topic> that has a topics/<topic> folder; names that are not valid ids are ignored. */
export function listTopics(root: string): Array<{ tenant: string; topicId: string }> {
  return validSubdirectories(root).flatMap((tenant) =>
    validSubdirectories(resolveInside(root, tenant, 'topics')).map((topicId) => ({ tenant, topicId })),
  );
}
