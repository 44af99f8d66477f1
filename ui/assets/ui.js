// Draws every chart on the page from the Chart.js configuration the server embedded beside it.
// Served from the project (no CDN); Chart.js is loaded before this file from node_modules.
for (const canvas of document.querySelectorAll('canvas.chart-canvas')) {
  const source = document.getElementById(`${canvas.id}-config`);
  if (!source) continue;
  const config = JSON.parse(source.textContent);
  config.options = { animation: false, responsive: true, maintainAspectRatio: false, ...config.options };
  new Chart(canvas, config);
}
document.documentElement.dataset.chartsReady = 'true';
