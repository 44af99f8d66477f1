import { describe, expect, it } from 'vitest';
import { isSkryaError } from '../../../runtime/errors.ts';
import { buildFallbackChain, nextFallback } from './fallback-chain.ts';
import { DEFAULT_PROVIDERS, type SearchProvider, type SourceType } from './route-input.ts';
import type { FallbackTrigger } from './route-plan.ts';

const ALL_SOURCES: SourceType[] = ['web', 'local_file', 'vector', 'graph', 'counter'];

describe('buildFallbackChain (rule 6)', () => {
  it('with the default providers has spec 004 shape: five levels, its triggers, each falling to the next', () => {
    expect(buildFallbackChain({ providers: DEFAULT_PROVIDERS, webSelected: true, available: ALL_SOURCES })).toEqual([
      { level: 1, source: 'tavily', trigger_fallback: 'quota_exhausted | timeout_30s | empty_results', fallback_to: 2 },
      { level: 2, source: 'bailian', trigger_fallback: 'api_error | timeout_30s', fallback_to: 3 },
      { level: 3, source: 'brave', trigger_fallback: 'empty_results | gfw_blocked', fallback_to: 4 },
      { level: 4, source: 'document_fetch', trigger_fallback: null, fallback_to: 5 },
      { level: 5, source: 'local_cache', trigger_fallback: null, fallback_to: null },
    ]);
  });

  it.each([
    ['unavailable providers are left out and levels renumbered', ['brave', 'document_fetch', 'local_cache'], ALL_SOURCES, true, ['brave', 'document_fetch', 'local_cache']],
    ['exa sits on bailian’s rung, before brave', ['tavily', 'brave', 'exa', 'document_fetch', 'local_cache'], ALL_SOURCES, true, ['tavily', 'exa', 'brave', 'document_fetch', 'local_cache']],
    ['local_cache needs local_file among the available sources', [...DEFAULT_PROVIDERS], ['web', 'counter'], true, ['tavily', 'bailian', 'brave', 'document_fetch']],
    ['no web in the plan: nothing to fall back from', [...DEFAULT_PROVIDERS], ALL_SOURCES, false, []],
    ['a single provider ends the chain at once', ['tavily'], ALL_SOURCES, true, ['tavily']],
  ] as Array<[string, SearchProvider[], SourceType[], boolean, SearchProvider[]]>)('%s', (_name, providers, available, webSelected, expected) => {
    const chain = buildFallbackChain({ providers, webSelected, available });
    expect(chain.map((step) => step.source)).toEqual(expected);
    expect(chain.map((step) => step.level)).toEqual(expected.map((_, index) => index + 1));
    expect(chain.map((step) => step.fallback_to)).toEqual(expected.map((_, index) => (index + 1 < expected.length ? index + 2 : null)));
  });
});

describe('nextFallback', () => {
  const plan = { fallback_chain: buildFallbackChain({ providers: DEFAULT_PROVIDERS, webSelected: true, available: ALL_SOURCES }) };

  it.each([
    ['tavily quota exhausted', 'tavily', 'quota_exhausted', 'bailian'],
    ['tavily timeout', 'tavily', 'timeout_30s', 'bailian'],
    ['tavily empty', 'tavily', 'empty_results', 'bailian'],
    ['tavily api error is not one of its triggers', 'tavily', 'api_error', null],
    ['bailian api error', 'bailian', 'api_error', 'brave'],
    ['bailian empty results is not one of its triggers', 'bailian', 'empty_results', null],
    ['brave blocked', 'brave', 'gfw_blocked', 'document_fetch'],
    ['brave timeout is not one of its triggers', 'brave', 'timeout_30s', null],
    ['direct fetch: any failure moves on', 'document_fetch', 'api_error', 'local_cache'],
    ['local cache is the end', 'local_cache', 'empty_results', null],
  ] as Array<[string, SearchProvider, FallbackTrigger, SearchProvider | null]>)('%s', (_name, current, trigger, expected) => {
    expect(nextFallback(plan, current, trigger)).toBe(expected);
  });

  it('follows renumbered levels when rungs are missing', () => {
    const partial = { fallback_chain: buildFallbackChain({ providers: ['tavily', 'document_fetch'], webSelected: true, available: ['web'] }) };
    expect(nextFallback(partial, 'tavily', 'timeout_30s')).toBe('document_fetch');
    expect(nextFallback(partial, 'document_fetch', 'timeout_30s')).toBeNull();
  });

  it('rejects a provider that is not in the chain', () => {
    const partial = { fallback_chain: buildFallbackChain({ providers: ['brave'], webSelected: true, available: ['web'] }) };
    let code: string | undefined;
    try {
      nextFallback(partial, 'tavily', 'timeout_30s');
    } catch (error) {
      if (isSkryaError(error)) code = error.code;
    }
    expect(code).toBe('INVALID_INPUT');
  });
});
