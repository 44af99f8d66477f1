/** Pipeline health: consumer lag per stage and partition, throughput, lag over time, dead letters by reason code, schema versions. */
import type { GroupLag } from '../../runtime/consumer-lag.ts';
import type { StoredDeadLetter, UnreadableDeadLetter } from '../../runtime/dead-letters.ts';
import type { SubjectVersions } from '../../runtime/registry-subjects.ts';
import { letterAddress } from '../../services/dlq/index.ts';
import { html, type SafeHtml } from '../html.ts';
import type { Viewer } from '../access.ts';
import type { LagSample } from '../data/lag-history.ts';
import { chart, page, when } from './layout.ts';

export type Loaded<T> = { value: T; problem: null } | { value: null; problem: string };

const COLORS = ['#2f5bd3', '#3f9c5a', '#e07b00', '#8e44ad', '#c0392b', '#16a2b8'];

function lagSection(lag: Loaded<Array<GroupLag & { service: string }>>, throughput: Record<string, number | null>): SafeHtml {
  if (lag.value === null) return html`<div class="notes">Consumer lag could not be read: ${lag.problem}</div>`;
  return html`<table class="lag"><thead><tr><th>stage</th><th>group</th><th>topic</th><th class="num">partition</th><th class="num">committed</th><th class="num">end</th><th class="num">lag</th></tr></thead><tbody>
    ${lag.value.map((group) => html`
      <tr class="lag-total" data-service="${group.service}"><td><strong>${group.service}</strong></td><td>${group.groupId}</td><td colspan="4">${group.partitions.length === 0 ? 'no committed offsets yet' : html`total · throughput ${throughput[group.groupId] == null ? 'needs two samples' : `${throughput[group.groupId]!.toFixed(2)} msg/s`}`}</td><td class="num"><strong>${group.total}</strong></td></tr>
      ${group.partitions.map((partition) => html`<tr data-service="${group.service}" data-partition="${partition.partition}"><td></td><td></td><td>${partition.topic}</td><td class="num">${partition.partition}</td><td class="num">${partition.committed ?? '–'}</td><td class="num">${partition.end}</td><td class="num lag-value">${partition.lag}</td></tr>`)}`)}
  </tbody></table>`;
}

function deadLetterSection(letters: Loaded<{ letters: StoredDeadLetter[]; unreadable: UnreadableDeadLetter[] }>): SafeHtml {
  if (letters.value === null) return html`<div class="notes">Dead letters could not be read: ${letters.problem}</div>`;
  const byCode = new Map<string, StoredDeadLetter[]>();
  for (const stored of letters.value.letters) byCode.set(stored.letter.reason_code, [...(byCode.get(stored.letter.reason_code) ?? []), stored]);
  if (byCode.size === 0 && letters.value.unreadable.length === 0) return html`<p class="muted">No dead letters.</p>`;
  return html`
    <table class="dlq-codes"><thead><tr><th>reason code</th><th class="num">letters</th></tr></thead><tbody>${[...byCode].map(([code, group]) => html`<tr data-code="${code}"><td>${code}</td><td class="num">${group.length}</td></tr>`)}</tbody></table>
    ${[...byCode].map(([code, group]) => html`<h3>${code}</h3>
      <table class="dlq"><thead><tr><th>address</th><th>failed at</th><th>stage</th><th>source</th><th>tenant</th><th>error (untrusted)</th></tr></thead><tbody>
      ${group.map((stored) => html`<tr data-letter="${letterAddress(stored)}"><td>${letterAddress(stored)}</td><td>${when(stored.letter.failed_at)}</td><td>${stored.letter.stage}</td><td>${stored.letter.source_topic}[${stored.letter.source_partition}]@${stored.letter.source_offset}</td><td>${stored.letter.tenant ?? '–'}</td><td><div class="untrusted">${stored.letter.error_message}</div></td></tr>`)}
      </tbody></table>`)}
    ${letters.value.unreadable.map((entry) => html`<div class="notes">${entry.partition}:${entry.offset} unreadable letter (${entry.code}): ${entry.message}</div>`)}
    <p class="muted">Inspect one in full with <code>skrya dlq show &lt;partition&gt;:&lt;offset&gt;</code>; re-drive after a fix with <code>skrya dlq replay</code>.</p>`;
}

export function healthPage(options: {
  lag: Loaded<Array<GroupLag & { service: string }>>;
  samples: readonly LagSample[];
  throughput: Record<string, number | null>;
  letters: Loaded<{ letters: StoredDeadLetter[]; unreadable: UnreadableDeadLetter[] }>;
  subjects: Loaded<SubjectVersions[]>;
  viewer: Viewer;
}): string {
  const groups = options.lag.value?.map((group) => group) ?? [];
  const body = html`
    <div class="charts">
      ${chart('lag-over-time', {
        type: 'line',
        data: {
          labels: options.samples.map((sample) => new Date(sample.at).toISOString().slice(11, 19)),
          datasets: groups.map((group, index) => ({ label: group.service, data: options.samples.map((sample) => sample.groups[group.groupId]?.lag ?? null), borderColor: COLORS[index % COLORS.length] })),
        },
        options: { scales: { y: { beginAtZero: true } } },
      }, 'consumer lag over time (sampled by this UI process)')}
    </div>
    <h2>Consumer lag per stage and partition</h2>
    ${lagSection(options.lag, options.throughput)}
    <h2>Dead letters by reason code</h2>
    ${deadLetterSection(options.letters)}
    <h2>Schema subjects</h2>
    ${options.subjects.value === null ? html`<div class="notes">The registry could not be read: ${options.subjects.problem}</div>` : html`<table class="subjects"><thead><tr><th>subject</th><th>versions</th></tr></thead><tbody>${options.subjects.value.map((subject) => html`<tr data-subject="${subject.subject}"><td>${subject.subject}</td><td>${subject.versions.length === 0 ? 'not registered' : subject.versions.join(', ')}</td></tr>`)}</tbody></table>`}`;
  return page({ title: 'Pipeline health', viewer: options.viewer, body, charts: true });
}
