// An expression for run-page.py's --eval. Issue 27's first question, asked of the browser directly (wgpu cannot request the feature yet): which
// subgroup matrix configurations does the adapter report, and does a multiply-accumulate of each compile,
// run and give the right answer (all-ones inputs: every result element equals K)?
(async () => {
  const adapter = await navigator.gpu.requestAdapter({ powerPreference: "high-performance" });
  const configs = [...(adapter.info.subgroupMatrixConfigs || [])].map(c =>
    ({ componentType: c.componentType, resultType: c.resultComponentType, M: c.M, N: c.N, K: c.K }));
  const report = { features: [...adapter.features].sort(), configs, trials: [] };
  const wanted = ["chromium-experimental-subgroup-matrix", "subgroups", "shader-f16"].filter(f => adapter.features.has(f));
  const device = await adapter.requestDevice({ requiredFeatures: wanted });
  // Storage element types: 8-bit matrices live packed in 32-bit words (u8 in u32, i8 in i32); f16 needs shader-f16.
  const storage = { f32: "f32", f16: "f16", u32: "u32", i32: "i32", u8: "u32", i8: "i32" };
  const perWord = { f32: 1, f16: 1, u32: 1, i32: 1, u8: 4, i8: 4 };
  for (const c of configs) {
    const trial = { config: `${c.componentType}->${c.resultType} ${c.M}x${c.N}x${c.K}` };
    report.trials.push(trial);
    if (c.componentType === "f16" && !adapter.features.has("shader-f16")) { trial.outcome = "skipped: no shader-f16"; continue; }
    const S = storage[c.componentType], R = storage[c.resultType];
    const enables = "enable chromium_experimental_subgroup_matrix;\n" + (S === "f16" || R === "f16" ? "enable f16;\n" : "");
    const code = `${enables}
@group(0) @binding(0) var<storage, read> a: array<${S}>;
@group(0) @binding(1) var<storage, read> b: array<${S}>;
@group(0) @binding(2) var<storage, read_write> c: array<${R}>;
@compute @workgroup_size(${adapter.info.subgroupMaxSize || 32})
fn main() {
  let left = subgroupMatrixLoad<subgroup_matrix_left<${c.componentType}, ${c.K}, ${c.M}>>(&a, 0, false, ${c.K});
  let right = subgroupMatrixLoad<subgroup_matrix_right<${c.componentType}, ${c.N}, ${c.K}>>(&b, 0, false, ${c.N});
  let result = subgroupMatrixMultiply<${c.resultType}>(left, right);
  subgroupMatrixStore(&c, 0, result, false, ${c.N});
}`;
    const module = device.createShaderModule({ code });
    const info = await module.getCompilationInfo();
    trial.messages = info.messages.map(m => `${m.type} ${m.lineNum}:${m.linePos} ${m.message}`);
    if (info.messages.some(m => m.type === "error")) { trial.outcome = "does not compile"; continue; }
    device.pushErrorScope("validation");
    const pipeline = device.createComputePipeline({ layout: "auto", compute: { module, entryPoint: "main" } });
    const words = n => Math.ceil(n / perWord[c.componentType]);
    const one = { f32: new Float32Array([1]), f16: new Uint16Array([0x3c00]), u32: new Uint32Array([1]),
                  i32: new Int32Array([1]), u8: new Uint32Array([0x01010101]), i8: new Int32Array([0x01010101]) };
    const filled = n => {
      const unit = one[c.componentType];
      const array = new unit.constructor(c.componentType === "f16" ? 2 * words(n) : words(n));
      array.fill(unit[0]);
      return array;
    };
    const buffer = (data, usage) => {
      const b = device.createBuffer({ size: Math.max(16, data.byteLength), usage: usage | GPUBufferUsage.COPY_DST });
      device.queue.writeBuffer(b, 0, data);
      return b;
    };
    const A = buffer(filled(c.M * c.K), GPUBufferUsage.STORAGE), B = buffer(filled(c.K * c.N), GPUBufferUsage.STORAGE);
    const resultBytes = c.M * c.N * (c.resultType === "f16" ? 2 : 4);
    const C = device.createBuffer({ size: resultBytes, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
    const read = device.createBuffer({ size: resultBytes, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    const group = device.createBindGroup({ layout: pipeline.getBindGroupLayout(0), entries:
      [A, B, C].map((buffer, binding) => ({ binding, resource: { buffer } })) });
    const encoder = device.createCommandEncoder();
    const pass = encoder.beginComputePass();
    pass.setPipeline(pipeline); pass.setBindGroup(0, group); pass.dispatchWorkgroups(1); pass.end();
    encoder.copyBufferToBuffer(C, 0, read, 0, resultBytes);
    device.queue.submit([encoder.finish()]);
    const error = await device.popErrorScope();
    if (error) { trial.outcome = "validation error: " + error.message; continue; }
    await read.mapAsync(GPUMapMode.READ);
    const got = c.resultType === "f32" ? [...new Float32Array(read.getMappedRange())]
      : c.resultType === "f16" ? [...new Uint16Array(read.getMappedRange())]
      : [...new Int32Array(read.getMappedRange())];
    const want = c.resultType === "f16" ? null : c.K;
    trial.first = got.slice(0, 4);
    trial.outcome = want === null ? "ran (f16 result not decoded)" : (got.every(v => v === want) ? `right: every element ${want}` : `wrong: ${got.filter(v => v !== want).length} of ${got.length} differ from ${want}`);
  }
  return report;
})().catch(e => ({ error: String(e) }))
