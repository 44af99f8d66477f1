/** An item's identity: what changed-item detection, dedupe and the files compare across runs. */
import { hash } from 'node:crypto';

/** The one-shot hash: no Hash object per call (two hashes per item). */
function sha256(text: string): string {
  return hash('sha256', text, 'hex');
}

/** Stable across runs for the same text: what changed-item detection and dedupe compare. */
export function contentHash(title: string, body: string | null): string {
  return sha256(`${title.normalize('NFKC').trim()}\u0000${(body ?? '').normalize('NFKC').trim()}`).slice(0, 32);
}

/**
 * Deterministic item id: tenant, topic, canonical URL and content hash. Not the run id: the same
 * evidence keeps its id from run to run, so identical evidence gives identical files and an agent
 * can follow an item across runs. Within a run, copies with one URL and text share an id and merge.
 */
export function itemId(parts: { tenant: string; topicId: string; canonicalUrl: string | null; contentHash: string; position: number }): string {
  const identity = parts.canonicalUrl ?? `position:${parts.position}`;
  return `it-${sha256(`${parts.tenant}/${parts.topicId}/${identity}/${parts.contentHash}`).slice(0, 20)}`;
}
