// Whether making a pipeline that takes long to compile holds up the work the page keeps queued, in
// createComputePipeline against createComputePipelineAsync. A pump keeps 20 ms of short passes queued (each
// submitted as one before it is done, as wgsweep's samples are), each timed by timestamps; 100 ms in, a
// large module (a few thousand statements, a seed of its own each time, so that no cache holds it) is made
// into a pipeline one way or the other; the pump runs 1.5 s. From the passes' timestamps: the longest time
// the GPU sat idle between two, and the idle time in all. On the device machine, with the kit installed:
//   python3 /opt/gpu-browser/run-page.py --serve docs/results/rewarm/async-probe --out "$OUT/probe" \
//       --wait-selector '#done' --eval 'JSON.parse(document.getElementById("done").textContent)' probe.html
const out = document.getElementById("out");
const busy = `@group(0) @binding(0) var<storage, read_write> o: array<f32>;
override ITER: u32;
@compute @workgroup_size(256)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
  var x = f32(id.x);
  var y = 1.0001;
  for (var i = 0u; i < ITER; i++) { x = fma(x, y, 0.5); y = fma(y, x, -0.25); }
  o[id.x] = x + y;
}`;
// A module whose compilation takes long: `statements` multiply-adds over 64 values.
function large(seed, statements) {
  const lines = ["@group(0) @binding(0) var<storage, read_write> o: array<f32>;",
    "@compute @workgroup_size(64)", "fn main(@builtin(global_invocation_id) id: vec3<u32>) {"];
  for (let v = 0; v < 64; v++) lines.push(`  var a${v} = o[id.x * 64u + ${v}u];`);
  for (let j = 0; j < statements; j++) {
    lines.push(`  a${j % 64} = fma(a${(j * 7 + 3) % 64}, a${(j * 13 + 5) % 64}, ${(seed + j * 1e-7).toFixed(9)});`);
  }
  for (let v = 0; v < 64; v++) lines.push(`  o[id.x * 64u + ${v}u] = a${v};`);
  lines.push("}");
  return lines.join("\n");
}
// Smaller on a CPU adapter (?iter=…&statements=…&groups=…), to try the probe out.
const asked = new URLSearchParams(location.search);
const ITER = Number(asked.get("iter") ?? 400000);
const GROUPS = Number(asked.get("groups") ?? 1024);
const SIZES = (asked.get("statements") ?? "4000,16000").split(",").map(Number);
const results = { trials: [] };
try {
  const adapter = await navigator.gpu.requestAdapter();
  results.adapter = adapter.info?.description ?? "";
  const device = await adapter.requestDevice({ requiredFeatures: ["timestamp-query"] });
  const buffer = device.createBuffer({ size: 64 << 20, usage: GPUBufferUsage.STORAGE });
  const pump = device.createComputePipeline({ layout: "auto",
    compute: { module: device.createShaderModule({ code: busy }), entryPoint: "main", constants: { ITER } } });
  const group = device.createBindGroup({ layout: pump.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer } }] });
  const MAX = 2048;
  async function trial(mode, seed, statements) {
    const set = device.createQuerySet({ type: "timestamp", count: 2 * MAX });
    const resolve = device.createBuffer({ size: 16 * MAX, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: 16 * MAX, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    let passes = 0, inFlight = 0, compile = null;
    const start = performance.now();
    const submitOne = () => {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass({ timestampWrites: { querySet: set, beginningOfPassWriteIndex: 2 * passes, endOfPassWriteIndex: 2 * passes + 1 } });
      pass.setPipeline(pump); pass.setBindGroup(0, group); pass.dispatchWorkgroups(GROUPS); pass.end();
      device.queue.submit([encoder.finish()]);
      passes++; inFlight++;
      device.queue.onSubmittedWorkDone().then(() => { inFlight--; });
    };
    // About 20 ms queued (the pass's length is measured below; 4 passes ahead).
    while (performance.now() - start < 1500 && passes < MAX) {
      while (inFlight < 4 && passes < MAX) submitOne();
      if (compile === null && performance.now() - start > 100) {
        const code = large(seed, statements);
        const called = performance.now();
        const module = device.createShaderModule({ code });
        const descriptor = { layout: "auto", compute: { module, entryPoint: "main" } };
        if (mode === "sync") {
          device.createComputePipeline(descriptor);
          compile = { called: called - start, returned: performance.now() - start };
        } else {
          compile = { called: called - start };
          device.createComputePipelineAsync(descriptor).then(() => { compile.resolved = performance.now() - start; });
        }
      }
      await new Promise((r) => setTimeout(r, 1));
    }
    await device.queue.onSubmittedWorkDone();
    const encoder = device.createCommandEncoder();
    encoder.resolveQuerySet(set, 0, 2 * passes, resolve, 0);
    encoder.copyBufferToBuffer(resolve, 0, read, 0, 16 * passes);
    device.queue.submit([encoder.finish()]);
    await read.mapAsync(GPUMapMode.READ);
    const t = new BigInt64Array(read.getMappedRange().slice(0));
    read.unmap();
    let longest = 0, idle = 0, busyNs = 0;
    for (let i = 0; i < passes; i++) {
      busyNs += Number(t[2 * i + 1] - t[2 * i]);
      if (i > 0) {
        const gap = Number(t[2 * i] - t[2 * i - 1]);
        if (gap > 0) { idle += gap; longest = Math.max(longest, gap); }
      }
    }
    return { mode, statements, passes, pass_ms: busyNs / passes / 1e6, longest_idle_ms: longest / 1e6, idle_ms: idle / 1e6,
             span_ms: Number(t[2 * passes - 1] - t[0]) / 1e6, compile };
  }
  let seed = 0.5;
  for (const statements of SIZES) {
    for (const mode of ["sync", "async", "sync", "async"]) {
      seed += 0.001;
      results.trials.push(await trial(mode, seed, statements));
      out.textContent = JSON.stringify(results, null, 1);
    }
  }
} catch (e) {
  results.error = String(e?.stack ?? e);
}
const done = document.createElement("pre");
done.id = "done";
done.textContent = JSON.stringify(results);
document.body.append(done);
out.textContent = JSON.stringify(results, null, 1);
