/* wgsweep
{
  "name": "my_sum",
  "entry_point": "sum",
  "buffers": [
    { "binding": 0, "name": "input", "type": "u32", "length": "n", "fill": { "random": [0, 1000] } },
    { "binding": 1, "name": "total", "type": "u32", "length": "1", "fill": "zeros", "output": true }
  ],
  "sizes": [16777216],
  "tunables": { "WG_X": [32, 64, 128, 256, 512, 1024], "ELEMENTS": [1, 2, 4, 8, 16] },
  "grid": ["ceil_div(ceil_div(n, WG_X * ELEMENTS), ceil_div(ceil_div(n, WG_X * ELEMENTS), 65535))",
           "ceil_div(ceil_div(n, WG_X * ELEMENTS), 65535)"],
  "bytes": "4 * n",
  "workgroup_memory": "4 * WG_X",
  "validation": { "reference": "reference", "grid": ["4096", "ceil_div(n, 4096 * 64)"] }
}
*/
// A sum of u32 (exact, so every configuration must match to the last bit): each invocation adds ELEMENTS
// elements, a tree in workgroup memory adds the workgroup's, and one atomic per workgroup adds that to the
// total. `reference` adds every element with an atomic of its own: slow, and obviously right.

override WG_X: u32 = 256;
override ELEMENTS: u32 = 4;

@group(0) @binding(0) var<storage, read> input: array<u32>;
@group(0) @binding(1) var<storage, read_write> total: array<atomic<u32>>;

var<workgroup> partial: array<u32, WG_X>;

@compute @workgroup_size(WG_X)
fn sum(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
       @builtin(local_invocation_index) lid: u32) {
    let first = (wid.x + wid.y * nwg.x) * WG_X * ELEMENTS + lid;
    var own = 0u;
    for (var k = 0u; k < ELEMENTS; k++) {
        let i = first + k * WG_X;
        if i < arrayLength(&input) {
            own += input[i];
        }
    }
    partial[lid] = own;
    workgroupBarrier();
    for (var half = WG_X / 2u; half > 0u; half /= 2u) {
        if lid < half {
            partial[lid] += partial[lid + half];
        }
        workgroupBarrier();
    }
    if lid == 0u {
        atomicAdd(&total[0], partial[0]);
    }
}

@compute @workgroup_size(64)
fn reference(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = (wid.x + wid.y * nwg.x) * 64u + lid;
    if i < arrayLength(&input) {
        atomicAdd(&total[0], input[i]);
    }
}
