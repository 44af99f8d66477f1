import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { TOPICS, TOPIC_NAMES, type TopicName } from '../topics/topics.ts';
import {
  deadLetterFixture, ingestBatchFixture, rawResponseFixture, rawRunEndFixture, retrievalRequestFixture, scoredItemMessageFixture, scoredRunEndFixture,
} from '../test/fixtures/messages.ts';

const FIXTURES: Array<[TopicName, string, unknown]> = [
  ['retrieval-requests', 'request', retrievalRequestFixture()],
  ['raw-results', 'provider response', rawResponseFixture()],
  ['raw-results', 'run-end marker', rawRunEndFixture()],
  ['scored-results', 'scored item', scoredItemMessageFixture()],
  ['scored-results', 'scored run-end marker', scoredRunEndFixture()],
  ['ingest-normalized', 'ingest batch', ingestBatchFixture()],
  ['dead-letters', 'dead letter', deadLetterFixture()],
  ['monitor-state', 'monitor state', { tenant: 'acme', topic_id: 'ai-browser', last_run_id: 'run-20260425t023000z-0a1b2c3d', last_window_since: '2026-04-24T00:00:00Z', last_window_until: '2026-04-25T00:00:00Z', fired_at: '2026-04-25T00:00:01Z' }],
  ['topic-configs', 'topic config', { tenant: 'acme', topic_id: 'ai-browser', sources_json: '{"cadence":null,"recency_hours":24,"intent":null,"boost_domains":[],"sources":[]}', content_sha256: 'a'.repeat(64), intent: 'news', sub_queries: ['ai browser 2026'], expanded_for_year: 2026, last_run_until: null, published_at: '2026-04-25T00:00:01Z' }],
  ['tenant-usage', 'usage claim', { tenant: 'acme', day: '2026-04-25', run_id: 'run-20260425t023000z-0a1b2c3d', claimed_at: '2026-04-25T02:30:01Z' }],
];

/** Field paths of an Avro schema: records recurse, unions with null unwrap, arrays look at their items. */
function avroPaths(type: avro.Type, prefix = ''): string[] {
  if (type instanceof avro.types.RecordType) {
    return type.fields.flatMap((field) => [`${prefix}${field.name}`, ...avroPaths(field.type, `${prefix}${field.name}.`)]);
  }
  if (type instanceof avro.types.UnwrappedUnionType) return type.types.flatMap((member) => avroPaths(member, prefix));
  if (type instanceof avro.types.ArrayType) return avroPaths(type.itemsType, prefix);
  return [];
}

/** The same paths of a zod schema, through objects, nullables, arrays, unions and refinements. */
function zodPaths(schema: z.ZodType, prefix = ''): string[] {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, value]) => [`${prefix}${key}`, ...zodPaths(value, `${prefix}${key}.`)]);
  }
  if (schema instanceof z.ZodNullable || schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) return zodPaths(schema.unwrap() as z.ZodType, prefix);
  if (schema instanceof z.ZodArray) return zodPaths(schema.element as z.ZodType, prefix);
  if (schema instanceof z.ZodUnion || schema instanceof z.ZodDiscriminatedUnion) return schema.options.flatMap((option) => zodPaths(option as z.ZodType, prefix));
  if (schema instanceof z.ZodPipe) return zodPaths(schema.in as z.ZodType, prefix);
  return [];
}

const unique = (paths: string[]) => [...new Set(paths)].sort();

describe('contracts: Avro and zod agree', () => {
  it.each(TOPIC_NAMES)('%s: the zod contract and the Avro schema name the same fields', (topic) => {
    const avroType = avro.Type.forSchema(TOPICS[topic].avro as avro.Schema);
    expect(unique(zodPaths(TOPICS[topic].contract))).toEqual(unique(avroPaths(avroType)));
  });

  it.each(FIXTURES)('%s: a zod-valid %s encodes and decodes with avsc unchanged', (topic, _name, fixture) => {
    const valid = TOPICS[topic].contract.parse(fixture);
    const avroType = avro.Type.forSchema(TOPICS[topic].avro as avro.Schema);
    const decoded: unknown = avroType.fromBuffer(avroType.toBuffer(valid));
    expect(TOPICS[topic].contract.parse(decoded)).toEqual(valid);
  });

  it.each([
    ['retrieval-requests', { ...retrievalRequestFixture(), tenant: '../etc' }, 'tenant'],
    ['retrieval-requests', { ...retrievalRequestFixture(), capabilities: ['brave_search'] }, 'capabilities'],
    ['retrieval-requests', { ...retrievalRequestFixture(), time_window: { since: '2026-04-26T00:00:00Z', until: '2026-04-25T00:00:00Z' } }, 'time_window'],
    ['raw-results', { ...rawResponseFixture(), response: null }, 'response'],
    ['scored-results', { ...scoredItemMessageFixture(), item: { ...scoredItemMessageFixture().item, score: 1.5 } }, 'item'],
    ['tenant-usage', { tenant: '../globex', day: '2026-04-25', run_id: 'run-1', claimed_at: '2026-04-25T02:30:01Z' }, 'tenant'],
    ['tenant-usage', { tenant: 'acme', day: '25/04/2026', run_id: 'run-1', claimed_at: '2026-04-25T02:30:01Z' }, 'day'],
  ] as const)('%s: the zod contract refuses a message whose %s breaks a semantic rule', (topic, value, field) => {
    const result = TOPICS[topic].contract.safeParse(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((issue) => issue.path[0] === field)).toBe(true);
  });
});
