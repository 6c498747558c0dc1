// A workgroup's sum through a tree in workgroup memory, which STREAM's dot kernels share: the host prepends
// this file to the modules that use it (WGSL has no includes). WG, the workgroup size, is a power of two.

override WG: u32 = 64;

var<workgroup> tree: array<f32, WG>;

// Sums `value` over the workgroup; the result is valid in invocation 0. Every invocation must call it.
fn workgroup_sum(lid: u32, value: f32) -> f32 {
    tree[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half >>= 1u) {
        if lid < half {
            tree[lid] += tree[lid + half];
        }
        workgroupBarrier();
    }
    return tree[0];
}
