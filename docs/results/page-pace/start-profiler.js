// Run in the page (run-page.py --wait-js) before what is to be profiled: starts the JS Self-Profiling API's
// sampler (every 10 ms, the finest Chromium gives) and keeps every longtask and long-animation-frame entry.
(() => {
  window.profiled = { profiler: new Profiler({ sampleInterval: 10, maxBufferSize: 1e6 }), tasks: [], frames: [] };
  const keep = (type, into) => new PerformanceObserver(list => into.push(...list.getEntries().map(e => e.toJSON())))
    .observe({ type, buffered: true });
  keep("longtask", window.profiled.tasks);
  keep("long-animation-frame", window.profiled.frames);
  return true;
})()
