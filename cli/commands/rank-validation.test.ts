import { describe, expect, it } from 'vitest';
import { describeDropped, rankAndValidate } from './rank.ts';

const line = (fields: Record<string, unknown>) => JSON.stringify(fields);
const TEXT = [
  line({ url: 'https://example.org/empty', title: '', snippet: '', published_date: '2024-10-09T00:00:00Z', source: 'web' }),
  line({ url: 'https://deno.com/blog/v2.0', title: 'Announcing Deno 2', snippet: 'Deno 2 is here', published_date: '2024-10-09T00:00:00Z', source: 'web' }),
  line({ url: 'https://example.org/no-body', title: 'A title and nothing else', snippet: '', published_date: null, source: 'web' }),
].join('\n');
const options = { intent: 'status' as const, queries: ['Deno 2 release'], boostDomains: [], windowEnd: '2024-10-12T00:00:00Z' };

describe('skrya rank validates like the pipeline', () => {
  it('never ranks an item the pipeline drops (empty title and body), and reports each with its reasons', async () => {
    const { output, dropped } = await rankAndValidate(TEXT, 'results.jsonl', options);
    const ranked = output.trim().split('\n').map((entry) => JSON.parse(entry) as Record<string, unknown>);
    expect(ranked.map((entry) => entry.url)).toEqual(['https://deno.com/blog/v2.0']);
    expect(dropped.map((entry) => [entry.line, entry.reasons.map((reason) => reason.code)])).toEqual([
      [1, ['MISSING_TITLE', 'MISSING_BODY']],
      [3, ['MISSING_BODY']],
    ]);
    expect(describeDropped(dropped[1]!, 'results.jsonl')).toBe('results.jsonl line 3: dropped "A title and nothing else": MISSING_BODY (content: neither content nor summary has text)');
  });

  it('--keep-dropped lists the dropped items after the ranked ones', async () => {
    const { output } = await rankAndValidate(TEXT, 'results.jsonl', { ...options, keepDropped: true });
    const lines = output.trim().split('\n').map((entry) => JSON.parse(entry) as Record<string, unknown>);
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ rank: 1 });
    expect(lines[1]).toMatchObject({ dropped: true, line: 1, reasons: [{ code: 'MISSING_TITLE', field: 'title' }, { code: 'MISSING_BODY', field: 'content' }] });
    expect(lines[2]).toMatchObject({ dropped: true, line: 3 });
  });
});
