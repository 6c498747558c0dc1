/* wgsweep
{
  "name": "uniform_fields",
  "buffers": [{ "binding": 1, "name": "out", "type": "f32", "length": "n", "output": true }],
  "uniforms": [{ "binding": 0, "fields": {
    "count": "n", "scale": 0.5, "offset": [1, 2, 3], "bias": 0.25, "weights": [0, 0, 0, 1, 0, 0, 0, 8],
    "grid": ["WG_X", "WG_X - WG_X + 7"], "inner.a": 0, "inner.b": [1, 2.5]
  }}],
  "sizes": [1000, 4096],
  "tunables": { "WG_X": [32, 64] },
  "validation": { "reference": "reference" }
}
*/
// Parameters in a uniform struct with padding in it (vec3's alignment, an array of vec4, a nested struct at
// @align(16)), laid out by wgsweep from this WGSL. The reference writes what those values add up to from
// literals, so a value at the wrong offset fails validation. (tests/user_kernel.rs, tests/web.rs)
struct Inner { a: f32, b: vec2<f32> }
struct Params {
    count: u32,
    scale: f32,
    offset: vec3<f32>,
    bias: f32,
    weights: array<vec4<f32>, 2>,
    grid: vec2<u32>,
    @align(16) inner: Inner,
}
override WG_X: u32 = 64;
override LIMIT: u32 = 0;
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i >= params.count { return; }
    out[i] = f32(i) * params.scale + params.offset.z + params.bias + params.weights[1].w + f32(params.grid.y)
        + params.inner.b.y;
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < arrayLength(&out) { out[id.x] = f32(id.x) * 0.5 + 3.0 + 0.25 + 8.0 + 7.0 + 2.5; }
}
