// The input of the reductions and the grid-stride loop that reads it, shared by reduce.wgsl and
// reduce_subgroup.wgsl (the host prepends this file to both). The same buffer is bound as scalars and as
// vec4s: the loop reads four elements per load, which a GPU needs to reach its memory's speed with one
// load in flight per iteration, and the scalars cover the last n % 4 elements.

@group(0) @binding(0) var<storage, read> src_u32: array<u32>;
@group(0) @binding(1) var<storage, read> src_f32: array<f32>;
@group(0) @binding(5) var<storage, read> src_u32x4: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read> src_f32x4: array<vec4<f32>>;

// What invocation `index` of `invocations` adds: the vec4s a grid apart, then one of the last n % 4 elements.
fn grid_terms_u32(index: u32, invocations: u32) -> u32 {
    var value = 0u;
    for (var i = index; i < arrayLength(&src_u32x4); i += invocations) {
        let v = src_u32x4[i];
        value += v.x + v.y + v.z + v.w;
    }
    let tail = 4u * arrayLength(&src_u32x4) + index;
    if tail < arrayLength(&src_u32) { value += src_u32[tail]; }
    return value;
}

fn grid_terms_f32(index: u32, invocations: u32) -> f32 {
    var value = 0.0;
    for (var i = index; i < arrayLength(&src_f32x4); i += invocations) {
        let v = src_f32x4[i];
        value += v.x + v.y + v.z + v.w;
    }
    let tail = 4u * arrayLength(&src_f32x4) + index;
    if tail < arrayLength(&src_f32) { value += src_f32[tail]; }
    return value;
}
