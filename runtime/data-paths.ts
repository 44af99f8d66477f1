/**
 * The data tree (BLUEPRINT §3), one tree per tenant. Every path is built from validated ids
 * and checked to stay inside the data root.
 */
import fs from 'node:fs';
import { isTenantId, isTopicId, resolveInside, type ReplayId, type TenantId, type TopicId, type TopicRef } from './ids.ts';

/** The run every reader trusts: the sink replaces it only with a good run (issue 18). */
export const LATEST_FILE = 'latest-ingest.json';

export function topicDir(root: string, tenant: TenantId, topicId: TopicId): string {
  return resolveInside(root, tenant, 'topics', topicId);
}

export function sourcesFile(root: string, tenant: TenantId, topicId: TopicId): string {
  return resolveInside(topicDir(root, tenant, topicId), 'sources.json');
}

export function ingestDir(root: string, tenant: TenantId, topicId: TopicId): string {
  return resolveInside(root, tenant, 'runs', topicId, 'ingest');
}

/** The same folder as a storage key below the data root (runtime/sink-store.ts), for the sink's store. */
export function ingestKey(tenant: TenantId, topicId: TopicId): string {
  return [tenant, 'runs', topicId, 'ingest'].join('/');
}

export function replaysDir(root: string, tenant: TenantId, topicId: TopicId): string {
  return resolveInside(root, tenant, 'runs', topicId, 'replays');
}

export function replayDir(root: string, tenant: TenantId, topicId: TopicId, replayId: ReplayId): string {
  return resolveInside(replaysDir(root, tenant, topicId), replayId);
}

/** Subfolders whose names are valid ids; anything else in the tree is not Skrya's and is skipped. */
function idSubdirectories<Id extends string>(dir: string, isId: (name: string) => name is Id): Id[] {
  try {
    return fs.readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .filter(isId)
      .sort();
  } catch {
    return [];
  }
}

/** Every tenant folder of the data tree. */
export function listTenants(root: string): TenantId[] {
  return idSubdirectories(root, isTenantId);
}

/** Every <tenant>/<topic> that has a topics/<topic> folder; names that are not valid ids are ignored. */
export function listTopics(root: string): TopicRef[] {
  return listTenants(root).flatMap((tenant) =>
    idSubdirectories(resolveInside(root, tenant, 'topics'), isTopicId).map((topicId) => ({ tenant, topicId })),
  );
}
