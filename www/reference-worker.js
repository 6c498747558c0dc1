// A Web Worker that computes CPU references off the page's thread (src/host/workers.rs). The page sends
// its compiled module first; then, one at a time, a job (a kind of work, a family and its recipe as JSON)
// and a range of items, and the worker answers with their bytes (a reference's words, sums, or a digest),
// whose memory it hands over rather than copies.
import init, { block_sums, reference_digest, reference_words } from "./wgsweep.js";

const works = { words: reference_words, sums: block_sums, digest: reference_digest };

self.onmessage = async ({ data }) => {
  try {
    if (data.module) {
      await init({ module_or_path: data.module });
      self.postMessage({ ready: true });
      return;
    }
    const began = performance.now();
    const bytes = works[data.work](data.family, data.input, data.start, data.end);
    self.postMessage({ bytes, ms: performance.now() - began }, [bytes.buffer]);
  } catch (error) {
    self.postMessage({ error: String(error) });
  }
};
