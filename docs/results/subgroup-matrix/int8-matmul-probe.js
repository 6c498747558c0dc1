// An expression for run-page.py's --eval: a first int8 matrix product on Chromium's subgroup matrices (u8
// inputs, u32 results, 16×16×32 tiles), n × n, each 32-invocation workgroup (one subgroup) computing a 32 × 32
// block of C from storage, K in steps of 32. Validated against JavaScript (every entry at n = 256, 256
// sampled entries above), timed by the wall clock over 20 dispatches after one warm-up, best of 3.
(async () => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  if (!adapter.features.has("chromium-experimental-subgroup-matrix")) return { error: "no subgroup matrices" };
  const device = await adapter.requestDevice({ requiredFeatures: ["chromium-experimental-subgroup-matrix", "subgroups"] });
  const code = `enable chromium_experimental_subgroup_matrix;
override N: u32;
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read_write> c: array<u32>;
@compute @workgroup_size(32)
fn main(@builtin(workgroup_id) wid: vec3<u32>) {
  let row = wid.y * 32u;
  let col = wid.x * 32u;
  var c00 = subgroup_matrix_result<u32, 16, 16>();
  var c01 = subgroup_matrix_result<u32, 16, 16>();
  var c10 = subgroup_matrix_result<u32, 16, 16>();
  var c11 = subgroup_matrix_result<u32, 16, 16>();
  for (var k = 0u; k < N; k += 32u) {
    let a0 = subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>>(&a, row * N + k, false, N);
    let a1 = subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>>(&a, (row + 16u) * N + k, false, N);
    let b0 = subgroupMatrixLoad<subgroup_matrix_right<u8, 16, 32>>(&b, k * N + col, false, N);
    let b1 = subgroupMatrixLoad<subgroup_matrix_right<u8, 16, 32>>(&b, k * N + col + 16u, false, N);
    c00 = subgroupMatrixMultiplyAccumulate(a0, b0, c00);
    c01 = subgroupMatrixMultiplyAccumulate(a0, b1, c01);
    c10 = subgroupMatrixMultiplyAccumulate(a1, b0, c10);
    c11 = subgroupMatrixMultiplyAccumulate(a1, b1, c11);
  }
  subgroupMatrixStore(&c, row * N + col, c00, false, N);
  subgroupMatrixStore(&c, row * N + col + 16u, c01, false, N);
  subgroupMatrixStore(&c, (row + 16u) * N + col, c10, false, N);
  subgroupMatrixStore(&c, (row + 16u) * N + col + 16u, c11, false, N);
}`;
  const module = device.createShaderModule({ code });
  const info = await module.getCompilationInfo();
  const errors = info.messages.filter(m => m.type === "error").map(m => `${m.lineNum}:${m.linePos} ${m.message.split("\n")[0]}`);
  if (errors.length) return { errors };
  const report = { runs: [] };
  for (const n of [256, 2048, 4096]) {
    const pipeline = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main", constants: { N: n } } });
    // Bytes 0..3, so no sum of n products overflows u32 for any n here.
    const bytes = seed => { const x = new Uint8Array(n * n); let s = seed; for (let i = 0; i < x.length; i++) { s = (s * 1664525 + 1013904223) >>> 0; x[i] = s >>> 30; } return x; };
    const A = bytes(1), B = bytes(2);
    const buffer = (data, usage) => { const g = device.createBuffer({ size: data.byteLength, usage: usage | GPUBufferUsage.COPY_DST }); device.queue.writeBuffer(g, 0, data); return g; };
    const ga = buffer(A, GPUBufferUsage.STORAGE), gb = buffer(B, GPUBufferUsage.STORAGE);
    const gc = device.createBuffer({ size: n * n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: n * n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries: [ga, gb, gc].map((buffer, binding) => ({ binding, resource: { buffer } })) });
    const dispatch = times => {
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline); pass.setBindGroup(0, group);
      for (let t = 0; t < times; t++) pass.dispatchWorkgroups(n / 32, n / 32);
      pass.end();
      return encoder;
    };
    device.pushErrorScope("validation");
    const first = dispatch(1); first.copyBufferToBuffer(gc, 0, read, 0, n * n * 4); device.queue.submit([first.finish()]);
    const error = await device.popErrorScope();
    if (error) { report.runs.push({ n, error: error.message }); continue; }
    await read.mapAsync(GPUMapMode.READ);
    const C = new Uint32Array(read.getMappedRange().slice(0)); read.unmap();
    const want = (i, j) => { let s = 0; for (let k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j]; return s; };
    let checked = 0, wrong = 0, firstWrong = null;
    const check = (i, j) => { checked++; if (C[i * n + j] !== want(i, j)) { wrong++; firstWrong ??= { i, j, got: C[i * n + j], want: want(i, j) }; } };
    if (n === 256) { for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) check(i, j); }
    else { let s = 7; for (let t = 0; t < 256; t++) { s = (s * 1664525 + 1013904223) >>> 0; check(s % n, (s >>> 8) % n); } }
    const times = [];
    for (let r = 0; r < 3; r++) {
      const reps = 20;
      const start = performance.now();
      device.queue.submit([dispatch(reps).finish()]);
      await device.queue.onSubmittedWorkDone();
      times.push((performance.now() - start) / reps);
    }
    const ms = Math.min(...times);
    report.runs.push({ n, checked, wrong, firstWrong, ms_per_dispatch: ms, tops: 2 * n ** 3 / (ms * 1e-3) / 1e12 });
    [ga, gb, gc, read].forEach(g => g.destroy());
  }
  return report;
})().catch(e => ({ error: String(e) }))
