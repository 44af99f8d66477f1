import { describe, expect, it } from 'vitest';
import { buildReplayReport, renderReportJson, renderReportMarkdown } from './replay-report.ts';
import { diffRun } from './run-diff.ts';
import { parseReplayId, parseTenantId, parseTopicId } from '../../runtime/ids.ts';

const SCOPE = { tenant: parseTenantId('acme'), topicId: parseTopicId('news'), replayId: parseReplayId('new-model'), since: '2026-11-29T00:00:00.000Z', until: '2026-11-30T00:00:00.000Z', model: 'fresh-news@1' };

function item(name: string, overrides: Record<string, unknown> = {}) {
  return { id: `it-${name}`, title: `Title ${name}`, url: `https://example.com/${name}`, canonical_url: `https://example.com/${name}`, content: 'body', summary: null, verdict: 'accepted', score: 0.5, ...overrides };
}
const doc = (items: unknown[], complete = true) => ({ run_id: 'run-1', items, stats: { complete } });

const runs = [
  diffRun({ runId: 'run-1', file: 'normalized/a.json' }, { kind: 'found', json: doc([item('a'), item('b'), item('gone')]) }, doc([item('a', { score: 0.75 }), item('b', { verdict: 'quarantined', title: 'Title | with pipe' }), item('new')])),
  diffRun({ runId: 'run-2', file: 'normalized/b.json' }, { kind: 'missing' }, doc([item('c')], false)),
];
const rejected = [{ partition: 0, offset: '7', stage: 'decode' as const, code: 'UNDECODABLE', message: 'not Confluent wire format' }];

describe('buildReplayReport', () => {
  it('sums the runs', () => {
    const report = buildReplayReport(SCOPE, 9, rejected, runs);
    expect(report.totals).toEqual({ runs: 2, incomplete: 1, new: 2, changed: 1, removed: 1, rescored: 1, unchanged: 0 });
    expect(report.inputs).toEqual({ read: 9, rejected });
    expect(JSON.parse(renderReportJson(report))).toEqual(report);
  });
});

describe('renderReportMarkdown', () => {
  const markdown = renderReportMarkdown(buildReplayReport(SCOPE, 9, rejected, runs));

  it.each([
    '# Replay new-model: acme/news',
    'Raw results from 2026-11-29T00:00:00.000Z to 2026-11-30T00:00:00.000Z: 9 read, 1 rejected.',
    '- 0:7 decode UNDECODABLE: not Confluent wire format',
    '## run-1',
    'complete; original normalized/a.json; 3 → 3 items: 1 new, 1 changed, 1 removed, 1 rescored, 0 unchanged',
    '- Title new (accepted, 0.500) https://example.com/new',
    '- Title \\| with pipe: content, verdict (accepted → quarantined) https://example.com/b',
    '- Title gone (accepted, 0.500) https://example.com/gone',
    '| Title a | 0.500 | 0.750 |',
    '## run-2',
    'incomplete; no readable original (missing); 0 → 1 items',
  ])('contains %j', (line) => {
    expect(markdown).toContain(line);
  });

  it('leaves out empty sections and ends with one newline', () => {
    const quiet = renderReportMarkdown(buildReplayReport(SCOPE, 1, [], [diffRun({ runId: 'run-3', file: 'n.json' }, { kind: 'found', json: doc([item('a')]) }, doc([item('a')]))]));
    expect(quiet).not.toMatch(/### |## Rejected/);
    expect(quiet.endsWith('unchanged\n')).toBe(true);
  });
});
