/* wgsweep
{
  "name": "triad_scalar",
  "entry_point": "triad_scalar",
  "buffers": [
    { "binding": 0, "name": "a", "type": "f32", "length": "n" },
    { "binding": 1, "name": "b", "type": "f32", "length": "n" },
    { "binding": 2, "name": "c", "type": "f32", "length": "n", "output": true }
  ],
  "sizes": [67108864],
  "tunables": { "WG": [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024] },
  "workgroup_size": ["WG"],
  "grid": ["ceil_div(ceil_div(n, WG), ceil_div(ceil_div(n, WG), 65535))", "ceil_div(ceil_div(n, WG), 65535)"],
  "bytes": "12 * n",
  "flops": "2 * n",
  "validation": { "reference": "reference", "tolerance": 1e-6, "grid": ["4096", "ceil_div(n, 4096 * 64)"] }
}
*/
// The built-in stream family's triad/scalar as a user's kernel: the same WGSL (shaders/stream.wgsl with
// shaders/grid.wgsl's helpers), the same arrays of 2^26 f32 (256 MiB each), the same workgroup sizes, the
// same dispatch grid (spread over x and y as src/grid.rs spreads it) and the same byte count; validated
// against an entry point of its own instead of the CPU. What it measures shows whether the harness adds
// anything for a user's kernel.

override WG: u32 = 64;
const SCALAR: f32 = 0.4;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

fn invocation_index(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return group_index(wid, nwg) * WG + lid;
}

@compute @workgroup_size(WG)
fn triad_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i] + SCALAR * b[i]; }
}

@compute @workgroup_size(64)
fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = (wid.x + wid.y * nwg.x) * 64u + lid;
    if i < arrayLength(&c) { c[i] = a[i] + SCALAR * b[i]; }
}
