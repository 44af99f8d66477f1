import { describe, expect, it } from 'vitest';
import type { Capability } from '../../schemas/ingest.ts';
import { withPages } from './paged-calls.ts';
import type { PlannedCall } from './plan-calls.ts';

const call = (capability: Capability, chain: string[], counterEvidence = false): PlannedCall => ({
  capability,
  chain,
  subQuery: 'q',
  counterEvidence,
  inputFor: (skill) => ({ query: 'q', skill }),
});

const pagesOf = (calls: PlannedCall[], skill: string) => calls.map((planned) => planned.inputFor(skill).pages ?? 1);

describe('withPages: pagination from the budget left after one search per call', () => {
  const web = call('web_search', ['tavily_search', 'brave_web_search', 'exa_search']);
  const news = call('news_search', ['brave_news_search', 'tavily_search']);
  const site = call('site_search', ['site_search']);
  const counter = call('web_search', ['tavily_search', 'brave_web_search'], true);
  const feed = call('rss_feed', ['feed_reader']);

  it.each([
    { name: 'no budget left: one page each', budget: 3, expected: [1, 1, 1] },
    { name: 'two left: both to the first call', budget: 5, expected: [3, 1, 1] },
    { name: 'at most three pages a call', budget: 10, expected: [3, 3, 3] },
    { name: 'three left: split in plan order', budget: 6, expected: [3, 2, 1] },
  ])('$name', ({ budget, expected }) => {
    const calls = withPages([web, web, news, site, counter, feed], { budget_allocation: { total_budget: budget + 2, web: budget + 1 } });
    // web, web, news: paged; site_search, the counter query and the feed never are.
    expect(pagesOf(calls, 'brave_web_search').slice(0, 2)).toEqual(expected.slice(0, 2));
    expect(calls[2]!.inputFor('brave_news_search').pages ?? 1).toBe(expected[2]);
    expect(calls[3]!.inputFor('site_search')).not.toHaveProperty('pages');
    expect(calls[4]!.inputFor('brave_web_search')).not.toHaveProperty('pages');
    expect(calls[5]!.inputFor('feed_reader')).not.toHaveProperty('pages');
  });

  it('never gives pages to skills that cannot read them', () => {
    const [paged] = withPages([web], { budget_allocation: { total_budget: 10, web: 10 } });
    expect(paged!.inputFor('tavily_search')).not.toHaveProperty('pages');
    expect(paged!.inputFor('exa_search')).not.toHaveProperty('pages');
    expect(paged!.inputFor('brave_web_search').pages).toBe(3);
  });
});
