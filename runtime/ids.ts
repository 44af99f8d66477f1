import path from 'node:path';
import { SkryaError } from './errors.ts';

/** Tenant and topic ids: they become path segments and Kafka keys, so nothing else is allowed. */
export const ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;

export function assertId(kind: 'tenant' | 'topic' | 'replay' | 'run', value: string): string {
  if (!ID_PATTERN.test(value)) {
    throw new SkryaError('INVALID_ID', `${kind} id ${JSON.stringify(value)} is invalid: use 1-63 lowercase letters, digits or '-', starting with a letter or digit`, {
      details: { kind, value },
    });
  }
  return value;
}

/**
 * Joins validated segments under a root and proves the result stays inside it,
 * so no id, however it was produced, can reach another tenant's tree.
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
  tenant: string;
  topicId: string;
}

/** Kafka message key: every message of one tenant's topic lands in one partition, in order. */
export function topicKey(ref: TopicRef): string {
  return `${assertId('tenant', ref.tenant)}/${assertId('topic', ref.topicId)}`;
}

export function parseTopicKey(key: string): TopicRef {
  const [tenant = '', topicId = '', ...rest] = key.split('/');
  if (rest.length > 0) throw new SkryaError('INVALID_ID', `message key ${JSON.stringify(key)} is not <tenant>/<topic-id>`);
  return { tenant: assertId('tenant', tenant), topicId: assertId('topic', topicId) };
}
