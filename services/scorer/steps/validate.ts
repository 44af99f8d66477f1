/**
 * Step 2, validate: spec 000's rules on a candidate (validateItem: repairs, downweights or drops it,
 * every decision with a reason code), then the item's identity (canonical URL, content hash, id)
 * from the validated fields, so a repaired item keeps the id of its clean copies.
 */
import type { Reason } from '../../../schemas/messages.ts';
import { canonicalUrl } from '../../../domain/urls/canonical-url.ts';
import { contentHash, itemId } from '../item-identity.ts';
import { validateItem, type ValidationResult } from '../../../domain/validation/validate-item.ts';
import type { Candidate, ResponseMessage } from './normalize.ts';

export interface Validated extends Candidate {
  validation: ValidationResult;
  /** The validator's reasons the item will carry. */
  reasons: Reason[];
  id: string;
  url: string | null;
  canonicalUrl: string | null;
  contentHash: string;
  /** The text that is screened and, unless quarantined, delivered. */
  text: { title: string; content: string | null; summary: string | null };
}

export function createValidateStep(): (message: ResponseMessage, candidate: Candidate) => Validated {
  return (message, candidate) => {
    const { request, response, producer } = message;
    const { result, fields } = candidate;
    const validation = validateItem(fields, { producerName: producer.name, fetchedAt: response.fetched_at, now: new Date(request.window_until) });
    const valid = validation.item;
    const title = valid?.title ?? result.title;
    const body = valid ? (valid.content ?? valid.summary) : (result.content ?? result.snippet);
    const url = valid ? valid.url : fields.url;
    const canonical = url ? canonicalUrl(url) : null;
    const hash = contentHash(title, body);
    return {
      ...candidate,
      validation,
      reasons: validation.reasons.map(({ code, field, message: text }) => ({ code, field, message: text })),
      id: itemId({ tenant: message.tenant, topicId: message.topic_id, canonicalUrl: canonical, contentHash: hash, position: candidate.position }),
      url,
      canonicalUrl: canonical,
      contentHash: hash,
      text: { title, content: valid?.content ?? result.content, summary: valid?.summary ?? (result.snippet || null) },
    };
  };
}
