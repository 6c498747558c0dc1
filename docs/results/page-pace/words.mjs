// Times the page's Web Workers' job, `reference_words`, in Node on the built page's module: six calls of
// 2^20 words (a worker's chunk of a 2^26-word reference), one family's recipe.
//   node docs/results/page-pace/words.mjs dist [coalesced|strided|random] access
//   node docs/results/page-pace/words.mjs dist [copy|triad] stream
import { readFileSync } from "fs";
import { resolve } from "path";
import { pathToFileURL } from "url";

const dist = resolve(process.argv[2] ?? "dist");
const { default: init, reference_words } = await import(pathToFileURL(`${dist}/wgsweep.js`).href);
await init({ module_or_path: readFileSync(`${dist}/wgsweep_bg.wasm`) });
const recipes = {
  access: { inputs: { n: 1 << 26, seed: 7 }, pattern: process.argv[3] ?? "coalesced", width: 1, parameter: 8 },
  stream: { inputs: { seed: 7 }, kernel: process.argv[3] ?? "copy" },
};
const job = process.argv[4] ?? "access";
const recipe = JSON.stringify(recipes[job]);
const words = 1 << 20;
for (let round = 0; round < 6; round++) {
  const started = performance.now();
  const bytes = reference_words(job, recipe, round * words, (round + 1) * words);
  const ms = performance.now() - started;
  console.log(`round ${round}: ${words} words in ${ms.toFixed(1)} ms (${((ms * 1e6) / words).toFixed(1)} ns a word), ${bytes.length} bytes`);
}
