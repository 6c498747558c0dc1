// STREAM in f16 where the device offers `shader-f16`: copy, scale, add and triad over vec4<f16> arrays (8
// bytes an invocation: as many invocations as the f32 vec4 kernels, half the bytes), and dot, whose products
// and sums are f32 (an f16 sum of millions of terms would keep none of its precision). Entry points are
// kernel_vec4_f16; dot writes one partial sum per workgroup (workgroup_sum.wgsl). The host puts `enable
// f16;` first, then grid.wgsl and workgroup_sum.wgsl, then this file; only a device with shader-f16
// compiles it.

const SCALAR: f16 = 0.4h;

// The bindings stream.wgsl gives its scalar kernels, so that the host binds both alike.
@group(0) @binding(0) var<storage, read> a: array<vec4<f16>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f16>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f16>>;
@group(0) @binding(6) var<storage, read_write> partial_sums: array<f32>;

@compute @workgroup_size(WG)
fn copy_vec4_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i]; }
}

@compute @workgroup_size(WG)
fn scale_vec4_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = SCALAR * a[i]; }
}

@compute @workgroup_size(WG)
fn add_vec4_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i] + b[i]; }
}

@compute @workgroup_size(WG)
fn triad_vec4_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&c) { c[i] = a[i] + SCALAR * b[i]; }
}

@compute @workgroup_size(WG)
fn dot_vec4_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var product = 0.0;
    if i < arrayLength(&a) { product = dot(vec4<f32>(a[i]), vec4<f32>(b[i])); }
    let sum = workgroup_sum(lid, product);
    if lid == 0u { partial_sums[group] = sum; }
}
