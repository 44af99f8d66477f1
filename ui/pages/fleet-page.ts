/** Fleet: tenants → topics, with cadence, last and next run, verdict counts, unreachable sources and quota use. */
import { html, type SafeHtml } from '../html.ts';
import type { Viewer } from '../access.ts';
import type { Fleet, TenantRow, TopicRow } from '../data/fleet.ts';
import { chart, page, statusBadge, when } from './layout.ts';

export const runPath = (tenant: string, topicId: string, stamp: string) => `/t/${tenant}/${topicId}/runs/${stamp}`;
export const topicPath = (tenant: string, topicId: string) => `/t/${tenant}/${topicId}`;

function quota(row: TenantRow): SafeHtml {
  const items = row.itemsPerRun === null ? '' : ` · at most ${row.itemsPerRun} items a run`;
  // Runs are claimed on tenant-usage only for tenants with a daily limit.
  if (row.requestsPerDay === null) return html`<span class="quota" data-tenant="${row.tenant}">no daily request limit${items}</span>`;
  const used = row.runsToday === null ? '?' : String(row.runsToday);
  return html`<span class="quota" data-tenant="${row.tenant}">runs today: <strong class="runs-today">${used}</strong> of ${row.requestsPerDay} a day${row.runsToday === null ? '' : html` <meter min="0" max="${row.requestsPerDay}" value="${row.runsToday}"></meter>`}${items}</span>`;
}

function topicLine(topic: TopicRow): SafeHtml {
  const run = topic.lastRun?.document ?? null;
  const stats = run?.stats;
  return html`<tr data-topic="${topic.tenant}/${topic.topicId}">
    <td><a href="${topicPath(topic.tenant, topic.topicId)}">${topic.topicId}</a>${topic.problem ? html`<div class="notes">${topic.problem}</div>` : ''}</td>
    <td>${topic.cadence ?? '–'}</td>
    <td>${topic.lastRun ? html`<a href="${runPath(topic.tenant, topic.topicId, topic.lastRun.stamp)}">${run ? when(run.run_requested_at) : topic.lastRun.stamp}</a> ${run ? statusBadge(run.status) : html`<span class="badge status-failed">unreadable</span>`}` : html`<span class="muted">never</span>`}</td>
    <td>${topic.lastRun === null ? 'due now' : topic.nextRunAt === null ? 'due now' : when(topic.nextRunAt)}</td>
    <td class="num">${stats?.kept ?? '–'}</td>
    <td class="num">${stats?.downweighted ?? '–'}</td>
    <td class="num">${stats?.quarantined ?? '–'}</td>
    <td class="num">${stats?.dropped ?? '–'}</td>
    <td>${topic.providerProblems.map((problem) => html`<div>${statusBadge(problem.status)} ${problem.provider} <span class="muted">(${problem.capability})</span>${problem.message ? html` <span class="muted">${problem.message}</span>` : ''}</div>`)}</td>
  </tr>`;
}

function tenantSection(row: TenantRow): SafeHtml {
  const charted = row.topics.filter((topic) => topic.history.length > 0);
  return html`<section class="card tenant" data-tenant="${row.tenant}">
    <h2>Tenant ${row.tenant}</h2>
    <p>${quota(row)}${row.problem ? html` <span class="notes">tenant.json: ${row.problem}</span>` : ''}</p>
    <table>
      <thead><tr><th>topic</th><th>cadence</th><th>last run</th><th>next run</th><th class="num">kept</th><th class="num">downweighted</th><th class="num">quarantined</th><th class="num">dropped</th><th>sources not connectable / failed</th></tr></thead>
      <tbody>${row.topics.map(topicLine)}</tbody>
    </table>
    ${charted.length > 0 ? html`<div class="charts">${charted.map((topic) => chart(`items-${topic.tenant}-${topic.topicId}`, {
      type: 'bar',
      data: {
        labels: topic.history.map((entry) => entry.stamp.slice(0, 13)),
        datasets: [
          { label: 'kept', data: topic.history.map((entry) => entry.kept), backgroundColor: '#2f5bd3' },
          { label: 'quarantined', data: topic.history.map((entry) => entry.quarantined), backgroundColor: '#e07b00' },
          { label: 'dropped', data: topic.history.map((entry) => entry.dropped), backgroundColor: '#c0392b' },
        ],
      },
      options: { scales: { y: { beginAtZero: true } } },
    }, `${topic.topicId}: items per run`))}</div>` : ''}
  </section>`;
}

export function fleetPage(fleet: Fleet, viewer: Viewer): string {
  const body = html`
    ${fleet.notes.length > 0 ? html`<div class="notes">${fleet.notes.map((note) => html`<div>${note}</div>`)}</div>` : ''}
    ${fleet.tenants.length === 0 ? html`<p class="muted">No topics under the data root yet: <code>skrya topic init &lt;id&gt;</code> makes one.</p>` : fleet.tenants.map(tenantSection)}`;
  return page({ title: 'Fleet', viewer, body, charts: true });
}
