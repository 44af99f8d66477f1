import { describe, expect, it } from 'vitest';
import { ingestItemSchema } from '../../schemas/ingest.ts';
import { ingestItemFixture } from '../../test/fixtures/messages.ts';
import { FIELD_LIMITS, parseDate, validateItem, type ValidationContext, type ValidationOutcome, type ValidationReasonCode } from './validate-item.ts';

const context: ValidationContext = { producerName: 'agent-reach', fetchedAt: '2026-04-25T02:30:00Z', now: new Date('2026-04-25T03:00:00Z') };

const good = ingestItemFixture();

function codes(candidate: unknown, ctx: ValidationContext = context): ValidationReasonCode[] {
  return validateItem(candidate, ctx).reasons.map((reason) => reason.code);
}

describe('validateItem', () => {
  it('accepts the spec 000 example unchanged apart from ISO normalisation', () => {
    const result = validateItem(good, context);
    expect(result.outcome).toBe('valid');
    expect(result.reasons).toEqual([]);
    expect(result.item).toMatchObject({ title: good.title, url: good.url, published_at: '2026-04-25T00:12:00.000Z', fetched_at: '2026-04-25T02:29:00.000Z' });
    expect(ingestItemSchema.safeParse(result.item).success).toBe(true);
  });

  const cases: Array<{ name: string; candidate: Record<string, unknown>; outcome: ValidationOutcome; code: ValidationReasonCode; field: string; ctx?: ValidationContext }> = [
    { name: 'no title', candidate: { ...good, title: undefined }, outcome: 'dropped', code: 'MISSING_TITLE', field: 'title' },
    { name: 'blank title', candidate: { ...good, title: ' \n\t ' }, outcome: 'dropped', code: 'MISSING_TITLE', field: 'title' },
    { name: 'title of the wrong type', candidate: { ...good, title: 42 }, outcome: 'dropped', code: 'BAD_FIELD_TYPE', field: 'title' },
    { name: 'neither url nor source_name', candidate: { ...good, url: null, source_name: '' }, outcome: 'dropped', code: 'MISSING_SOURCE', field: 'source_name' },
    { name: 'neither content nor summary', candidate: { ...good, content: '', summary: null }, outcome: 'dropped', code: 'MISSING_BODY', field: 'content' },
    { name: 'no fetched_at and no default', candidate: { ...good, fetched_at: undefined }, outcome: 'dropped', code: 'MISSING_FETCHED_AT', field: 'fetched_at', ctx: { producerName: 'agent-reach' } },
    { name: 'no fetched_at, document default used', candidate: { ...good, fetched_at: undefined }, outcome: 'valid', code: 'MISSING_FETCHED_AT', field: 'fetched_at' },
    { name: 'no id', candidate: { ...good, id: undefined }, outcome: 'valid', code: 'MISSING_ID', field: 'id' },
    { name: 'unparseable published_at', candidate: { ...good, published_at: 'last Tuesday' }, outcome: 'valid', code: 'BAD_DATE', field: 'published_at' },
    { name: 'impossible calendar date', candidate: { ...good, published_at: '2026-02-30T10:00:00Z' }, outcome: 'valid', code: 'BAD_DATE', field: 'published_at' },
    { name: 'published_at in the future', candidate: { ...good, published_at: '2027-01-01T00:00:00Z' }, outcome: 'valid', code: 'FUTURE_DATE', field: 'published_at' },
    { name: 'javascript: url, source_name remains', candidate: { ...good, url: 'javascript:alert(1)' }, outcome: 'valid', code: 'BAD_URL', field: 'url' },
    { name: 'data: url', candidate: { ...good, url: 'data:text/html,<script>x</script>' }, outcome: 'valid', code: 'BAD_URL', field: 'url' },
    { name: 'file: url', candidate: { ...good, url: 'file:///etc/passwd' }, outcome: 'valid', code: 'BAD_URL', field: 'url' },
    { name: 'credentials in url', candidate: { ...good, url: 'https://user:secret@example.com/a' }, outcome: 'valid', code: 'BAD_URL', field: 'url' },
    { name: 'unparseable url', candidate: { ...good, url: 'not a url' }, outcome: 'valid', code: 'BAD_URL', field: 'url' },
    { name: 'bad url and no source_name', candidate: { ...good, url: 'ftp://example.com/x', source_name: null }, outcome: 'dropped', code: 'MISSING_SOURCE', field: 'source_name' },
    { name: 'oversized title', candidate: { ...good, title: 'x'.repeat(600) }, outcome: 'valid', code: 'OVERSIZED_FIELD', field: 'title' },
    { name: 'oversized summary', candidate: { ...good, summary: 'y'.repeat(5_001) }, outcome: 'valid', code: 'OVERSIZED_FIELD', field: 'summary' },
    { name: 'oversized content', candidate: { ...good, content: 'z'.repeat(100_001) }, outcome: 'valid', code: 'OVERSIZED_FIELD', field: 'content' },
    { name: 'control characters', candidate: { ...good, content: 'bell\u0007 and null\u0000 gone' }, outcome: 'valid', code: 'CONTROL_CHARS', field: 'content' },
    { name: 'unknown confidence', candidate: { ...good, confidence: 'certain' }, outcome: 'valid', code: 'BAD_CONFIDENCE', field: 'confidence' },
    { name: 'only the provider vouches for it', candidate: { ...good, url: null, source_name: 'Agent-Reach' }, outcome: 'downweighted', code: 'PROVIDER_ONLY_ASSERTION', field: 'source_name' },
    { name: 'bad url and the provider as source', candidate: { ...good, url: 'javascript:void(0)', source_name: 'agent reach' }, outcome: 'downweighted', code: 'PROVIDER_ONLY_ASSERTION', field: 'source_name' },
  ];

  it.each(cases)('$name → $outcome with $code', ({ candidate, outcome, code, field, ctx }) => {
    const result = validateItem(candidate, ctx ?? context);
    expect(result.outcome).toBe(outcome);
    expect(result.reasons).toContainEqual(expect.objectContaining({ code, field }));
    if (outcome === 'dropped') expect(result.item).toBeNull();
    else expect(ingestItemSchema.safeParse(result.item).success).toBe(true);
  });

  it('sets repaired fields to null or their truncated value', () => {
    const result = validateItem({ ...good, url: 'javascript:alert(1)', published_at: 'soon', title: `${'t'.repeat(499)}😀tail`, content: 'a\u0000b' }, context);
    expect(result.item?.url).toBeNull();
    expect(result.item?.published_at).toBeNull();
    // The emoji straddles the cap: cutting must not leave half a surrogate pair.
    expect(result.item?.title).toBe('t'.repeat(499));
    expect(result.item?.content).toBe('ab');
    expect(result.item?.title.length).toBeLessThanOrEqual(FIELD_LIMITS.title);
  });

  it('accepts a summary without content and a source_name without url', () => {
    const result = validateItem({ ...good, content: null, url: undefined }, context);
    expect(result.outcome).toBe('valid');
    expect(result.item?.content).toBeNull();
    expect(result.item?.source_name).toBe('Example News');
  });

  it('drops garbage that is not an object at all', () => {
    for (const garbage of [null, 'text', 7, [good]]) {
      const result = validateItem(garbage, context);
      expect(result.outcome).toBe('dropped');
      expect(codes(garbage)).toEqual(expect.arrayContaining(['MISSING_TITLE', 'MISSING_SOURCE', 'MISSING_BODY']));
    }
  });

  it('derives the same id for the same item, so replays agree', () => {
    const withoutId = { ...good, id: undefined };
    expect(validateItem(withoutId, context).item?.id).toBe(validateItem(withoutId, context).item?.id);
    expect(validateItem(withoutId, context).item?.id).toMatch(/^item-[0-9a-f]{16}$/);
  });

  it('keeps line breaks in content but folds them in the title', () => {
    const result = validateItem({ ...good, title: 'two\nlines', content: 'para one\r\n\r\npara two' }, context);
    expect(result.item?.title).toBe('two lines');
    expect(result.item?.content).toBe('para one\n\npara two');
    expect(result.reasons).toEqual([]);
  });
});

describe('parseDate', () => {
  it.each([
    ['2026-04-25T08:12:00+08:00', '2026-04-25T00:12:00.000Z'],
    ['2026-04-25T08:12:00-0330', '2026-04-25T11:42:00.000Z'],
    ['2026-04-25t08:12:60.5z', '2026-04-25T08:12:59.500Z'],
    ['2024-02-29T23:59:59+05:45', '2024-02-29T18:14:59.000Z'],
    ['0099-01-01', '0099-01-01T00:00:00.000Z'],
    ['2026-04-25T08:12:00.123456Z', '2026-04-25T08:12:00.123Z'],
    ['2026-04-25 08:12', '2026-04-25T08:12:00.000Z'],
    ['2026-04-25', '2026-04-25T00:00:00.000Z'],
    ['Fri, 24 Apr 2026 08:12:00 +0800', '2026-04-24T00:12:00.000Z'],
    ['2026年4月25日', '2026-04-25T00:00:00.000Z'],
    ['1777104000', '2026-04-25T08:00:00.000Z'],
    [1777104000000, '2026-04-25T08:00:00.000Z'],
  ])('%s → %s', (raw, iso) => {
    expect(parseDate(raw)?.toISOString()).toBe(iso);
  });

  it.each(['March 5', '2026-13-01', '2023-02-29', '1900-02-29', '2026-04-25T25:00:00Z', '', 'null', {}, -5, Number.NaN])('rejects %s', (raw) => {
    expect(parseDate(raw)).toBeNull();
  });

  it('reads the same text the same way when it comes again, and a different one after it', () => {
    expect(parseDate('2026-04-25T08:12:00Z')?.toISOString()).toBe('2026-04-25T08:12:00.000Z');
    expect(parseDate('2026-04-25T08:12:00Z')?.toISOString()).toBe('2026-04-25T08:12:00.000Z');
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('2026-02-30')).toBeNull();
    expect(parseDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
  });
});
