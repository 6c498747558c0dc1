// Run in the page (run-page.py --wait-js) before a run: keeps every console line the page writes below a
// warning, with the milliseconds since, in window.consoleLines (chromedriver's log leaves them out). The
// page writes its debug lines (`?log=debug`) only where it was built without `--release`.
(() => {
  window.consoleLines = [];
  const start = performance.now();
  for (const level of ["debug", "log", "info"]) {
    console[level] = (...parts) => window.consoleLines.push(`${(performance.now() - start).toFixed(0)} ${parts.join(" ")}`);
  }
  return true;
})()
