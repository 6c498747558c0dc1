// An expression for run-page.py's --eval, as `(PROBE)()`: matmul_subgroup_matrix's written-out design in
// workgroups of SR × SC subgroups sharing each step's staged tiles, a 32 × 64 block of C each, which each
// stores: by an index from local_invocation_index in a loop over the subgroups (straight to C, `global`, or
// through workgroup memory, `scratch`), by `@builtin(subgroup_id)`, or by subgroupBroadcastFirst's index.
// u8 inputs of random bytes (B column by column); 64 sampled entries checked; the wall clock, best of 3.
async () => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  const device = await adapter.requestDevice({
    requiredFeatures: ["chromium-experimental-subgroup-matrix", "subgroups"],
    requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const range = n => [...Array(n).keys()];
  const kernel = (sr, sc, how) => {
    const wg = 32 * sr * sc, tileM = 32 * sr, tileN = 64 * sc, row = 48;
    const aWords = tileM * row / 4, bWords = tileN * row / 4;
    const aLoads = 2 * tileM / wg, bLoads = 2 * tileN / wg;
    const bSize = Math.max(2 * bWords, how === "scratch" ? 2048 : 0);
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
var<workgroup> b_tiles: array<Word, ${bSize}>;
@compute @workgroup_size(${wg})
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_index) local: u32${how === "subgroup_id" ? ", @builtin(subgroup_id) subgroup_index: u32" : ""}) {
  let row0 = group.y * ${tileM}u;
  let col0 = group.x * ${tileN}u;
  let line = N / 16u;
  let subgroup = ${how === "subgroup_id" ? "subgroup_index" : how === "broadcast" ? "subgroupBroadcastFirst(local / 32u)" : "local / 32u"};
  let sub_row = subgroup / ${sc}u * 32u;
  let sub_col = subgroup % ${sc}u * 64u;`);
    for (const i of range(aLoads)) L.push(`  var a${i} = a[(row0 + (local + ${i * wg}u) / 2u) * line + local % 2u];`);
    for (const i of range(bLoads)) L.push(`  var b${i} = b[(col0 + (local + ${i * wg}u) / 2u) * line + local % 2u];`);
    for (const i of range(2)) for (const j of range(4)) L.push(`  var s${i}${j} = Result();`);
    L.push(`  let steps = N / 32u;
  for (var step = 0u; step < steps; step++) {
    let here = step % 2u;`);
    const store = (name, words, count) => range(count).map(i => `    { let at = here * ${words}u + (local + ${i * wg}u) / 2u * 12u + local % 2u * 4u;
      ${name}_tiles[at] = ${name}${i}.x; ${name}_tiles[at + 1u] = ${name}${i}.y; ${name}_tiles[at + 2u] = ${name}${i}.z; ${name}_tiles[at + 3u] = ${name}${i}.w; }`).join("\n");
    L.push(store("a", aWords, aLoads), store("b", bWords, bLoads));
    L.push(`    workgroupBarrier();
    if step + 1u < steps {
      let k = (step + 1u) * 2u;`);
    for (const i of range(aLoads)) L.push(`      a${i} = a[(row0 + (local + ${i * wg}u) / 2u) * line + k + local % 2u];`);
    for (const i of range(bLoads)) L.push(`      b${i} = b[(col0 + (local + ${i * wg}u) / 2u) * line + k + local % 2u];`);
    L.push(`    }`);
    for (const i of range(2)) L.push(`    let l${i} = subgroupMatrixLoad<Left>(&a_tiles, here * ${aWords * 4}u + (sub_row + ${i * 16}u) * ${row}u, false, ${row}u);`);
    for (const j of range(4)) L.push(`    let r${j} = subgroupMatrixLoad<Right>(&b_tiles, here * ${bWords * 4}u + (sub_col + ${j * 16}u) * ${row}u, true, ${row}u);`);
    for (const i of range(2)) for (const j of range(4)) L.push(`    s${i}${j} = subgroupMatrixMultiplyAccumulate(l${i}, r${j}, s${i}${j});`);
    L.push(`  }`);
    if (how === "subgroup_id" || how === "broadcast") {
      L.push(`  let out = (row0 + sub_row) * N + col0 + sub_col;`);
      for (const i of range(2)) for (const j of range(4)) L.push(`  subgroupMatrixStore(&c, out + ${i * 16}u * N + ${j * 16}u, s${i}${j}, false, N);`);
      L.push(`}`);
      return L.join("\n");
    }
    L.push(`  for (var s = 0u; s < ${sr * sc}u; s++) {
    let out = (row0 + s / ${sc}u * 32u) * N + col0 + s % ${sc}u * 64u;
    workgroupBarrier();
    if subgroup == s {`);
    for (const i of range(2)) for (const j of range(4)) {
      if (how === "global") L.push(`      subgroupMatrixStore(&c, out + ${i * 16}u * N + ${j * 16}u, s${i}${j}, false, N);`);
      else L.push(`      subgroupMatrixStore(&b_tiles, ${i * 16 * 64 + j * 16}u, s${i}${j}, false, 64u);`);
    }
    L.push(`    }`);
    if (how === "scratch") L.push(`    workgroupBarrier();
    for (var w = local; w < 2048u; w += ${wg}u) { c[out + w / 64u * N + w % 64u] = b_tiles[w]; }`);
    L.push(`  }
}`);
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
  for (const how of ["global", "scratch", "subgroup_id", "broadcast"]) for (const [sr, sc] of [[1, 1], [1, 2], [2, 1], [2, 2], [4, 1], [4, 2]])
    variants.push({ shape: { how, subgroups: [sr, sc], block: [32 * sr, 64 * sc] }, code: kernel(sr, sc, how) });
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
