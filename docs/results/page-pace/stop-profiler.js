// Run in the page (run-page.py --eval) after what was profiled: the samples, the long tasks and frames, and
// the run's result where the page shows one.
(async () => {
  const trace = await window.profiled.profiler.stop();
  const shown = document.getElementById("result-json")?.textContent;
  // As text: the driver cannot hand back the trace's objects as they are.
  return JSON.stringify({ trace, tasks: window.profiled.tasks, frames: window.profiled.frames,
                          result: shown ? JSON.parse(shown) : null });
})()
