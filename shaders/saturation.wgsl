// Problem-size saturation: the same kernels over the first N elements of large arrays, N from 2^10 up.
//   triad_by_size_f32  c[i] = a[i] + SCALAR * b[i], one element per invocation (STREAM's triad).
//   sum_by_size_u32    the elements' wrapping sum: each invocation adds the elements a whole grid apart (a
//                      fixed number of workgroups), the workgroup adds its invocations' sums in workgroup
//                      memory, and one atomicAdd per workgroup adds that to `total`: one pass, exact.
// Small N fits in the caches and cannot fill the GPU; the chart shows where each stops mattering.

override WG: u32 = 256;
override N: u32;
const SCALAR: f32 = 0.4;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<storage, read> words: array<u32>;
@group(0) @binding(4) var<storage, read_write> total: atomic<u32>;

var<workgroup> scratch: array<u32, WG>;

@compute @workgroup_size(WG)
fn triad_by_size_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < N { c[i] = a[i] + SCALAR * b[i]; }
}

@compute @workgroup_size(WG)
fn sum_by_size_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let stride = nwg.x * nwg.y * WG;
    var value = 0u;
    for (var i = invocation_index(wid, nwg, lid); i < N; i += stride) { value += words[i]; }
    scratch[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if lid < half { scratch[lid] += scratch[lid + half]; }
        workgroupBarrier();
    }
    if lid == 0u { atomicAdd(&total, scratch[0]); }
}
