/**
 * sink, raw debug files: raw-results → <data-root>/<tenant>/runs/<topic>/ingest/raw/
 * <run timestamp>-<provider>-<sequence>.txt, one per provider response, verbatim after a short
 * header. For debugging and tracing only; agents read the normalized files.
 */
import { ingestDir } from '../../runtime/data-paths.ts';
import { type TenantId, type TopicId, resolveInside } from '../../runtime/ids.ts';
import type { Handler } from '../../runtime/handler.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { compactTimestamp, safeToken } from './file-names.ts';
import { writeFileAtomic } from './write-atomic.ts';

export function rawFileName(raw: Extract<RawResult, { kind: 'RESPONSE' }>): string {
  const sequence = String(raw.response.sequence).padStart(3, '0');
  return `${compactTimestamp(raw.request.requested_at)}-${safeToken(raw.producer.name)}-${sequence}.txt`;
}

export function renderRawFile(raw: Extract<RawResult, { kind: 'RESPONSE' }>): string {
  const { response } = raw;
  const header = [
    `run: ${raw.run_id}`,
    `producer: ${raw.producer.name} (${raw.producer.kind})`,
    `capability: ${response.capability}`,
    `sub_query: ${response.sub_query ?? '-'}`,
    `url: ${response.url ?? '-'}`,
    `http_status: ${response.http_status}`,
    `content_type: ${response.content_type}`,
    `fetched_at: ${response.fetched_at}`,
  ];
  return `${header.join('\n')}\n\n${response.payload}`;
}

export function createRawSink(options: { dataRoot: string; targetDir?: (tenant: TenantId, topicId: TopicId) => string }): Handler<'raw-results'> {
  const target = options.targetDir ?? ((tenant: TenantId, topicId: TopicId) => ingestDir(options.dataRoot, tenant, topicId));
  return {
    input: 'raw-results',
    handle({ value }) {
      if (value.kind !== 'RESPONSE') return [];
      writeFileAtomic(resolveInside(target(value.tenant, value.topic_id), 'raw', rawFileName(value)), renderRawFile(value));
      return [];
    },
  };
}
