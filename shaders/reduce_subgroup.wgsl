// Subgroup reductions, kept apart from reduce.wgsl because a shader that uses subgroup operations only
// compiles on a device that has them (natively, and in browsers that offer WebGPU's `subgroups`).
//   subgroup_*   each invocation adds the vec4s a whole grid apart (as grid_* in reduce.wgsl), then
//                subgroupAdd sums each subgroup in registers, without workgroup memory or barriers; one
//                barrier later every subgroup adds the subgroups' sums the same way, and invocation 0
//                writes the workgroup's partial sum. The host reduces the partials with reduce.wgsl's tree.
// Every subgroup operation runs in uniform control flow: all invocations compute the second sum, and only
// invocation 0 writes it. WebGPU has no subgroup_id, nor any promise of which invocations share a subgroup:
// each subgroup takes the next free slot for its sum. The host puts `enable subgroups;` and the input's
// bindings (reduce_grid.wgsl) in front.

override WG: u32 = 256;

@group(0) @binding(2) var<storage, read_write> partials_u32: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials_f32: array<f32>;

// One sum per subgroup, in the slots they take (a workgroup has at most WG subgroups), and how many are
// taken: set to 0 first, as a trusted module (unchecked) leaves workgroup memory as it finds it.
var<workgroup> sums_u32: array<u32, WG>;
var<workgroup> sums_f32: array<f32, WG>;
var<workgroup> taken: atomic<u32>;

@compute @workgroup_size(WG)
fn subgroup_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
                @builtin(subgroup_size) width: u32) {
    if lid == 0u { atomicStore(&taken, 0u); }
    workgroupBarrier();
    let group = group_index(wid, nwg);
    let sum = subgroupAdd(grid_terms_u32(group * WG + lid, nwg.x * nwg.y * WG));
    if lane == 0u { sums_u32[atomicAdd(&taken, 1u)] = sum; }
    workgroupBarrier();
    let subgroups = atomicLoad(&taken);
    var partial = 0u;
    for (var s = lane; s < subgroups; s += width) { partial += sums_u32[s]; }
    let total = subgroupAdd(partial);
    if lid == 0u && group < arrayLength(&partials_u32) { partials_u32[group] = total; }
}

@compute @workgroup_size(WG)
fn subgroup_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32, @builtin(subgroup_invocation_id) lane: u32,
                @builtin(subgroup_size) width: u32) {
    if lid == 0u { atomicStore(&taken, 0u); }
    workgroupBarrier();
    let group = group_index(wid, nwg);
    let sum = subgroupAdd(grid_terms_f32(group * WG + lid, nwg.x * nwg.y * WG));
    if lane == 0u { sums_f32[atomicAdd(&taken, 1u)] = sum; }
    workgroupBarrier();
    let subgroups = atomicLoad(&taken);
    var partial = 0.0;
    for (var s = lane; s < subgroups; s += width) { partial += sums_f32[s]; }
    let total = subgroupAdd(partial);
    if lid == 0u && group < arrayLength(&partials_f32) { partials_f32[group] = total; }
}
