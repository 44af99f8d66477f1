/** Replays: every replay the viewer may see, and one replay's diff against the original runs. */
import type { ReplayReport } from '../../services/replay/index.ts';
import { html } from '../html.ts';
import type { Viewer } from '../access.ts';
import type { ReplayEntry } from '../data/run-files.ts';
import { topicPath } from './fleet-page.ts';
import { page, verdictBadge } from './layout.ts';
import { replayPath } from './topic-page.ts';

const score = (value: number | null) => (value === null ? '–' : value.toFixed(3));

export function replaysPage(entries: Array<ReplayEntry & { tenant: string; topicId: string }>, viewer: Viewer): string {
  const body = entries.length === 0
    ? html`<p class="muted">No replays yet. <code>skrya replay --tenant T --topic X --since ISO --until ISO</code> writes one into runs/&lt;topic&gt;/replays/&lt;id&gt;/.</p>`
    : html`<table class="replays"><thead><tr><th>tenant</th><th>topic</th><th>replay</th><th>range</th><th class="num">runs</th><th class="num">new</th><th class="num">changed</th><th class="num">removed</th><th class="num">rescored</th></tr></thead><tbody>
      ${entries.map((entry) => html`<tr data-replay="${entry.replayId}"><td>${entry.tenant}</td><td><a href="${topicPath(entry.tenant, entry.topicId)}">${entry.topicId}</a></td><td><a href="${replayPath(entry.tenant, entry.topicId, entry.replayId)}">${entry.replayId}</a></td>
        ${entry.report ? html`<td>${entry.report.since} → ${entry.report.until}</td><td class="num">${entry.report.totals.runs}</td><td class="num">${entry.report.totals.new}</td><td class="num">${entry.report.totals.changed}</td><td class="num">${entry.report.totals.removed}</td><td class="num">${entry.report.totals.rescored}</td>` : html`<td colspan="6" class="notes">${entry.problem}</td>`}</tr>`)}
    </tbody></table>`;
  return page({ title: 'Replays', viewer, body });
}

export function replayDiffPage(report: ReplayReport, viewer: Viewer): string {
  const body = html`
    <p><a href="/replays">Replays</a> › tenant ${report.tenant} › <a href="${topicPath(report.tenant, report.topic_id)}">${report.topic_id}</a> › ${report.replay_id}</p>
    <section class="card"><p>${report.since} → ${report.until}: ${report.inputs.read} raw results read, ${report.inputs.rejected.length} rejected; ${report.totals.runs} runs (${report.totals.incomplete} incomplete): <strong>${report.totals.new}</strong> new, <strong>${report.totals.changed}</strong> changed, <strong>${report.totals.removed}</strong> removed, <strong>${report.totals.rescored}</strong> rescored, ${report.totals.unchanged} unchanged.</p></section>
    ${report.runs.map((run) => html`<section class="card replay-run" data-run="${run.run_id}">
      <h2>${run.run_id}</h2>
      <p>${run.complete.replayed ? 'complete' : 'incomplete'}; ${run.original === 'found' ? `original ${run.file}` : `no readable original (${run.original})`}; ${run.counts.original} → ${run.counts.replayed} items</p>
      ${run.new.length > 0 ? html`<h3>New</h3><ul>${run.new.map((item) => html`<li>${item.title} ${verdictBadge(item.verdict)} ${score(item.score)}</li>`)}</ul>` : ''}
      ${run.changed.length > 0 ? html`<h3>Changed</h3><ul>${run.changed.map((item) => html`<li>${item.title}: ${item.changes.join(', ')}${item.changes.includes('verdict') ? html` (${verdictBadge(item.original.verdict)} → ${verdictBadge(item.replayed.verdict)})` : ''}</li>`)}</ul>` : ''}
      ${run.removed.length > 0 ? html`<h3>Removed</h3><ul>${run.removed.map((item) => html`<li>${item.title} ${verdictBadge(item.verdict)} ${score(item.score)}</li>`)}</ul>` : ''}
      ${run.rescored.length > 0 ? html`<h3>Rescored</h3><table><thead><tr><th>item</th><th class="num">original</th><th class="num">replayed</th></tr></thead><tbody>${run.rescored.map((item) => html`<tr><td>${item.title}</td><td class="num">${score(item.original_score)}</td><td class="num">${score(item.replayed_score)}</td></tr>`)}</tbody></table>` : ''}
    </section>`)}`;
  return page({ title: `Replay ${report.replay_id}`, viewer, body });
}
