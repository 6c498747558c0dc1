// An expression for run-page.py's --eval, as `(PROBE)()`: matmul_subgroup_matrix's design with every loop
// written out, one subgroup a workgroup, u8 inputs of random bytes (B column by column): staged through
// workgroup memory (`kernel`: TM × TN tiles, K_STEP a step) or loaded straight from storage (`direct`).
// Each: compiled, 64 sampled entries checked against JavaScript, timed by the wall clock over 20 dispatches
// after one warm-up, best of 3, at n = 2048 and 4096.
async () => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  const device = await adapter.requestDevice({
    requiredFeatures: ["chromium-experimental-subgroup-matrix", "subgroups"],
    requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const range = n => [...Array(n).keys()];
  // One subgroup a workgroup, TM × TN tiles, K_STEP staged a step, every loop written out.
  const kernel = (tm, tn, kStep, prefetch) => {
    const row = kStep + 16, lineLoads = kStep / 16, aLoads = tm * 16 * lineLoads / 32, bLoads = tn * 16 * lineLoads / 32;
    const aWords = tm * 16 * row / 4, bWords = tn * 16 * row / 4;
    const L = [];
    L.push(`enable chromium_experimental_subgroup_matrix;
alias Word = u32;
alias Left = subgroup_matrix_left<u8, 32, 16>;
alias Right = subgroup_matrix_right<u8, 16, 32>;
alias Result = subgroup_matrix_result<u32, 16, 16>;
override N: u32;
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<Word>;
var<workgroup> a_tiles: array<Word, ${2 * aWords}>;
var<workgroup> b_tiles: array<Word, ${2 * bWords}>;
@compute @workgroup_size(32)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) local: u32) {
  let row0 = group.y * ${tm * 16}u;
  let col0 = group.x * ${tn * 16}u;
  let line = N / 16u;`);
    for (const i of range(aLoads)) L.push(`  var a${i} = a[(row0 + ${i * 32 / lineLoads}u + local / ${lineLoads}u) * line + local % ${lineLoads}u];`);
    for (const i of range(bLoads)) L.push(`  var b${i} = b[(col0 + ${i * 32 / lineLoads}u + local / ${lineLoads}u) * line + local % ${lineLoads}u];`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  var s${i}${j} = Result();`);
    L.push(`  let steps = N / ${kStep}u;
  for (var step = 0u; step < steps; step++) {
    let here = step % 2u;`);
    const store = (name, words, count) => range(count).map(i => `    { let at = here * ${words}u + (${i * 32 / lineLoads}u + local / ${lineLoads}u) * ${row / 4}u + local % ${lineLoads}u * 4u;
      ${name}_tiles[at] = ${name}${i}.x; ${name}_tiles[at + 1u] = ${name}${i}.y; ${name}_tiles[at + 2u] = ${name}${i}.z; ${name}_tiles[at + 3u] = ${name}${i}.w; }`).join("\n");
    L.push(store("a", aWords, aLoads), store("b", bWords, bLoads));
    L.push(`    workgroupBarrier();
    if step + 1u < steps {
      let k = (step + 1u) * ${lineLoads}u;`);
    for (const i of range(aLoads)) L.push(`      a${i} = a[(row0 + ${i * 32 / lineLoads}u + local / ${lineLoads}u) * line + k + local % ${lineLoads}u];`);
    for (const i of range(bLoads)) L.push(`      b${i} = b[(col0 + ${i * 32 / lineLoads}u + local / ${lineLoads}u) * line + k + local % ${lineLoads}u];`);
    L.push(`    }`);
    for (const kk of range(kStep / 32)) {
      for (const i of range(tm)) L.push(`    let l${kk}${i} = subgroupMatrixLoad<Left>(&a_tiles, here * ${aWords * 4}u + ${i * 16 * row + kk * 32}u, false, ${row}u);`);
      for (const j of range(tn)) L.push(`    let r${kk}${j} = subgroupMatrixLoad<Right>(&b_tiles, here * ${bWords * 4}u + ${j * 16 * row + kk * 32}u, true, ${row}u);`);
      for (const i of range(tm)) for (const j of range(tn)) L.push(`    s${i}${j} = subgroupMatrixMultiplyAccumulate(l${kk}${i}, r${kk}${j}, s${i}${j});`);
    }
    L.push(`  }`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  subgroupMatrixStore(&c, (row0 + ${i * 16}u) * N + col0 + ${j * 16}u, s${i}${j}, false, N);`);
    L.push(`}`);
    return L.join("\n");
  };
  // No workgroup memory: each step's fragments straight from storage (A row by row, B column by column);
  // with `prefetch`, the next step's loaded before this step's products.
  const direct = (tm, tn, prefetch) => {
    const L = [];
    L.push(`enable chromium_experimental_subgroup_matrix;
alias Word = u32;
alias Left = subgroup_matrix_left<u8, 32, 16>;
alias Right = subgroup_matrix_right<u8, 16, 32>;
alias Result = subgroup_matrix_result<u32, 16, 16>;
override N: u32;
@group(0) @binding(0) var<storage, read> a: array<Word>;
@group(0) @binding(1) var<storage, read> b: array<Word>;
@group(0) @binding(2) var<storage, read_write> c: array<Word>;
@compute @workgroup_size(32)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>) {
  let row0 = group.y * ${tm * 16}u;
  let col0 = group.x * ${tn * 16}u;`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  var s${i}${j} = Result();`);
    const loads = (k, decl) => {
      for (const i of range(tm)) L.push(`  ${decl}l${i} = subgroupMatrixLoad<Left>(&a, (row0 + ${i * 16}u) * N + ${k}, false, N);`);
      for (const j of range(tn)) L.push(`  ${decl}r${j} = subgroupMatrixLoad<Right>(&b, (col0 + ${j * 16}u) * N + ${k}, true, N);`);
    };
    if (prefetch) loads("0u", "var ");
    L.push(`  for (var k = 0u; k < N; k += 32u) {`);
    if (prefetch) {
      for (const i of range(tm)) L.push(`    let x${i} = l${i};`);
      for (const j of range(tn)) L.push(`    let y${j} = r${j};`);
      L.push(`    if k + 32u < N {`);
      loads("k + 32u", "  ");
      L.push(`    }`);
      for (const i of range(tm)) for (const j of range(tn)) L.push(`    s${i}${j} = subgroupMatrixMultiplyAccumulate(x${i}, y${j}, s${i}${j});`);
    } else {
      loads("k", "  let ");
      for (const i of range(tm)) for (const j of range(tn)) L.push(`    s${i}${j} = subgroupMatrixMultiplyAccumulate(l${i}, r${j}, s${i}${j});`);
    }
    L.push(`  }`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  subgroupMatrixStore(&c, (row0 + ${i * 16}u) * N + col0 + ${j * 16}u, s${i}${j}, false, N);`);
    L.push(`}`);
    return L.join("\n");
  };
  const report = [];
  const inputs = {};
  for (const n of [2048, 4096]) {
    const bytes = seed => { const x = new Uint8Array(n * n); let s = seed; for (let i = 0; i < x.length; i++) { s = (s * 1664525 + 1013904223) >>> 0; x[i] = s >>> 24; } return x; };
    const A = bytes(1), B = bytes(2);
    const buffer = data => { const g = device.createBuffer({ size: data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }); device.queue.writeBuffer(g, 0, data); return g; };
    inputs[n] = { A, B, ga: buffer(A), gb: buffer(B) };
  }
  const variants = [];
  for (const [tm, tn, k] of [[2, 4, 32], [2, 4, 64]])
    variants.push({ shape: { explicit: true, tiles: [tm, tn], kStep: k, block: [tm * 16, tn * 16] }, code: kernel(tm, tn, k) });
  for (const [tm, tn, prefetch] of [[2, 2, false], [2, 4, false], [4, 2, false], [4, 4, false], [2, 4, true], [4, 4, true]])
    variants.push({ shape: { direct: true, prefetch, tiles: [tm, tn], block: [tm * 16, tn * 16] }, code: direct(tm, tn, prefetch) });
  for (const { shape, code } of variants) {
    device.pushErrorScope("validation");
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter(m => m.type === "error").map(m => `${m.lineNum}:${m.linePos} ${m.message.split("\n")[0]}`);
    const scoped = await device.popErrorScope();
    if (scoped) errors.push(scoped.message.split("\n")[0]);
    if (errors.length) { report.push({ ...shape, errors, code: code.slice(0, 3000) }); continue; }
    for (const n of [2048, 4096]) {
      const { A, B, ga, gb } = inputs[n];
      device.pushErrorScope("validation");
      const p = await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "matmul_subgroup_matrix", constants: { N: n } } }).catch(e => String(e.message));
      const pe = await device.popErrorScope();
      if (typeof p === "string" || pe) { report.push({ ...shape, n, errors: [String(p).slice(0, 300), pe && pe.message.slice(0, 300)] }); continue; }
      const gc = device.createBuffer({ size: n * n * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
      const read = device.createBuffer({ size: n * n * 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const group = device.createBindGroup({ layout: p.getBindGroupLayout(0), entries: [ga, gb, gc].map((buffer, binding) => ({ binding, resource: { buffer } })) });
      const dispatch = times => {
        const encoder = device.createCommandEncoder();
        const pass = encoder.beginComputePass();
        pass.setPipeline(p); pass.setBindGroup(0, group);
        for (let t = 0; t < times; t++) pass.dispatchWorkgroups(n / shape.block[1], n / shape.block[0]);
        pass.end();
        return encoder;
      };
      const first = dispatch(1); first.copyBufferToBuffer(gc, 0, read, 0, n * n * 4); device.queue.submit([first.finish()]);
      await read.mapAsync(GPUMapMode.READ);
      const C = new Uint32Array(read.getMappedRange().slice(0)); read.unmap();
      let wrong = 0, s = 7;
      for (let t = 0; t < 64; t++) {
        s = (s * 1664525 + 1013904223) >>> 0; const i = s % n; s = (s * 1664525 + 1013904223) >>> 0; const j = s % n;
        let want = 0; for (let k = 0; k < n; k++) want += A[i * n + k] * B[j * n + k];
        if (C[i * n + j] !== want) wrong++;
      }
      const times = [];
      for (let r = 0; r < 3; r++) {
        const start = performance.now();
        device.queue.submit([dispatch(20).finish()]);
        await device.queue.onSubmittedWorkDone();
        times.push((performance.now() - start) / 20);
      }
      const ms = Math.min(...times);
      report.push({ ...shape, n, wrong, ms, tops: 2 * n ** 3 / (ms * 1e-3) / 1e12 });
      gc.destroy(); read.destroy();
    }
  }
  return report;
}
