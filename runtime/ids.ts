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

function invalidId(kind: IdKind, value: string, rule: string): SkryaError {
  return new SkryaError('INVALID_ID', `${kind} id ${JSON.stringify(value)} is invalid: ${rule}`, { details: { kind, value } });
}

/** For names found in the data tree or in headers, where an invalid one is skipped rather than an error. */
export function isTenantId(value: string): value is TenantId {
  return ID_PATTERN.test(value);
}

export function isTopicId(value: string): value is TopicId {
  return ID_PATTERN.test(value);
}

export function isReplayId(value: string): value is ReplayId {
  return ID_PATTERN.test(value);
}

export function parseTenantId(value: string): TenantId {
  if (!ID_PATTERN.test(value)) throw invalidId('tenant', value, ID_RULE);
  return value as TenantId;
}

export function parseTopicId(value: string): TopicId {
  if (!ID_PATTERN.test(value)) throw invalidId('topic', value, ID_RULE);
  return value as TopicId;
}

export function parseRunId(value: string): RunId {
  if (!RUN_ID_PATTERN.test(value)) throw invalidId('run', value, RUN_ID_RULE);
  return value as RunId;
}

export function parseReplayId(value: string): ReplayId {
  if (!ID_PATTERN.test(value)) throw invalidId('replay', value, ID_RULE);
  return value as ReplayId;
}

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
