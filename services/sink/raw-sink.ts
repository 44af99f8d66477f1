/**
 * sink, raw debug files: raw-results → <data-root>/<tenant>/runs/<topic>/ingest/raw/
 * <run timestamp>-<provider>-<sequence>.txt, one per provider response, verbatim after a short
 * header. For debugging and tracing only; agents read the normalized files.
 */
import { ingestKey } from '../../runtime/data-paths.ts';
import type { Handler } from '../../runtime/handler.ts';
import { storeKey, type SinkStore } from '../../runtime/sink-store.ts';
import type { RawResult } from '../../schemas/messages.ts';
import { compactTimestamp, safeToken } from './file-names.ts';

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

/** Raw files are written unconditionally: a response's file has the same bytes on every delivery. */
export function createRawSink(options: { store: SinkStore }): Handler<'raw-results'> {
  return {
    input: 'raw-results',
    async handle({ value }) {
      if (value.kind !== 'RESPONSE') return [];
      await options.store.write(storeKey(ingestKey(value.tenant, value.topic_id), 'raw', rawFileName(value)), renderRawFile(value));
      await options.store.flush();
      return [];
    },
  };
}
