import { describe, expect, it } from 'vitest';
import type { RouteFreshness, SourceType, TaskType } from './route-input.ts';
import { selectSources } from './source-selection.ts';

const ALL: SourceType[] = ['web', 'local_file', 'vector', 'graph', 'counter'];
const counterOn = { enabled: true, trigger: 'rule 4: test' };
const counterOff = { enabled: false, trigger: null };

type Row = [string, TaskType, RouteFreshness, boolean, SourceType[], boolean, SourceType[], number, number];

describe('selectSources', () => {
  // Rule 1: freshness decides web's place and share.
  const rule1: Row[] = [
    ['high puts web first with a 70 % floor', 'deep_research', 'high', false, ALL, true, ['web', 'vector', 'graph', 'counter'], 70, 70],
    ['high adds web to internal knowledge, first', 'internal_knowledge', 'high', false, ALL, false, ['web', 'vector', 'local_file'], 70, 70],
    ['medium mixes web with vector in rule 2 order', 'entity_analysis', 'medium', false, ALL, false, ['graph', 'web', 'vector'], 50, 0],
    ['medium adds a local source breaking news lacks', 'breaking_news', 'medium', false, ALL, true, ['web', 'vector', 'counter'], 50, 0],
    ['medium adds local_file when vector is missing', 'breaking_news', 'medium', false, ['web', 'local_file', 'counter'], true, ['web', 'local_file', 'counter'], 50, 0],
    ['low puts local sources first and web last', 'tech_evaluation', 'low', false, ALL, true, ['vector', 'web', 'counter'], 20, 0],
    ['low: web supplements internal knowledge', 'internal_knowledge', 'low', false, ALL, false, ['vector', 'local_file', 'web'], 20, 0],
    ['low: graph before web', 'deep_research', 'low', false, ALL, false, ['vector', 'graph', 'web'], 20, 0],
    ['low without local sources keeps web', 'breaking_news', 'low', false, ['web', 'graph'], false, ['web'], 20, 0],
  ];
  // Rule 2: the task type's combination, limited to what is available.
  const rule2: Row[] = [
    ['breaking_news → web + counter', 'breaking_news', 'high', false, ALL, true, ['web', 'counter'], 70, 70],
    ['deep_research → vector + web + graph + counter', 'deep_research', 'medium', false, ALL, true, ['vector', 'web', 'graph', 'counter'], 50, 0],
    ['entity_analysis → graph + web + vector', 'entity_analysis', 'medium', false, ALL, false, ['graph', 'web', 'vector'], 50, 0],
    ['internal_knowledge → vector + local_file', 'internal_knowledge', 'medium', false, ['vector', 'local_file'], false, ['vector', 'local_file'], 50, 0],
    ['tech_evaluation → web + vector + counter', 'tech_evaluation', 'medium', false, ALL, true, ['web', 'vector', 'counter'], 50, 0],
    ['unavailable members are left out, never invented', 'deep_research', 'medium', false, ['web', 'graph'], true, ['web', 'graph'], 50, 0],
    ['counter only when rule 4 turned it on', 'deep_research', 'medium', false, ALL, false, ['vector', 'web', 'graph'], 50, 0],
    ['nothing recommended is available: use what is', 'breaking_news', 'high', false, ['graph'], false, ['graph'], 70, 70],
  ];
  // Rule 3: known local material → local first, web only for the gaps (and a smaller share).
  const rule3: Row[] = [
    ['medium: locals first, web after graph', 'entity_analysis', 'medium', true, ALL, false, ['vector', 'local_file', 'graph', 'web'], 30, 0],
    ['low: locals first, smallest web share', 'tech_evaluation', 'low', true, ALL, true, ['vector', 'local_file', 'web', 'counter'], 10, 0],
    ['high: web stays first with its floor, locals next', 'breaking_news', 'high', true, ALL, true, ['web', 'vector', 'local_file', 'counter'], 70, 70],
    ['no local source available: rule 3 does not apply', 'entity_analysis', 'medium', true, ['web', 'graph'], false, ['graph', 'web'], 50, 0],
  ];

  it.each([...rule1.map((row) => ['rule 1', ...row] as const), ...rule2.map((row) => ['rule 2', ...row] as const), ...rule3.map((row) => ['rule 3', ...row] as const)])(
    '%s: %s',
    (_rule, _name, task_type, freshness_required, local_material, usable, counter, order, webPercent, webFloorPercent) => {
      const selection = selectSources({ task_type, freshness_required, local_material }, usable, counter ? counterOn : counterOff);
      expect(selection.candidates.map((candidate) => candidate.source)).toEqual(order);
      expect(selection.webPercent).toBe(webPercent);
      expect(selection.webFloorPercent).toBe(webFloorPercent);
    },
  );

  it('weighs recommended sources above supplements and says which rules chose each', () => {
    const { candidates } = selectSources({ task_type: 'deep_research', freshness_required: 'medium', local_material: false }, ['web', 'local_file', 'graph', 'counter'], counterOn);
    expect(candidates.map(({ source, weight }) => [source, weight])).toEqual([
      ['web', 2],
      ['graph', 2],
      ['local_file', 1],
      ['counter', 2],
    ]);
    expect(candidates.every((candidate) => candidate.reasons.length > 0)).toBe(true);
  });

  it('marks rule 3 as applied only when a local source can serve it', () => {
    expect(selectSources({ task_type: 'deep_research', freshness_required: 'low', local_material: true }, ['web', 'vector'], counterOff).localFirst).toBe(true);
    expect(selectSources({ task_type: 'deep_research', freshness_required: 'low', local_material: true }, ['web', 'graph'], counterOff).localFirst).toBe(false);
  });
});
