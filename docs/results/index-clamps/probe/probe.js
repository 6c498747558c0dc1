// Which forms of subgroupMatrixLoad this browser's WGSL takes from workgroup memory: the one wgsweep's
// kernels use (an array of the matrix's scalar words, offsets in matrix elements) and the newer one whose
// majorness is a template and whose array may hold vectors (offsets in the array's elements), for u8 and
// f16 matrices staged as vec4<u32>. Each module is compiled and made into a pipeline; what either says is
// kept. On the device machine, with the kit installed:
//   python3 /opt/gpu-browser/run-page.py --serve docs/results/index-clamps/probe --out "$OUT/probe" \
//       --flag=--enable-dawn-features=vulkan_enable_f16_on_nvidia --wait-selector '#done' \
//       --eval 'JSON.parse(document.getElementById("done").textContent)' probe.html
const out = document.getElementById("out");
const head = "enable f16;\nenable chromium_experimental_subgroup_matrix;\n" +
  "@group(0) @binding(0) var<storage, read_write> o: array<f32>;\n@group(0) @binding(1) var<storage, read_write> p: array<i32>;\n";
const product = (left, right, result, store) => `${head}var<workgroup> t: array<${left.array}, 640>;
@compute @workgroup_size(32)
fn main() {
  let l = ${left.load};
  let r = ${right};
  let c = subgroupMatrixMultiplyAccumulate(l, r, ${result}());
  ${store};
}`;
const modules = {
  "u8, array<u32>, col_major as a bool (as wgsweep's kernels)": product(
    { array: "u32", load: "subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>>(&t, 0u, false, 80u)" },
    "subgroupMatrixLoad<subgroup_matrix_right<u8, 16, 32>>(&t, 32u, true, 80u)",
    "subgroup_matrix_result<i32, 16, 16>", "subgroupMatrixStore(&p, 0u, c, false, 16u)"),
  "u8, array<vec4<u32>>, majorness as a template": product(
    { array: "vec4<u32>", load: "subgroupMatrixLoad<subgroup_matrix_left<u8, 32, 16>, row_major>(&t, 0u, 5u)" },
    "subgroupMatrixLoad<subgroup_matrix_right<u8, 16, 32>, col_major>(&t, 2u, 5u)",
    "subgroup_matrix_result<i32, 16, 16>", "subgroupMatrixStore<row_major>(&p, 0u, c, 16u)"),
  "f16, array<vec4<u32>>, majorness as a template": product(
    { array: "vec4<u32>", load: "subgroupMatrixLoad<subgroup_matrix_left<f16, 16, 16>, row_major>(&t, 0u, 5u)" },
    "subgroupMatrixLoad<subgroup_matrix_right<f16, 16, 16>, col_major>(&t, 2u, 5u)",
    "subgroup_matrix_result<f32, 16, 16>", "subgroupMatrixStore<row_major>(&o, 0u, c, 16u)"),
};
const results = {};
try {
  const adapter = await navigator.gpu.requestAdapter();
  const wanted = ["shader-f16", "subgroups", "chromium-experimental-subgroup-matrix"];
  const requiredFeatures = wanted.filter((f) => adapter.features.has(f));
  results.features = requiredFeatures;
  const device = await adapter.requestDevice({ requiredFeatures });
  for (const [name, code] of Object.entries(modules)) {
    device.pushErrorScope("validation");
    const module = device.createShaderModule({ code });
    const messages = (await module.getCompilationInfo()).messages.map((m) => `${m.type} ${m.lineNum}:${m.linePos} ${m.message}`);
    let pipeline = "made";
    try {
      await device.createComputePipelineAsync({ layout: "auto", compute: { module, entryPoint: "main" } });
    } catch (e) {
      pipeline = String(e.message ?? e);
    }
    const scope = await device.popErrorScope();
    results[name] = { messages, pipeline, error: scope ? scope.message : null };
  }
} catch (e) {
  results.error = String(e.message ?? e);
}
out.textContent = JSON.stringify(results, null, 1);
out.id = "done";
