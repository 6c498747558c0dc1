// The page's Chart.js: the chart types, scales and plugins the page draws with, the heatmap chart type, the
// page's colours and the whiskers of the figures' intervals, bundled by esbuild (`cargo xtask dist`) into
// one script that sets the global `Chart` the app draws with. Every chart type and scale Chart.js ships
// (its UMD build) would be 10 KB more gzipped. A file of its own, not inline: the page's
// Content-Security-Policy runs no inline script.
import {
  BarController, BarElement, CategoryScale, Chart, Legend, LineController, LineElement, LinearScale,
  LogarithmicScale, PointElement, ScatterController, Title, Tooltip,
} from "chart.js";
import { MatrixController, MatrixElement } from "chartjs-chart-matrix";

Chart.register(
  BarController, BarElement, CategoryScale, Legend, LineController, LineElement, LinearScale, LogarithmicScale,
  PointElement, ScatterController, Title, Tooltip, MatrixController, MatrixElement,
);

// Chart text and grid lines follow the page's colour scheme (www/style.css).
if (matchMedia("(prefers-color-scheme: dark)").matches) {
  Chart.defaults.color = "#c9d1dc";
  Chart.defaults.borderColor = "#3a4252";
}

// The first Intl.NumberFormat loads the locale's data (tens of milliseconds), and Chart.js's first chart runs
// much of the library for the first time (a run's first chart took 62–69 ms on an H200's host, its one task
// over 50 ms): done beforehand, once the page's start is over (`warmCharts`), while the page is idle, a step
// a task, each step's chart on a canvas no one sees. On a 2-core machine the first chart with no axes took
// 29–34 ms, the next with axes 31–33, and each after 9–20 ms; in one task, 39–63.
const idle = window.requestIdleCallback ?? setTimeout;
const canvas = () => document.createElement("canvas");
const quiet = { animation: false, responsive: false, plugins: { legend: { display: false }, tooltip: { enabled: false } } };
const points = (label) => ({ labels: ["1", "2"], datasets: [{ label, data: [1, 2], intervals: [[0.5, 1.5], null] }] });
const drawn = (type, data, options) => new Chart(canvas(), { type, data, options }).destroy();
const warmUps = [
  () => new Intl.NumberFormat(Chart.defaults.locale).format(1),
  () => drawn("line", { datasets: [] }, { ...quiet, scales: { x: { display: false }, y: { display: false } } }),
  () => drawn("line", points("line"), quiet),
  ...["line", "bar"].map((type) => () => drawn(type, points(type), {
    animation: false, responsive: false,
    plugins: { legend: { position: "right" }, title: { display: true, text: type } },
    scales: { x: { title: { display: true, text: "x" } }, y: { title: { display: true, text: "y" }, beginAtZero: true } },
  })),
];
// A result opened from a link draws its first chart before the page is ever idle (its one task over 50 ms
// on an H200's host, 111–131 ms, in Chart.js's first tick labels): the page asks for the rest of the steps
// then (`chartsWarmed`), each in a task of its own without waiting for idleness, and draws once they ran.
let started = false;
let hurried = false;
let finish;
const warmed = new Promise((resolve) => { finish = resolve; });
const warmNext = () => {
  const warmUp = warmUps.shift();
  if (!warmUp) return finish();
  const step = () => { warmUp(); warmNext(); };
  // A step that waits for idleness runs within 200 ms all the same: a hurried chain waits no longer.
  if (hurried) setTimeout(step); else idle(step, { timeout: 200 });
};
const start = () => {
  if (!started) { started = true; warmNext(); }
};
window.warmCharts = start;
window.chartsWarmed = () => { hurried = true; start(); return warmed; };

// Whiskers for the 95 % intervals of the figures a chart draws: a dataset's `intervals` holds, point by
// point, [low, high] in the value axis's unit, or null (src/charts.rs). Chart.js draws no error bars, and
// chartjs-chart-error-bars would bring chart types of its own (and their data shape) for these few lines.
Chart.register({
  id: "intervals",
  afterDatasetsDraw(chart) {
    const { ctx, scales: { y } } = chart;
    chart.data.datasets.forEach((dataset, i) => {
      if (!dataset.intervals || !chart.isDatasetVisible(i)) return;
      ctx.save();
      ctx.strokeStyle = dataset.borderColor;
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      chart.getDatasetMeta(i).data.forEach((point, j) => {
        const ends = dataset.intervals[j];
        if (!ends || point.skip) return;
        const [top, bottom] = [y.getPixelForValue(ends[1]), y.getPixelForValue(ends[0])];
        for (const end of [top, bottom]) {
          ctx.moveTo(point.x - 4, end);
          ctx.lineTo(point.x + 4, end);
        }
        ctx.moveTo(point.x, top);
        ctx.lineTo(point.x, bottom);
      });
      ctx.stroke();
      ctx.restore();
    });
  },
});

window.Chart = Chart;
