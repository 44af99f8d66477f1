/** The headers every Skrya message carries, and reading Kafka's headers as plain strings. */
import { randomUUID } from 'node:crypto';
import type { IHeaders } from 'kafkajs';
import type { Serde } from './serde.ts';
import { valueSubject, type TopicName, type TopicNaming } from '../topics/topics.ts';

export const HEADERS = {
  tenant: 'skrya-tenant',
  topicId: 'skrya-topic-id',
  runId: 'skrya-run-id',
  traceId: 'skrya-trace-id',
  subject: 'skrya-schema-subject',
  schemaId: 'skrya-schema-id',
  stage: 'skrya-stage',
  reasonCode: 'skrya-reason-code',
} as const;

/** Kafka headers as strings; a repeated header keeps its first value. */
export function headersToRecord(headers: IHeaders | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) record[name] = Buffer.isBuffer(first) ? first.toString('utf8') : String(first);
  }
  return record;
}

function runFields(value: unknown): { tenant?: string; topicId?: string; runId?: string } {
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>;
  return {
    ...(typeof record.tenant === 'string' ? { tenant: record.tenant } : {}),
    ...(typeof record.topic_id === 'string' ? { topicId: record.topic_id } : {}),
    ...(typeof record.run_id === 'string' ? { runId: record.run_id } : {}),
  };
}

/** Headers on every message: tenant, topic id, run id, trace id, schema subject and id, producing stage. */
export function standardHeaders(options: { stage: string; naming: TopicNaming; serde: Serde; topic: TopicName; value: unknown; traceId?: string | undefined }): Record<string, string> {
  const fields = runFields(options.value);
  return {
    [HEADERS.traceId]: options.traceId ?? randomUUID(),
    [HEADERS.stage]: options.stage,
    [HEADERS.subject]: valueSubject(options.naming, options.topic),
    [HEADERS.schemaId]: String(options.serde.schemaId(options.topic)),
    ...(fields.tenant ? { [HEADERS.tenant]: fields.tenant } : {}),
    ...(fields.topicId ? { [HEADERS.topicId]: fields.topicId } : {}),
    ...(fields.runId ? { [HEADERS.runId]: fields.runId } : {}),
  };
}
