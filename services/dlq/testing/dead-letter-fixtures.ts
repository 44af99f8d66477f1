/** Stored dead letters for the dlq unit tests. */
import type { StoredDeadLetter } from '../../../runtime/dead-letters.ts';
import type { DeadLetter } from '../../../schemas/messages.ts';
import { parseTenantId } from '../../../runtime/ids.ts';

export function storedLetter(offset: number, overrides: Partial<DeadLetter> = {}, fingerprint = `fp-${offset}`): StoredDeadLetter {
  return {
    partition: 0,
    offset: String(offset),
    timestamp: String(Date.UTC(2026, 10, 30, 12)),
    fingerprint,
    letter: {
      source_topic: 'raw-results',
      source_partition: 2,
      source_offset: String(40 + offset),
      original_key: Buffer.from('acme/ai-browser'),
      original_value: Buffer.from([0x00, 0x00, 0x00, 0x00, 0x07, 0x68, 0x69]),
      original_headers_json: '{"skrya-tenant":"acme","skrya-trace-id":"t-1"}',
      stage: 'scorer',
      reason_code: 'SCHEMA_INVALID',
      error_message: 'raw-results message breaks its contract: response.url: required',
      failed_at: '2026-11-30T12:00:00.000Z',
      tenant: parseTenantId('acme'),
      ...overrides,
    },
  };
}
