/**
 * Tenant, topic, run and replay ids. They become path segments, Kafka keys and object names, so
 * each is parsed once where it enters (CLI options, decoded messages, files, URLs) into a branded
 * type; code further in takes the brand and never re-checks a plain string.
 */
import path from 'node:path';
import { z } from 'zod';
import { SkryaError } from './errors.ts';

export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const RUN_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,80}$/;
const ID_RULE = "use 1-63 lowercase letters, digits or '-', starting with a letter or digit";
const RUN_ID_RULE = "use 1-81 lowercase letters, digits or '-', starting with a letter or digit";

export const tenantIdSchema = z.string().regex(ID_PATTERN, ID_RULE).brand<'TenantId'>();
export const topicIdSchema = z.string().regex(ID_PATTERN, ID_RULE).brand<'TopicId'>();
export const runIdSchema = z.string().regex(RUN_ID_PATTERN, RUN_ID_RULE).brand<'RunId'>();
export const replayIdSchema = z.string().regex(ID_PATTERN, ID_RULE).brand<'ReplayId'>();

export type TenantId = z.infer<typeof tenantIdSchema>;
export type TopicId = z.infer<typeof topicIdSchema>;
export type RunId = z.infer<typeof runIdSchema>;
export type ReplayId = z.infer<typeof replayIdSchema>;

type IdKind = 'tenant' | 'topic' | 'run' | 'replay';

/** A parser for one kind of id: the value, branded, or INVALID_ID naming the kind and the rule. */
function idParser<Id extends string>(kind: IdKind, pattern: RegExp, rule: string): (value: string) => Id {
  return (value) => {
    if (!pattern.test(value)) throw new SkryaError('INVALID_ID', `${kind} id ${JSON.stringify(value)} is invalid: ${rule}`, { details: { kind, value } });
    return value as Id;
  };
}

export const parseTenantId = idParser<TenantId>('tenant', ID_PATTERN, ID_RULE);
export const parseTopicId = idParser<TopicId>('topic', ID_PATTERN, ID_RULE);
export const parseRunId = idParser<RunId>('run', RUN_ID_PATTERN, RUN_ID_RULE);
export const parseReplayId = idParser<ReplayId>('replay', ID_PATTERN, ID_RULE);

/** For names found in the data tree, in headers or in URLs, where an invalid one is skipped or answered, not thrown. */
export const isTenantId = (value: string): value is TenantId => ID_PATTERN.test(value);
export const isTopicId = (value: string): value is TopicId => ID_PATTERN.test(value);
export const isReplayId = (value: string): value is ReplayId => ID_PATTERN.test(value);

/**
 * Joins segments under a root and proves the result stays inside it, so no segment, however it
 * was produced, can reach another tenant's tree.
 */
export function resolveInside(root: string, ...segments: string[]): string {
  const base = path.resolve(root);
  const target = path.resolve(base, ...segments);
  if (target !== base && !target.startsWith(base + path.sep)) {
    throw new SkryaError('INVALID_ID', `path ${target} escapes ${base}`, { details: { root: base, segments } });
  }
  return target;
}

export interface TopicRef {
  tenant: TenantId;
  topicId: TopicId;
}

/** Kafka message key: every message of one tenant's topic lands in one partition, in order. */
export function topicKey(ref: TopicRef): string {
  return `${ref.tenant}/${ref.topicId}`;
}

export function parseTopicKey(key: string): TopicRef {
  const [tenant = '', topicId = '', ...rest] = key.split('/');
  if (rest.length > 0) throw new SkryaError('INVALID_ID', `message key ${JSON.stringify(key)} is not <tenant>/<topic-id>`);
  return { tenant: parseTenantId(tenant), topicId: parseTopicId(topicId) };
}

/** The tenant a single-tenant install uses when no --tenant is given. */
export const DEFAULT_TENANT = parseTenantId('default');
