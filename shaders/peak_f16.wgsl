// f16 compute peak: peak.wgsl's FMA chains in half precision, for GPUs that run f16 at twice the f32 rate
// (two halves per 32-bit lane). The host puts `enable f16;` and the grid's helpers in front; the module
// compiles only where the device (or the browser) offers shader-f16.
//   hfma_f16   8 scalar chains: 16 flops per iteration (a GPU that packs halves in pairs has no pair to pack).
//   hfma_vec2  8 vec2<f16> chains: 32 flops per iteration, a pair per instruction.
//   hfma_vec4  4 vec4<f16> chains: 32 flops per iteration.
// Exact in f16, as the f32 chains are in f32: a is 1.0, every start a multiple of 1/8 below 2.75, and every
// b 2^-8 or 2^-7, so after 1024 steps a chain stays below 8 (b = 2^-8: steps of the f16 spacing in [4, 8)) or
// below 16 (b = 2^-7: the spacing in [8, 16)). Chains are summed in f32, where their sum is exact too.

override WG: u32 = 256;
override COUNT: u32;
override ITERATIONS: u32 = 1024;

// coefficients[0] is a; coefficients[1 + l] is the b of lane l (f32 values that f16 holds exactly).
@group(0) @binding(0) var<storage, read> coefficients: array<f32, 17>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;

// The first value of lane l of invocation i: exact in f16, different per lane.
fn start(i: u32, l: u32) -> f16 {
    return f16(i & 7u) * 0.125h + f16(l) * 0.125h;
}

fn b(l: u32) -> f16 {
    return f16(coefficients[1u + l]);
}

@compute @workgroup_size(WG)
fn hfma_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = f16(coefficients[0]);
    var x: array<f16, 8>;
    var bs: array<f16, 8>;
    for (var l = 0u; l < 8u; l++) {
        x[l] = start(i, l);
        bs[l] = b(l);
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var l = 0u; l < 8u; l++) {
            x[l] = fma(x[l], a, bs[l]);
        }
    }
    var sum = 0.0;
    for (var l = 0u; l < 8u; l++) { sum += f32(x[l]); }
    sums[i] = sum;
}

@compute @workgroup_size(WG)
fn hfma_vec2(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = vec2(f16(coefficients[0]));
    var x: array<vec2<f16>, 8>;
    var bs: array<vec2<f16>, 8>;
    for (var v = 0u; v < 8u; v++) {
        x[v] = vec2(start(i, 2u * v), start(i, 2u * v + 1u));
        bs[v] = vec2(b(2u * v), b(2u * v + 1u));
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var v = 0u; v < 8u; v++) {
            x[v] = fma(x[v], a, bs[v]);
        }
    }
    var sum = 0.0;
    for (var v = 0u; v < 8u; v++) { sum += f32(x[v].x) + f32(x[v].y); }
    sums[i] = sum;
}

@compute @workgroup_size(WG)
fn hfma_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = vec4(f16(coefficients[0]));
    var x: array<vec4<f16>, 4>;
    var bs: array<vec4<f16>, 4>;
    for (var v = 0u; v < 4u; v++) {
        let l = 4u * v;
        x[v] = vec4(start(i, l), start(i, l + 1u), start(i, l + 2u), start(i, l + 3u));
        bs[v] = vec4(b(l), b(l + 1u), b(l + 2u), b(l + 3u));
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var v = 0u; v < 4u; v++) {
            x[v] = fma(x[v], a, bs[v]);
        }
    }
    var sum = 0.0;
    for (var v = 0u; v < 4u; v++) { sum += (f32(x[v].x) + f32(x[v].y)) + (f32(x[v].z) + f32(x[v].w)); }
    sums[i] = sum;
}
