/**
 * diff.json and diff.md of a replay: the range, what was read and rejected, and each run's diff
 * against its original. Nothing in them depends on when the replay ran, so replaying the same
 * range with the same code writes the same bytes.
 */
import type { ReplayRejection } from './replay-stages.ts';
import type { RunDiff } from './run-diff.ts';
import type { ReplayId, TenantId, TopicId } from '../../runtime/ids.ts';

export const REPLAY_DIFF_VERSION = 'skrya.replay-diff.v1';

export interface ReplayReport {
  interface_version: typeof REPLAY_DIFF_VERSION;
  tenant: TenantId;
  topic_id: TopicId;
  replay_id: string;
  since: string;
  until: string;
  /** The scoring model the runs were replayed with (id@version). */
  model: string;
  inputs: { read: number; rejected: ReplayRejection[] };
  totals: { runs: number; incomplete: number; new: number; changed: number; removed: number; rescored: number; unchanged: number };
  runs: RunDiff[];
}

export function buildReplayReport(scope: { tenant: TenantId; topicId: TopicId; replayId: ReplayId; since: string; until: string; model: string }, read: number, rejected: ReplayRejection[], runs: RunDiff[]): ReplayReport {
  const sum = (field: 'new' | 'changed' | 'removed' | 'rescored' | 'unchanged') => runs.reduce((total, run) => total + run.counts[field], 0);
  return {
    interface_version: REPLAY_DIFF_VERSION,
    tenant: scope.tenant,
    topic_id: scope.topicId,
    replay_id: scope.replayId,
    since: scope.since,
    until: scope.until,
    model: scope.model,
    inputs: { read, rejected },
    totals: {
      runs: runs.length,
      incomplete: runs.filter((run) => !run.complete.replayed).length,
      new: sum('new'),
      changed: sum('changed'),
      removed: sum('removed'),
      rescored: sum('rescored'),
      unchanged: sum('unchanged'),
    },
    runs,
  };
}

export function renderReportJson(report: ReplayReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const score = (value: number | null) => (value === null ? '–' : value.toFixed(3));
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ').trim();

function runSection(run: RunDiff): string[] {
  const lines = [`## ${run.run_id}`, ''];
  const complete = run.complete.replayed ? 'complete' : 'incomplete';
  const original = run.original === 'found' ? `original ${run.file}${run.complete.original === false ? ' (incomplete)' : ''}` : `no readable original (${run.original})`;
  lines.push(`${complete}; ${original}; ${run.counts.original} → ${run.counts.replayed} items: ${run.counts.new} new, ${run.counts.changed} changed, ${run.counts.removed} removed, ${run.counts.rescored} rescored, ${run.counts.unchanged} unchanged`, '');
  if (run.new.length > 0) lines.push('### New', '', ...run.new.map((item) => `- ${cell(item.title)} (${item.verdict}, ${score(item.score)}) ${item.key}`), '');
  if (run.changed.length > 0) {
    lines.push('### Changed', '', ...run.changed.map((item) => `- ${cell(item.title)}: ${item.changes.join(', ')}${item.changes.includes('verdict') ? ` (${item.original.verdict} → ${item.replayed.verdict})` : ''} ${item.key}`), '');
  }
  if (run.removed.length > 0) lines.push('### Removed', '', ...run.removed.map((item) => `- ${cell(item.title)} (${item.verdict}, ${score(item.score)}) ${item.key}`), '');
  if (run.rescored.length > 0) {
    lines.push('### Rescored', '', '| item | original | replayed |', '|---|---|---|', ...run.rescored.map((item) => `| ${cell(item.title)} | ${score(item.original_score)} | ${score(item.replayed_score)} |`), '');
  }
  return lines;
}

export function renderReportMarkdown(report: ReplayReport): string {
  const { totals } = report;
  const lines = [
    `# Replay ${report.replay_id}: ${report.tenant}/${report.topic_id}`,
    '',
    `Raw results from ${report.since} to ${report.until}: ${report.inputs.read} read, ${report.inputs.rejected.length} rejected.`,
    `Scored with model ${report.model}.`,
    `${totals.runs} run(s), ${totals.incomplete} incomplete; ${totals.new} new, ${totals.changed} changed, ${totals.removed} removed, ${totals.rescored} rescored, ${totals.unchanged} unchanged.`,
    '',
  ];
  if (report.inputs.rejected.length > 0) {
    lines.push('## Rejected inputs', '', ...report.inputs.rejected.map((entry) => `- ${entry.partition}:${entry.offset} ${entry.stage} ${entry.code}: ${cell(entry.message).slice(0, 200)}`), '');
  }
  for (const run of report.runs) lines.push(...runSection(run));
  return `${lines.join('\n').trimEnd()}\n`;
}
