// A Web Worker that computes CPU references off the page's thread (src/host/workers.rs). The page sends
// its compiled module first; then, one at a time, a job (a family and its reference's recipe as JSON) and a
// range of words, and the worker answers with their bytes, whose memory it hands over rather than copies.
import init, { reference_words } from "./wgsweep.js";

self.onmessage = async ({ data }) => {
  try {
    if (data.module) {
      await init({ module_or_path: data.module });
      self.postMessage({ ready: true });
      return;
    }
    const began = performance.now();
    const bytes = reference_words(data.job, data.input, data.start, data.end);
    self.postMessage({ bytes, ms: performance.now() - began }, [bytes.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
