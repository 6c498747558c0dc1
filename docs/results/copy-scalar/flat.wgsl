/* wgsweep
{
  "name": "copy_flat",
  "entry_point": "copy",
  "buffers": [
    { "binding": 0, "name": "a", "type": "f32", "length": "n" },
    { "binding": 1, "name": "c", "type": "f32", "length": "n", "output": true }
  ],
  "sizes": [67107840],
  "tunables": { "WG": [1024] },
  "workgroup_size": ["WG"],
  "grid": ["n / WG"],
  "bytes": "8 * n",
  "validation": { "reference": "reference", "tolerance": 0, "grid": ["ceil_div(ceil_div(n, WG), ceil_div(ceil_div(n, WG), 65535))", "ceil_div(ceil_div(n, WG), 65535)"] }
}
*/
// One f32 an invocation on a 1-D grid, as BabelStream's CUDA copy: 65535 workgroups of 1024, n = 2^26 - 1024.

override WG: u32 = 64;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read_write> c: array<f32>;

// The answer: one element an invocation, on the built-in's 2-D grid.
@compute @workgroup_size(WG)
fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = (wid.x + wid.y * nwg.x) * WG + lid;
    if i < arrayLength(&c) { c[i] = a[i]; }
}

@compute @workgroup_size(WG)
fn copy(@builtin(global_invocation_id) gid: vec3<u32>) {
    let i = gid.x;
    if i < arrayLength(&c) { c[i] = a[i]; }
}
