/* wgsweep
{
  "name": "counted",
  "buffers": [{ "binding": 1, "name": "out", "type": "u32", "length": "n", "output": true }],
  "uniforms": [{ "binding": 0, "fields": { "count": "n" } }],
  "sizes": [1000],
  "tunables": { "WG_X": [32, 64] },
  "grid": ["ceil_div(n + 64, WG_X)"],
  "constants": { "N": "n" },
  "validation": { "reference": "reference" }
}
*/
// Bounds its writes by a count in a uniform, not by its output's arrayLength, over a grid wider than the
// output: a count past the output's length writes past its end, which its guard catches.
// (tests/user_kernel.rs, tests/web.rs)
struct Params { count: u32 }
override WG_X: u32 = 64;
override N: u32 = 0;
@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;

@compute @workgroup_size(WG_X)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < params.count { out[id.x] = id.x * 3u; }
}

@compute @workgroup_size(64)
fn reference(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x < N { out[id.x] = id.x * 3u; }
}
