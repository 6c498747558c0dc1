// STREAM: copy, scale, add, triad and dot, as BabelStream defines them, over f32 arrays a, b (inputs) and c
// (output). Each kernel comes in three variants, each its own entry point named kernel_variant:
//   scalar       one f32 element per invocation; the dispatch covers the array exactly (2-D past 65535 groups)
//   vec4         one vec4<f32> (16 bytes) per invocation: a quarter of the invocations, wider loads
//   grid_stride  a fixed number of workgroups (the host dispatches GRID_WORKGROUPS) loops over the array
// dot reduces each workgroup's products with a tree in workgroup memory and writes one partial sum per
// workgroup (workgroup_sum.wgsl, which the host prepends with WG); the host adds the partials, as BabelStream
// does. WG must be a power of two for the tree.

const SCALAR: f32 = 0.4;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;
@group(0) @binding(3) var<storage, read> a4: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read> b4: array<vec4<f32>>;
@group(0) @binding(5) var<storage, read_write> c4: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> partial_sums: array<f32>;

@compute @workgroup_size(WG)
fn copy_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i]; }
}

@compute @workgroup_size(WG)
fn scale_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = SCALAR * a[i]; }
}

@compute @workgroup_size(WG)
fn add_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i] + b[i]; }
}

@compute @workgroup_size(WG)
fn triad_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i] + SCALAR * b[i]; }
}

@compute @workgroup_size(WG)
fn dot_scalar(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var product = 0.0;
    if i < arrayLength(&a) { product = a[i] * b[i]; }
    let sum = workgroup_sum(lid, product);
    if lid == 0u { partial_sums[group] = sum; }
}

@compute @workgroup_size(WG)
fn copy_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c4) { c4[i] = a4[i]; }
}

@compute @workgroup_size(WG)
fn scale_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c4) { c4[i] = SCALAR * a4[i]; }
}

@compute @workgroup_size(WG)
fn add_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c4) { c4[i] = a4[i] + b4[i]; }
}

@compute @workgroup_size(WG)
fn triad_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c4) { c4[i] = a4[i] + SCALAR * b4[i]; }
}

@compute @workgroup_size(WG)
fn dot_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var product = 0.0;
    if i < arrayLength(&a4) { product = dot(a4[i], b4[i]); }
    let sum = workgroup_sum(lid, product);
    if lid == 0u { partial_sums[group] = sum; }
}

// Grid-stride: invocation g handles g, g + stride, g + 2 stride, ... where stride is every invocation launched.
fn grid_stride(nwg: vec3<u32>) -> u32 {
    return nwg.x * nwg.y * WG;
}

@compute @workgroup_size(WG)
fn copy_grid_stride(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let stride = grid_stride(nwg);
    for (var i = invocation_index(wid, nwg, lid); i < arrayLength(&c); i += stride) { c[i] = a[i]; }
}

@compute @workgroup_size(WG)
fn scale_grid_stride(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
    let stride = grid_stride(nwg);
    for (var i = invocation_index(wid, nwg, lid); i < arrayLength(&c); i += stride) { c[i] = SCALAR * a[i]; }
}

@compute @workgroup_size(WG)
fn add_grid_stride(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let stride = grid_stride(nwg);
    for (var i = invocation_index(wid, nwg, lid); i < arrayLength(&c); i += stride) { c[i] = a[i] + b[i]; }
}

@compute @workgroup_size(WG)
fn triad_grid_stride(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                     @builtin(local_invocation_index) lid: u32) {
    let stride = grid_stride(nwg);
    for (var i = invocation_index(wid, nwg, lid); i < arrayLength(&c); i += stride) {
        c[i] = a[i] + SCALAR * b[i];
    }
}

@compute @workgroup_size(WG)
fn dot_grid_stride(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let stride = grid_stride(nwg);
    var product = 0.0;
    for (var i = group * WG + lid; i < arrayLength(&a); i += stride) { product += a[i] * b[i]; }
    let sum = workgroup_sum(lid, product);
    if lid == 0u { partial_sums[group] = sum; }
}
