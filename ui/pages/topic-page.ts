/** One topic: its recorded runs (newest first) with status and counts, items over time, and its replays. */
import { html } from '../html.ts';
import type { Viewer } from '../access.ts';
import type { ReplayEntry, RunRecord } from '../data/run-files.ts';
import { runPath } from './fleet-page.ts';
import { chart, page, statusBadge, when } from './layout.ts';

export const replayPath = (tenant: string, topicId: string, replayId: string) => `/t/${tenant}/${topicId}/replays/${replayId}`;

export function topicPage(options: { tenant: string; topicId: string; runs: RunRecord[]; latestGoodStamp: string | null; replays: ReplayEntry[]; viewer: Viewer }): string {
  const { tenant, topicId, runs } = options;
  const readable = runs.filter((run) => run.document !== null);
  const body = html`
    <p><a href="/">Fleet</a> › tenant ${tenant} › ${topicId}</p>
    ${readable.length > 0 ? html`<div class="charts">
      ${chart('items-over-time', {
        type: 'bar',
        data: {
          labels: readable.map((run) => run.stamp.slice(0, 13)),
          datasets: [
            { label: 'accepted', data: readable.map((run) => run.document!.stats.accepted), backgroundColor: '#3f9c5a', stack: 'v' },
            { label: 'downweighted', data: readable.map((run) => run.document!.stats.downweighted), backgroundColor: '#e0b000', stack: 'v' },
            { label: 'quarantined', data: readable.map((run) => run.document!.stats.quarantined), backgroundColor: '#e07b00', stack: 'v' },
            { label: 'dropped', data: readable.map((run) => run.document!.stats.dropped), backgroundColor: '#c0392b', stack: 'v' },
          ],
        },
        options: { scales: { x: { stacked: true }, y: { stacked: true, beginAtZero: true } } },
      }, 'verdicts per run over time')}
    </div>` : ''}
    <h2>Runs</h2>
    <table>
      <thead><tr><th>requested</th><th>run</th><th>status</th><th class="num">kept</th><th class="num">quarantined</th><th class="num">dropped</th><th>why</th></tr></thead>
      <tbody>${[...runs].reverse().map((run) => html`<tr>
        <td><a href="${runPath(tenant, topicId, run.stamp)}">${run.document ? when(run.document.run_requested_at) : run.stamp}</a>${run.stamp === options.latestGoodStamp ? html` <span class="badge">latest-ingest.json</span>` : ''}</td>
        <td>${run.document?.run_id ?? ''}</td>
        <td>${run.document ? statusBadge(run.document.status) : html`<span class="badge status-failed">unreadable</span>`}</td>
        <td class="num">${run.document?.stats.kept ?? ''}</td>
        <td class="num">${run.document?.stats.quarantined ?? ''}</td>
        <td class="num">${run.document?.stats.dropped ?? ''}</td>
        <td>${run.document?.status_reason ?? run.problem}</td>
      </tr>`)}</tbody>
    </table>
    <h2>Replays</h2>
    ${options.replays.length === 0 ? html`<p class="muted">No replays of this topic (<code>skrya replay --tenant ${tenant} --topic ${topicId} --since … --until …</code>).</p>` : html`<ul>${options.replays.map((replay) => html`<li><a href="${replayPath(tenant, topicId, replay.replayId)}">${replay.replayId}</a> ${replay.report ? html`<span class="muted">${replay.report.since} → ${replay.report.until}, ${replay.report.totals.runs} runs</span>` : html`<span class="notes">${replay.problem}</span>`}</li>`)}</ul>`}`;
  return page({ title: `${tenant} / ${topicId}`, viewer: options.viewer, body, charts: readable.length > 0 });
}
