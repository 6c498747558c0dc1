// An expression for run-page.py's --eval, as `(PROBE)()`: matmul_subgroup_matrix's written-out design with
// each subgroup's block found by subgroup_id, over workgroups of SR × SC subgroups, blocks of TM × TN tiles a
// subgroup and steps of K along k, every step written out. u8 inputs of random bytes (B column by column);
// 64 sampled entries checked against JavaScript; the wall clock over 50 dispatches after one, best of 3, at
// n = 2048 and 4096.
async () => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  const device = await adapter.requestDevice({
    requiredFeatures: ["chromium-experimental-subgroup-matrix", "subgroups"],
    requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const range = n => [...Array(n).keys()];
  const kernel = (sr, sc, tm, tn, kStep) => {
    const wg = 32 * sr * sc, tileM = 16 * tm * sr, tileN = 16 * tn * sc, row = kStep + 16, lineLoads = kStep / 16;
    const aWords = tileM * row / 4, bWords = tileN * row / 4;
    const aLoads = tileM * lineLoads / wg, bLoads = tileN * lineLoads / wg;
    if (!Number.isInteger(aLoads) || !Number.isInteger(bLoads)) return null;
    const L = [];
    L.push(`enable chromium_experimental_subgroup_matrix;
enable subgroups;
diagnostic(off, chromium_experimental.subgroup_matrix_uniformity);
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
@compute @workgroup_size(${wg})
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) local: u32, @builtin(subgroup_id) subgroup: u32) {
  let row0 = group.y * ${tileM}u;
  let col0 = group.x * ${tileN}u;
  let line = N / 16u;
  let sub_row = subgroup / ${sc}u * ${tm * 16}u;
  let sub_col = subgroup % ${sc}u * ${tn * 16}u;
  let mine = local / ${lineLoads}u;
  let part = local % ${lineLoads}u;`);
    for (const i of range(aLoads)) L.push(`  var a${i} = a[(row0 + mine + ${i * wg / lineLoads}u) * line + part];`);
    for (const i of range(bLoads)) L.push(`  var b${i} = b[(col0 + mine + ${i * wg / lineLoads}u) * line + part];`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  var s${i}_${j} = Result();`);
    L.push(`  let steps = N / ${kStep}u;
  for (var step = 0u; step < steps; step++) {
    let here = step % 2u;`);
    const store = (name, words, count) => range(count).map(i => `    { let at = here * ${words}u + (mine + ${i * wg / lineLoads}u) * ${row / 4}u + part * 4u;
      ${name}_tiles[at] = ${name}${i}.x; ${name}_tiles[at + 1u] = ${name}${i}.y; ${name}_tiles[at + 2u] = ${name}${i}.z; ${name}_tiles[at + 3u] = ${name}${i}.w; }`).join("\n");
    L.push(store("a", aWords, aLoads), store("b", bWords, bLoads));
    L.push(`    workgroupBarrier();
    if step + 1u < steps {
      let k = (step + 1u) * ${lineLoads}u;`);
    for (const i of range(aLoads)) L.push(`      a${i} = a[(row0 + mine + ${i * wg / lineLoads}u) * line + k + part];`);
    for (const i of range(bLoads)) L.push(`      b${i} = b[(col0 + mine + ${i * wg / lineLoads}u) * line + k + part];`);
    L.push(`    }`);
    for (const kk of range(kStep / 32)) {
      for (const i of range(tm)) L.push(`    let l${kk}_${i} = subgroupMatrixLoad<Left>(&a_tiles, here * ${aWords * 4}u + (sub_row + ${i * 16}u) * ${row}u + ${kk * 32}u, false, ${row}u);`);
      for (const j of range(tn)) L.push(`    let r${kk}_${j} = subgroupMatrixLoad<Right>(&b_tiles, here * ${bWords * 4}u + (sub_col + ${j * 16}u) * ${row}u + ${kk * 32}u, true, ${row}u);`);
      for (const i of range(tm)) for (const j of range(tn)) L.push(`    s${i}_${j} = subgroupMatrixMultiplyAccumulate(l${kk}_${i}, r${kk}_${j}, s${i}_${j});`);
    }
    L.push(`  }`);
    L.push(`  let out = (row0 + sub_row) * N + col0 + sub_col;`);
    for (const i of range(tm)) for (const j of range(tn)) L.push(`  subgroupMatrixStore(&c, out + ${i * 16}u * N + ${j * 16}u, s${i}_${j}, false, N);`);
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
  for (const [sr, sc, tm, tn, k] of [[2, 2, 2, 4, 32], [2, 2, 2, 4, 64], [2, 2, 4, 4, 32], [2, 2, 4, 2, 32], [1, 2, 4, 4, 32], [2, 1, 4, 4, 32], [4, 2, 2, 4, 32], [2, 4, 2, 2, 32], [4, 4, 2, 2, 32]]) {
    const code = kernel(sr, sc, tm, tn, k);
    if (code) variants.push({ shape: { subgroups: [sr, sc], tiles: [tm, tn], kStep: k, block: [16 * tm * sr, 16 * tn * sc] }, code });
  }
  for (const { shape, code } of variants) {
    device.pushErrorScope("validation");
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter(m => m.type === "error").map(m => `${m.lineNum}:${m.linePos} ${m.message.split("\n")[0]}`);
    const scoped = await device.popErrorScope();
    if (scoped) errors.push(scoped.message.split("\n")[0]);
    if (errors.length) { report.push({ ...shape, errors }); continue; }
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
        device.queue.submit([dispatch(50).finish()]);
        await device.queue.onSubmittedWorkDone();
        times.push((performance.now() - start) / 50);
      }
      const ms = Math.min(...times);
      report.push({ ...shape, n, wrong, ms, tops: 2 * n ** 3 / (ms * 1e-3) / 1e12 });
      gc.destroy(); read.destroy();
    }
  }
  return report;
}
