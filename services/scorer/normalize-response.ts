/**
 * A provider response → provider-style results, with the same pure parser the provider's skill
 * defines (so a replay re-normalizes raw results with the current code, without re-fetching).
 * Output of tools bound at run time (producer kind runtime-skill) goes through the generic
 * third-party normalizer.
 */
import fs from 'node:fs';
import { SkryaError, describeError } from '../../runtime/errors.ts';
import type { ProviderResult } from '../../schemas/ingest.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { builtinSkills } from '../../domain/skills/builtin-skills.ts';
import type { RawResponse } from '../../domain/skills/types.ts';
import { normalizeThirdPartyOutput } from '../../domain/skills/third-party-output.ts';

export type ResponseParser = (raw: RawResponse) => ProviderResult[];

/** Parsers by skill name (the name in each skill's declaration), read once at start-up. */
export function builtinParsers(): Map<string, ResponseParser> {
  const parsers = new Map<string, ResponseParser>();
  for (const skill of builtinSkills()) {
    const { name } = JSON.parse(fs.readFileSync(skill.declarationUrl, 'utf8')) as { name: string };
    parsers.set(name, skill.parseResponse);
  }
  return parsers;
}

export function normalizeResponse(message: Extract<RawResult, { kind: 'RESPONSE' }>, parsers: ReadonlyMap<string, ResponseParser>): ProviderResult[] {
  const { response, producer } = message;
  const raw: RawResponse = {
    skill: producer.name,
    body: response.payload,
    contentType: response.content_type,
    httpStatus: response.http_status,
    url: response.url,
    fetchedAt: response.fetched_at,
  };
  if (producer.kind === 'runtime-skill') return normalizeThirdPartyOutput(raw);
  const parse = parsers.get(producer.name);
  if (!parse) throw new SkryaError('NORMALIZE_FAILED', `no parser for provider ${JSON.stringify(producer.name)}`);
  try {
    return parse(raw);
  } catch (error) {
    throw new SkryaError('NORMALIZE_FAILED', `${producer.name} response could not be normalized: ${describeError(error)}`, { cause: error });
  }
}
