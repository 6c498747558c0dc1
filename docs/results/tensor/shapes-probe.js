// An expression for run-page.py's --eval, as `(PROBE)(looped, direct)`: an earlier matmul_subgroup_matrix
// whose tiles were arrays indexed in loops (`looped`, not kept) at one subgroup a workgroup, beside direct.wgsl
// (fragments straight from storage); u8 inputs of random bytes, B column by column. Each: compiled, 64
// sampled entries checked against JavaScript, timed by the wall clock over 20 dispatches after one
// warm-up, best of 3, at n = 2048 and 4096.
async (source, direct) => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  const device = await adapter.requestDevice({
    requiredFeatures: ["chromium-experimental-subgroup-matrix", "subgroups"],
    requiredLimits: { maxComputeWorkgroupStorageSize: adapter.limits.maxComputeWorkgroupStorageSize },
  });
  const grid = s => (s >= 4 ? [2, s / 2] : [1, s]);
  const report = [];
  const inputs = {};
  for (const n of [2048, 4096]) {
    const bytes = seed => { const x = new Uint8Array(n * n); let s = seed; for (let i = 0; i < x.length; i++) { s = (s * 1664525 + 1013904223) >>> 0; x[i] = s >>> 24; } return x; };
    const A = bytes(1), B = bytes(2); // B column by column
    const buffer = data => { const g = device.createBuffer({ size: data.byteLength, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST }); device.queue.writeBuffer(g, 0, data); return g; };
    inputs[n] = { A, B, ga: buffer(A), gb: buffer(B) };
  }
  const types = `alias Word = u32;\nalias Left = subgroup_matrix_left<u8, 32, 16>;\nalias Right = subgroup_matrix_right<u8, 16, 32>;\nalias Result = subgroup_matrix_result<u32, 16, 16>;\n`;
  const variants = [];
  for (const [tiles, kStep] of [[2, 64], [2, 128], [4, 64]]) {
    variants.push({ shape: { staged: true, tiles, kStep, subgroups: 1, block: [tiles * 16, tiles * 16] },
      code: source + types + `fn subgroup_of(local: u32) -> u32 { return 0u; }\nconst SUBGROUP_ROWS = 1u;\nconst SUBGROUP_COLS = 1u;\nconst TILES = ${tiles}u;\nconst K_STEP = ${kStep}u;\n` });
  }
  for (const [m, n] of [[1, 1], [2, 2], [2, 4], [4, 2], [4, 4]]) {
    variants.push({ shape: { staged: false, tiles: [m, n], block: [m * 16, n * 16] },
      code: direct + types + `const TILES_M = ${m}u;\nconst TILES_N = ${n}u;\n` });
  }
  for (const { shape, code } of variants) {
    device.pushErrorScope("validation");
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    const errors = info.messages.filter(m => m.type === "error").map(m => `${m.lineNum}:${m.linePos} ${m.message.split("\n")[0]}`);
    let pipeline = null;
    if (!errors.length) pipeline = await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "matmul_subgroup_matrix", constants: { N: 4096 } } }).catch(e => { errors.push(String(e.message).split("\n")[0]); return null; });
    const scoped = await device.popErrorScope();
    if (scoped) errors.push(scoped.message.split("\n")[0]);
    if (errors.length) { report.push({ ...shape, errors }); continue; }
    for (const n of [2048, 4096]) {
      const { A, B, ga, gb } = inputs[n];
      const p = await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "matmul_subgroup_matrix", constants: { N: n } } });
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
