/** The frame every page shares: navigation, who is looking, and the locally served assets. */
import { html, jsonScript, type SafeHtml } from '../html.ts';
import type { Viewer } from '../access.ts';

export function page(options: { title: string; viewer: Viewer; body: SafeHtml; charts?: boolean }): string {
  const who = options.viewer.kind === 'operator' ? 'operator' : `tenant ${options.viewer.tenant}`;
  return `<!doctype html>\n${html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Skrya</title>
<link rel="stylesheet" href="/assets/ui.css">
</head>
<body>
<header class="top">
  <a class="brand" href="/">Skrya</a>
  <nav>
    <a href="/">Fleet</a>
    ${options.viewer.kind === 'operator' ? html`<a href="/health">Pipeline health</a>` : ''}
    <a href="/replays">Replays</a>
  </nav>
  <span class="viewer">read-only · ${who}</span>
</header>
<main>
<h1>${options.title}</h1>
${options.body}
</main>
${options.charts ? html`<script src="/assets/chart.umd.min.js"></script><script src="/assets/ui.js"></script>` : ''}
</body>
</html>`}\n`;
}

/** A chart drawn by the client script (ui/assets/ui.js) from a Chart.js configuration embedded as JSON. */
export function chart(id: string, config: unknown, label: string): SafeHtml {
  return html`<figure class="chart"><canvas id="${id}" class="chart-canvas" aria-label="${label}" role="img"></canvas><figcaption>${label}</figcaption></figure>${jsonScript(`${id}-config`, config)}`;
}

export function when(iso: string | null): SafeHtml {
  if (iso === null) return html`<span class="muted">–</span>`;
  return html`<time datetime="${iso}">${iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC')}</time>`;
}

export function verdictBadge(verdict: string): SafeHtml {
  const name = verdict.toLowerCase();
  return html`<span class="badge verdict-${/^[a-z]+$/.test(name) ? name : 'unknown'}">${name}</span>`;
}

export function statusBadge(status: string): SafeHtml {
  return html`<span class="badge status-${/^[a-z_]+$/.test(status) ? status : 'unknown'}">${status}</span>`;
}
