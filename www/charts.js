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

// The first Intl.NumberFormat loads the locale's data (tens of milliseconds): made while the page is idle,
// not inside the first chart's task, whose tick labels Chart.js formats with one.
(window.requestIdleCallback ?? setTimeout)(() => new Intl.NumberFormat(Chart.defaults.locale).format(1));

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
