import { describe, expect, it } from 'vitest';
import type { RouteFreshness, SourceType } from './route-input.ts';
import { searchHints } from './search-hints.ts';

const base = { primary_subject: 'Kafka 4', information_gaps: ['KIP-896 impact', 'Kafka 4 migration guide'], preferred_domains: ['kafka.apache.org'], freshness_required: 'medium' as RouteFreshness, localFirst: false };

type Row = [string, SourceType, Partial<typeof base>, string[]];

const rows: Row[] = [
  ['web: subject, gaps (a gap naming the subject as written) and site: hints', 'web', {}, ['Kafka 4', 'Kafka 4 KIP-896 impact', 'Kafka 4 migration guide', 'site:kafka.apache.org Kafka 4']],
  ['web under rule 3 searches only the gaps', 'web', { localFirst: true }, ['Kafka 4 KIP-896 impact', 'Kafka 4 migration guide', 'site:kafka.apache.org Kafka 4']],
  ['web under rule 3 with no known gaps keeps the subject', 'web', { localFirst: true, information_gaps: [] }, ['Kafka 4', 'site:kafka.apache.org Kafka 4']],
  ['web under rule 3 but high freshness keeps the subject', 'web', { localFirst: true, freshness_required: 'high' }, ['Kafka 4', 'Kafka 4 KIP-896 impact', 'Kafka 4 migration guide', 'site:kafka.apache.org Kafka 4']],
  ['vector: no site: hints', 'vector', {}, ['Kafka 4', 'Kafka 4 KIP-896 impact', 'Kafka 4 migration guide']],
  ['graph: the entity and its gaps', 'graph', { information_gaps: [] }, ['Kafka 4']],
  ['counter: criticism and disputes', 'counter', {}, ['Kafka 4 criticism', 'Kafka 4 问题 争议']],
  ['repeated gaps collapse', 'local_file', { information_gaps: ['x', 'x'] }, ['Kafka 4', 'Kafka 4 x']],
];

describe('searchHints', () => {
  it.each(rows)('%s', (_name, source, patch, expected) => {
    expect(searchHints(source, { ...base, ...patch })).toEqual(expected);
  });
});
