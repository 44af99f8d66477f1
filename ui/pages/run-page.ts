/**
 * Run report: the ranked items with their score components and sources, merged duplicates,
 * screened items with the evidence and the neutralized spans, the drops with their reasons, the
 * plan and degradation log, the changes since the previous run, the digest and the raw responses.
 * Everything that came from a page or a provider is escaped, and screened text is shown boxed and
 * labelled as untrusted.
 */
import MarkdownIt from 'markdown-it';
import type { ScoredItem } from '../../schemas/messages.ts';
import { SafeHtml, html, markNeutralized, safeHref } from '../html.ts';
import type { Viewer } from '../access.ts';
import type { RunDocument, RunItem } from '../data/run-files.ts';
import { topicPath } from './fleet-page.ts';
import { chart, page, statusBadge, verdictBadge, when } from './layout.ts';

// Raw HTML in a digest is shown as text, and markdown-it refuses javascript:/data: link targets.
const markdown = new MarkdownIt({ html: false, linkify: false });

const COMPONENTS = ['keyword', 'freshness', 'authority', 'rank', 'agreement'] as const;
const EXCERPT_CHARS = 1_200;

function number(value: unknown): string {
  return typeof value === 'number' ? value.toFixed(3) : '–';
}

function link(title: string, url: string | null): SafeHtml {
  const href = safeHref(url);
  return href === null ? html`${title}` : html`<a href="${href}" rel="noopener noreferrer nofollow" target="_blank">${title}</a>`;
}

function untrusted(label: string, text: string): SafeHtml {
  return html`<div class="untrusted-label">${label}</div><div class="untrusted">${markNeutralized(text.length > EXCERPT_CHARS ? `${text.slice(0, EXCERPT_CHARS)}…` : text)}</div>`;
}

function components(item: RunItem): SafeHtml {
  const parts = item.score_components;
  if (parts === null) return html`<span class="muted">no intent: provider order</span>`;
  return html`${COMPONENTS.map((name) => html`<div>${name} ${number(parts[name])} <span class="muted">× ${number(parts[`weight_${name}`])}</span></div>`)}`;
}

function evidenceTable(evidence: RunItem['injection']['evidence']): SafeHtml {
  if (evidence.length === 0) return html``;
  return html`<table class="evidence"><thead><tr><th>rule</th><th>technique</th><th>field</th><th>span</th><th>text (untrusted)</th></tr></thead><tbody>${evidence.map((entry) => html`<tr>
    <td>${entry.rule}</td><td>${entry.technique}</td><td>${entry.field}</td><td class="num">${entry.start}–${entry.end}</td><td><div class="untrusted">${entry.text}</div></td></tr>`)}</tbody></table>`;
}

function itemsTable(document: RunDocument): SafeHtml {
  return html`<table class="items"><thead><tr><th class="num">#</th><th>item</th><th class="num">score</th><th>components</th><th>verdict</th><th>sources</th></tr></thead>
  <tbody>${document.items.map((item, index) => html`<tr data-item="${item.id}">
    <td class="num">${index + 1}</td>
    <td><span class="item-title">${link(item.title, item.url)}</span><div class="muted">${item.source_name ?? ''} ${item.published_at ? html`· ${when(item.published_at)}` : ''} · ${item.capability}</div></td>
    <td class="num">${number(item.score)}</td>
    <td>${components(item)}</td>
    <td>${verdictBadge(item.verdict)}${item.reasons.map((reason) => html`<div class="muted">${reason.code}</div>`)}</td>
    <td>${item.sources.map((source) => html`<div>${source.provider}</div>`)}</td>
  </tr>`)}</tbody></table>`;
}

function mergedDuplicates(document: RunDocument): SafeHtml {
  const merged = document.items.filter((item) => item.sources.length > 1);
  if (merged.length === 0) return html`<p class="muted">No copies were merged in this run.</p>`;
  return html`<ul>${merged.map((item) => html`<li><strong>${item.title}</strong> — ${item.sources.length} copies: ${item.sources.map((source, index) => html`${index > 0 ? ', ' : ''}${source.provider} ${link(source.url ?? source.item_id, source.url)}`)}</li>`)}</ul>`;
}

function screened(document: RunDocument): SafeHtml {
  const flagged = document.items.filter((item) => item.verdict === 'quarantined' || item.verdict === 'downweighted' || item.injection.evidence.length > 0);
  if (flagged.length === 0) return html`<p class="muted">No kept item was quarantined or downweighted.</p>`;
  return html`${flagged.map((item) => html`<section class="card screened" data-item="${item.id}">
    <h3>${verdictBadge(item.verdict)} ${item.title} <span class="muted">injection score ${number(item.injection.score)}</span></h3>
    ${item.reasons.map((reason) => html`<div>${reason.code} <span class="muted">${reason.field}: ${reason.message}</span></div>`)}
    ${evidenceTable(item.injection.evidence)}
    ${item.content ? untrusted('content as agents receive it (neutralized spans marked)', item.content) : ''}
    ${item.summary ? untrusted('summary', item.summary) : ''}
  </section>`)}`;
}

export type DropsResult = { drops: ScoredItem[]; problem: null } | { drops: null; problem: string };

function dropsSection(result: DropsResult, counted: number): SafeHtml {
  if (result.drops === null) return html`<div class="notes">The dropped items could not be read from scored-results: ${result.problem}</div>`;
  // scored-results keeps a week: an older run's drops are counted in its file but gone from the topic.
  const missing = counted > result.drops.length ? html`<div class="notes">The run counted ${counted} dropped result(s); scored-results still holds ${result.drops.length} of them (it keeps 7 days).</div>` : '';
  if (result.drops.length === 0) return html`${missing}${counted === 0 ? html`<p class="muted">Nothing was dropped.</p>` : ''}`;
  return html`${missing}<table class="drops"><thead><tr><th>item</th><th>reasons</th><th>evidence</th></tr></thead><tbody>${result.drops.map((item) => html`<tr data-drop="${item.id}">
    <td>${link(item.title || '(no title)', item.url)}<div class="muted">${item.producer_name} · ${item.capability}</div></td>
    <td>${item.reasons.map((reason) => html`<div><strong>${reason.code}</strong> <span class="muted">${reason.field}: ${reason.message}</span></div>`)}</td>
    <td>${evidenceTable(item.evidence)}</td></tr>`)}</tbody></table>`;
}

function degradationLog(log: unknown): SafeHtml {
  if (!Array.isArray(log) || log.length === 0) return html`<p class="muted">Empty: every planned step ran as planned.</p>`;
  const rows = log.filter((entry): entry is Record<string, unknown> => typeof entry === 'object' && entry !== null && !Array.isArray(entry));
  const keys = [...new Set(rows.flatMap((entry) => Object.keys(entry)))];
  return html`<table class="degradation"><thead><tr>${keys.map((key) => html`<th>${key}</th>`)}</tr></thead><tbody>${rows.map((entry) => html`<tr>${keys.map((key) => html`<td>${typeof entry[key] === 'object' && entry[key] !== null ? JSON.stringify(entry[key]) : String(entry[key] ?? '')}</td>`)}</tr>`)}</tbody></table>`;
}

function changes(document: RunDocument): SafeHtml {
  const found = document.changes;
  if (found === null) return html`<p class="muted">Not compared: only good runs are compared with the ones before.</p>`;
  const group = (label: string, refs: Array<{ title: string; url: string | null }>) => (refs.length === 0 ? '' : html`<h3>${label} (${refs.length})</h3><ul>${refs.map((ref) => html`<li>${link(ref.title, ref.url)}</li>`)}</ul>`);
  const total = found.new.length + found.changed.length + found.moved_in.length + found.moved_out.length + found.removed.length;
  return html`<p>Against ${found.previous_run_id ?? 'no earlier run'}: ${total === 0 ? 'nothing changed.' : ''}</p>
    ${group('new', found.new)}${group('changed', found.changed)}${group('moved in', found.moved_in)}${group('moved out', found.moved_out)}${group('removed', found.removed)}`;
}

export function runPage(options: {
  document: RunDocument;
  stamp: string;
  isLatestGood: boolean;
  digest: string | null;
  rawFiles: string[];
  drops: DropsResult;
  viewer: Viewer;
}): string {
  const { document } = options;
  const { stats } = document;
  const base = topicPath(document.tenant, document.topic_id);
  const body = html`
    <p><a href="/">Fleet</a> › tenant ${document.tenant} › <a href="${base}">${document.topic_id}</a> › ${document.run_id}</p>
    <section class="card">
      <dl class="kv">
        <dt>status</dt><dd>${statusBadge(document.status)} <span class="status-reason">${document.status_reason}</span></dd>
        <dt>requested</dt><dd>${when(document.run_requested_at)}</dd>
        <dt>retrieved</dt><dd>${when(document.retrieved_at)}</dd>
        <dt>window</dt><dd>${when(document.time_window.since)} → ${when(document.time_window.until)}</dd>
        <dt>intent</dt><dd>${document.intent ?? 'none (provider order)'}</dd>
        <dt>queries</dt><dd>${document.queries.join(' · ') || '–'}</dd>
        <dt>counts</dt><dd class="counts">${stats.raw_responses} responses, ${stats.raw_items} results: <span data-count="accepted">${stats.accepted}</span> accepted, <span data-count="downweighted">${stats.downweighted}</span> downweighted, <span data-count="quarantined">${stats.quarantined}</span> quarantined, <span data-count="dropped">${stats.dropped}</span> dropped; ${stats.merged_duplicates} duplicates merged, ${stats.cut_by_max_items} cut by max_items, ${stats.kept} kept</dd>
      </dl>
    </section>
    <div class="charts">
      ${chart('verdict-mix', {
        type: 'doughnut',
        data: { labels: ['accepted', 'downweighted', 'quarantined', 'dropped'], datasets: [{ data: [stats.accepted, stats.downweighted, stats.quarantined, stats.dropped], backgroundColor: ['#3f9c5a', '#e0b000', '#e07b00', '#c0392b'] }] },
      }, 'verdict mix')}
      ${chart('score-components', {
        type: 'bar',
        data: {
          labels: document.items.slice(0, 15).map((item, index) => `${index + 1}. ${item.title.slice(0, 30)}`),
          datasets: COMPONENTS.map((name, index) => ({
            label: name,
            stack: 's',
            backgroundColor: ['#2f5bd3', '#3f9c5a', '#8e44ad', '#e0b000', '#16a2b8'][index],
            data: document.items.slice(0, 15).map((item) => {
              const parts = item.score_components;
              const value = parts?.[name];
              const weight = parts?.[`weight_${name}`];
              return typeof value === 'number' && typeof weight === 'number' ? Number((value * weight).toFixed(4)) : 0;
            }),
          })),
        },
        options: { indexAxis: 'y', scales: { x: { stacked: true }, y: { stacked: true } } },
      }, 'weighted score components of the top items')}
    </div>
    <h2>Ranked items (${document.items.length})</h2>
    ${itemsTable(document)}
    <h2>Merged duplicates</h2>
    ${mergedDuplicates(document)}
    <h2>Quarantined and downweighted items</h2>
    ${screened(document)}
    <h2>Dropped items</h2>
    ${dropsSection(options.drops, stats.dropped)}
    <h2>Sources</h2>
    <table class="providers"><thead><tr><th>provider</th><th>capability</th><th>status</th><th>code</th><th>message</th><th class="num">calls</th><th class="num">results</th></tr></thead>
    <tbody>${stats.providers.map((status) => html`<tr><td>${status.provider}</td><td>${status.capability}</td><td>${statusBadge(status.status)}</td><td>${status.code ?? ''}</td><td>${status.message ?? ''}</td><td class="num">${status.calls}</td><td class="num">${status.results}</td></tr>`)}</tbody></table>
    <h2>Degradation log</h2>
    ${degradationLog(stats.degradation_log)}
    <h2>Plan</h2>
    ${stats.plan === null ? html`<p class="muted">No router plan (no budgeted search in this run).</p>` : html`<pre class="plan">${JSON.stringify(stats.plan, null, 2)}</pre>`}
    <h2>Changes since the previous run</h2>
    ${changes(document)}
    <h2>Digest</h2>
    ${options.isLatestGood && options.digest !== null
      ? html`<div class="digest">${new SafeHtml(markdown.render(options.digest))}</div>`
      : html`<p class="muted">digest.md speaks of the topic's last good run only${options.digest === null ? ' (none yet)' : ''}.</p>`}
    <h2>Raw responses</h2>
    ${options.rawFiles.length === 0 ? html`<p class="muted">No raw response files for this run (the sink-raw service writes them).</p>` : html`<ul class="raw-files">${options.rawFiles.map((name) => html`<li><a href="${base}/raw/${name}">${name}</a></li>`)}</ul>`}`;
  return page({ title: `Run ${document.run_id}`, viewer: options.viewer, body, charts: true });
}
