// Reductions: every element of `src` added into one value, as u32 (wrapping, so exact on both sides) or f32.
//   atomic_u32        every invocation atomicAdds its element into `total`: one atomic per element, all on
//                     one address. (WGSL has no float atomics, so there is no f32 form.)
//   tree_*            a workgroup adds its WG elements in workgroup memory, halving the active invocations
//                     at each level with a barrier between levels; invocation 0 writes the workgroup's sum
//                     to `partials`. The host runs tree passes over the partials until one value is left.
//   tree_atomic_u32   the same tree, then one atomicAdd per workgroup into `total`: a single pass.
//   grid_*            each invocation first adds the vec4s a whole grid apart (a fixed number of
//                     workgroups covers the input; reduce_grid.wgsl), then the tree; its partials go
//                     through tree passes.
// WG is a power of two; invocations past the end of `src` add 0. The input's bindings come from
// reduce_grid.wgsl, which the host puts in front.

override WG: u32 = 256;

@group(0) @binding(2) var<storage, read_write> partials_u32: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials_f32: array<f32>;
@group(0) @binding(4) var<storage, read_write> total: atomic<u32>;

var<workgroup> scratch_u32: array<u32, WG>;
var<workgroup> scratch_f32: array<f32, WG>;

// The sum of every invocation's `value`. Every invocation of the workgroup must call it.
fn workgroup_sum_u32(lid: u32, value: u32) -> u32 {
    scratch_u32[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if lid < half { scratch_u32[lid] += scratch_u32[lid + half]; }
        workgroupBarrier();
    }
    return scratch_u32[0];
}

fn workgroup_sum_f32(lid: u32, value: f32) -> f32 {
    scratch_f32[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if lid < half { scratch_f32[lid] += scratch_f32[lid + half]; }
        workgroupBarrier();
    }
    return scratch_f32[0];
}

@compute @workgroup_size(WG)
fn atomic_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&src_u32) { atomicAdd(&total, src_u32[i]); }
}

@compute @workgroup_size(WG)
fn tree_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var value = 0u;
    if i < arrayLength(&src_u32) { value = src_u32[i]; }
    let sum = workgroup_sum_u32(lid, value);
    if lid == 0u && group < arrayLength(&partials_u32) { partials_u32[group] = sum; }
}

@compute @workgroup_size(WG)
fn tree_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var value = 0.0;
    if i < arrayLength(&src_f32) { value = src_f32[i]; }
    let sum = workgroup_sum_f32(lid, value);
    if lid == 0u && group < arrayLength(&partials_f32) { partials_f32[group] = sum; }
}

@compute @workgroup_size(WG)
fn tree_atomic_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    var value = 0u;
    if i < arrayLength(&src_u32) { value = src_u32[i]; }
    let sum = workgroup_sum_u32(lid, value);
    if lid == 0u { atomicAdd(&total, sum); }
}

@compute @workgroup_size(WG)
fn grid_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let sum = workgroup_sum_u32(lid, grid_terms_u32(group * WG + lid, nwg.x * nwg.y * WG));
    if lid == 0u && group < arrayLength(&partials_u32) { partials_u32[group] = sum; }
}

@compute @workgroup_size(WG)
fn grid_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let sum = workgroup_sum_f32(lid, grid_terms_f32(group * WG + lid, nwg.x * nwg.y * WG));
    if lid == 0u && group < arrayLength(&partials_f32) { partials_f32[group] = sum; }
}
