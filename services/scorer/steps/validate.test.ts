import { describe, expect, it } from 'vitest';
import { PRODUCER, responseMessage, validated } from '../testing/step-fixtures.ts';
import { parseRunId } from '../../../runtime/ids.ts';

describe('validate step', () => {
  it.each([
    ['a complete item', {}, 'valid', []],
    ['no title', { title: '' }, 'dropped', ['MISSING_TITLE']],
    ['no url and no source', { url: '', source: '' }, 'dropped', ['MISSING_SOURCE']],
    ['no body', { snippet: '', content: null }, 'dropped', ['MISSING_BODY']],
    ['only the provider as source', { url: '', source: PRODUCER }, 'downweighted', ['PROVIDER_ONLY_ASSERTION']],
    ['a date in the far future', { published_date: '2030-01-01T00:00:00Z' }, 'valid', ['FUTURE_DATE']],
  ] as const)('%s → %s with reasons %j (never MISSING_ID: the scorer sets the id)', (_name, fields, outcome, codes) => {
    const item = validated(fields);
    expect(item.validation.outcome).toBe(outcome);
    expect(item.reasons.map((reason) => reason.code)).toEqual(codes);
    expect(item.id).toMatch(/^it-[0-9a-f]{20}$/);
  });

  it.each([
    ['tracking parameters', { url: 'https://www.theverge.com/2026/04/24/comet-agent-mode?utm_source=rss' }, true],
    ['surrounding spaces in the title', { title: '  Perplexity Comet browser gets an agent mode ' }, true],
    ['another run of the same topic', {}, true],
    ['another story', { url: 'https://example.com/other' }, false],
    ['another text', { snippet: 'A different summary of the launch.' }, false],
  ] as const)('%s: same id as the plain copy → %s', (name, fields, same) => {
    const plain = validated();
    const message = name.startsWith('another run') ? { ...responseMessage(), run_id: parseRunId('run-20260426t023000z-0a1b2c3d') } : responseMessage();
    expect(validated(fields, message).id === plain.id).toBe(same);
  });

  it('identifies by the canonical URL and keeps the validated text', () => {
    const item = validated({ url: 'https://www.theverge.com/2026/04/24/comet-agent-mode?utm_source=rss' });
    expect(item.canonicalUrl).toBe('https://theverge.com/2026/04/24/comet-agent-mode');
    expect(item.text).toEqual({ title: 'Perplexity Comet browser gets an agent mode', content: null, summary: 'The AI browser product update adds an agent that books and buys on its own.' });
  });
});
