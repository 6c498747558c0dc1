// The page's reference words on the page's thread, in the browser itself: six calls of 2^20 words (a
// worker's chunk of a 2^26-word reference) of four recipes, ns a word each. DIST is the built page with an
// empty words.html beside it (`echo '<!doctype html><title>words</title>' > DIST/words.html`):
//   python3 /opt/gpu-browser/run-page.py --serve DIST --out /tmp/words --eval "$(cat docs/results/page-pace/words-eval.js)" words.html
(async () => {
  const m = await import('./wgsweep.js');
  await m.default();
  const recipes = {
    copy: ['stream', { inputs: { seed: 7 }, kernel: 'copy' }],
    triad: ['stream', { inputs: { seed: 7 }, kernel: 'triad' }],
    coalesced: ['access', { inputs: { n: 1 << 26, seed: 7 }, pattern: 'coalesced', width: 1, parameter: 8 }],
    strided: ['access', { inputs: { n: 1 << 26, seed: 7 }, pattern: 'strided', width: 1, parameter: 8 }],
  };
  const out = {};
  for (const [name, [job, recipe]] of Object.entries(recipes)) {
    const json = JSON.stringify(recipe), words = 1 << 20, ns = [];
    for (let round = 0; round < 6; round++) {
      const t = performance.now();
      m.reference_words(job, json, round * words, (round + 1) * words);
      ns.push(+((performance.now() - t) * 1e6 / words).toFixed(1));
    }
    out[name] = ns;
  }
  return out;
})()
