import { describe, expect, it } from 'vitest';
import type { IngestBatch, ProviderStatus } from '../../schemas/messages.ts';
import { ingestBatchFixture } from '../../test/fixtures/messages.ts';
import { runStatusOf } from './run-status.ts';

const source = (provider: string, status: ProviderStatus['status'], code: string | null = null, message: string | null = null): ProviderStatus => ({ provider, capability: 'web_search', status, code, message, calls: 1, results: status === 'ok' ? 3 : 0 });
const tenant = (code: string, message: string): ProviderStatus => ({ provider: 'tenant', capability: '*', status: 'skipped', code, message, calls: 0, results: 0 });

function batch(providerStatus: ProviderStatus[], overrides: { kept?: number; cut?: number; complete?: boolean; rawResponses?: number } = {}): IngestBatch {
  const base = ingestBatchFixture();
  const item = base.items[0]!;
  return {
    ...base,
    items: Array.from({ length: overrides.kept ?? 1 }, () => item),
    cut: Array.from({ length: overrides.cut ?? 0 }, () => ({ id: item.id, title: item.title, url: item.url, canonical_url: item.canonical_url, content_hash: item.content_hash })),
    stats: {
      ...base.stats,
      counts: { ...base.stats.counts, raw_responses: overrides.rawResponses ?? 1 },
      complete: overrides.complete ?? true,
      incomplete_reason: overrides.complete === false ? 'no run-end marker within 60 s' : null,
      provider_status: providerStatus,
    },
  };
}

describe('runStatusOf', () => {
  it.each([
    ['sources answered and items were kept', batch([source('brave', 'ok')]), 'ok', true, '1 source(s) answered'],
    ['one source failed, another answered', batch([source('brave', 'ok'), source('exa', 'error', 'RATE_LIMITED')]), 'ok', true, '1 failed: exa (web_search) error — RATE_LIMITED'],
    ['only cut items (max_items 0)', batch([source('brave', 'ok')], { kept: 0, cut: 2 }), 'ok', true, 'answered'],
    ['sources answered with nothing in the window', batch([source('brave', 'ok'), source('feed', 'ok')], { kept: 0 }), 'empty', true, '2 source(s) answered and found nothing in the window'],
    ['every source failed', batch([source('brave', 'error', 'AUTH_FAILED', 'HTTP 401'), source('exa', 'not_connected')], { kept: 0 }), 'failed', false, 'every source failed: brave (web_search) error — AUTH_FAILED: HTTP 401; exa (web_search) not_connected'],
    ['the tenant quota stopped the run', batch([tenant('TENANT_QUOTA_EXCEEDED', 'quota exceeded: 5 requests today, limit 5')], { kept: 0, rawResponses: 0 }), 'failed', false, 'no source was called: tenant skipped — TENANT_QUOTA_EXCEEDED: quota exceeded'],
    ['no provider status and no response', batch([], { kept: 0, rawResponses: 0 }), 'failed', false, 'no source answered'],
    ['closed without its marker', batch([source('brave', 'ok')], { complete: false }), 'incomplete', false, 'the run did not finish: no run-end marker within 60 s'],
  ])('%s', (_case, input, status, good, reason) => {
    const outcome = runStatusOf(input);
    expect(outcome).toMatchObject({ status, good });
    expect(outcome.reason).toContain(reason);
  });
});
