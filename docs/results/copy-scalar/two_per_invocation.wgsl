/* wgsweep
{
  "name": "copy_two_per_invocation",
  "entry_point": "copy",
  "buffers": [
    { "binding": 0, "name": "a", "type": "f32", "length": "n" },
    { "binding": 1, "name": "c", "type": "f32", "length": "n", "output": true }
  ],
  "sizes": [67108864],
  "tunables": { "WG": [128, 256, 512, 1024] },
  "workgroup_size": ["WG"],
  "grid": ["ceil_div(ceil_div(n / 2, WG), ceil_div(ceil_div(n / 2, WG), 65535))", "ceil_div(ceil_div(n / 2, WG), 65535)"],
  "restrictions": ["n % (2 * WG) == 0"],
  "bytes": "8 * n",
  "validation": { "reference": "reference", "tolerance": 0, "grid": ["ceil_div(ceil_div(n, WG), ceil_div(ceil_div(n, WG), 65535))", "ceil_div(ceil_div(n, WG), 65535)"] }
}
*/
// Two f32 an invocation, half the array apart, on half the workgroups: twice the loads in flight an invocation.

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
fn copy(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
        @builtin(local_invocation_index) lid: u32) {
    let i = (wid.x + wid.y * nwg.x) * WG + lid;
    let half = arrayLength(&c) / 2u;
    if i < half {
        let first = a[i];
        let second = a[i + half];
        c[i] = first;
        c[i + half] = second;
    }
}
