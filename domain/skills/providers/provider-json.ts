import type { z } from 'zod';
import { SkryaError, describeError } from '../../../runtime/errors.ts';
import type { RawResponse } from '../types.ts';

/** A provider's JSON body checked against its documented format; anything else is BAD_RESPONSE. */
export function parseProviderJson<S extends z.ZodType>(raw: RawResponse, schema: S): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(raw.body);
  } catch (error) {
    throw new SkryaError('BAD_RESPONSE', `${raw.skill}: response is not JSON (${describeError(error)})`, { details: { reason: 'malformed', url: raw.url } });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SkryaError('BAD_RESPONSE', `${raw.skill}: response does not have the documented shape (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`, {
      details: { reason: 'shape', url: raw.url },
    });
  }
  return parsed.data;
}
