import { describe, expect, it } from 'vitest';
import { agreementOf } from './agreement.ts';

const source = (provider: string, url: string | null, id = `${provider}-${url}`) => ({ provider, url, id });

describe('agreementOf', () => {
  it.each([
    ['one source', [source('brave', 'https://a.com/x')], 1, 0],
    ['two providers, one URL', [source('brave', 'https://a.com/x'), source('exa', 'https://a.com/x?utm_source=y')], 2, 0.05],
    ['one provider, one host, two sub-queries', [source('brave', 'https://a.com/x'), source('brave', 'https://www.a.com/x/')], 1, 0],
    ['one provider, syndicated on three sites', [source('brave', 'https://a.com/x'), source('brave', 'https://b.com/x'), source('brave', 'https://c.com/x')], 3, 0.1],
    ['three providers', [source('brave', 'https://a.com/x'), source('exa', 'https://a.com/x'), source('tavily', 'https://a.com/x')], 3, 0.1],
    ['capped at +0.15', ['brave', 'exa', 'tavily', 'rss', 'news'].map((provider) => source(provider, 'https://a.com/x')), 5, 0.15],
    ['sources without URLs count by provider', [source('local', null), source('rss', null)], 2, 0.05],
  ])('%s → %i independent, bonus %f', (_name, sources, independentSources, bonus) => {
    const agreement = agreementOf(sources);
    expect(agreement.independentSources).toBe(independentSources);
    expect(agreement.bonus).toBeCloseTo(bonus, 10);
  });

  it('lists providers once, in source order', () => {
    expect(agreementOf([source('exa', 'https://a.com'), source('brave', 'https://b.com'), source('exa', 'https://c.com')]).providers).toEqual(['exa', 'brave']);
  });
});
