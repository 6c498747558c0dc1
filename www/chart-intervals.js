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
