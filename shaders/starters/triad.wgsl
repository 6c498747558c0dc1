/* wgsweep
{
  "name": "my_triad",
  "entry_point": "triad",
  "buffers": [
    { "binding": 0, "name": "a", "type": "f32", "length": "n" },
    { "binding": 1, "name": "b", "type": "f32", "length": "n" },
    { "binding": 2, "name": "c", "type": "f32", "length": "n", "output": true }
  ],
  "sizes": [16777216],
  "tunables": { "WG_X": [32, 64, 128, 256, 512, 1024], "ELEMENTS": [1, 2, 4] },
  "grid": ["ceil_div(ceil_div(n, WG_X * ELEMENTS), ceil_div(ceil_div(n, WG_X * ELEMENTS), 65535))",
           "ceil_div(ceil_div(n, WG_X * ELEMENTS), 65535)"],
  "bytes": "12 * n",
  "flops": "2 * n",
  "validation": { "reference": "reference", "tolerance": 1e-6, "grid": ["4096", "ceil_div(n, 4096 * 64)"] }
}
*/
// STREAM's triad, c = a + s·b, as a 1-D elementwise kernel: each invocation handles ELEMENTS elements, a
// workgroup's WG_X × ELEMENTS consecutive ones, so neighbouring invocations touch neighbouring addresses.
// A grid of more than 65535 workgroups is spread over x and y. `reference` is the obvious version validation trusts.

override WG_X: u32 = 64;
override ELEMENTS: u32 = 1;
const SCALAR: f32 = 0.4;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

@compute @workgroup_size(WG_X)
fn triad(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
         @builtin(local_invocation_index) lid: u32) {
    let first = (wid.x + wid.y * nwg.x) * WG_X * ELEMENTS + lid;
    for (var k = 0u; k < ELEMENTS; k++) {
        let i = first + k * WG_X;
        if i < arrayLength(&c) {
            c[i] = a[i] + SCALAR * b[i];
        }
    }
}

@compute @workgroup_size(64)
fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = (wid.x + wid.y * nwg.x) * 64u + lid;
    if i < arrayLength(&c) {
        c[i] = a[i] + SCALAR * b[i];
    }
}
