// Compute peak: every invocation runs independent chains of fused multiply-adds, x = fma(x, a, b), ITERATIONS
// times, and writes the sum of its chains. The chains do not depend on one another, so the GPU can issue one
// FMA per lane per cycle once enough warps are resident; the one store per invocation is noise next to the
// arithmetic. `a` and the `b`s come from a buffer, so the compiler cannot fold them; a is 1.0, so every
// product is exact and a fused and an unfused multiply-add round alike: the CPU reference
// (src/kernels/peak.rs) repeats the chains bit for bit.
//   fma_f32    8 scalar chains: 16 flops per iteration.
//   fma_vec4   4 vec4 chains: 32 flops per iteration (the same lanes of work on a GPU whose lanes are scalar;
//              more on one that issues vec4 operations).
// The integer units get the same treatment: x = x * a + b in i32, which wraps (each chain is a linear
// congruential generator, so nothing about it can be folded and every bit is checked).
//   imad_i32   8 scalar chains: 16 integer operations per iteration.
//   imad_vec4  4 vec4<i32> chains: 32 per iteration.
// f16 chains (peak_f16.wgsl) and packed 8-bit dot products (peak_dot4.wgsl) are modules of their own: each
// compiles only where the device or browser offers what it needs.

override WG: u32 = 256;
override COUNT: u32;
override ITERATIONS: u32 = 1024;

// coefficients[0] is a; coefficients[1 + c] is the b of chain c.
@group(0) @binding(0) var<storage, read> coefficients: array<f32, 17>;
@group(0) @binding(1) var<storage, read_write> sums: array<f32>;
// The integer chains' a and b's, and their sums' bits.
@group(0) @binding(2) var<storage, read> integers: array<i32, 17>;
@group(0) @binding(3) var<storage, read_write> words: array<i32>;

// The first value of chain c of invocation i: exact in f32, different per chain and invocation.
fn start(i: u32, c: u32) -> f32 {
    return f32(i & 1023u) * (1.0 / 1024.0) + f32(c);
}

@compute @workgroup_size(WG)
fn fma_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = coefficients[0];
    var x: array<f32, 8>;
    var b: array<f32, 8>;
    for (var c = 0u; c < 8u; c++) {
        x[c] = start(i, c);
        b[c] = coefficients[1u + c];
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var c = 0u; c < 8u; c++) {
            x[c] = fma(x[c], a, b[c]);
        }
    }
    var sum = 0.0;
    for (var c = 0u; c < 8u; c++) { sum += x[c]; }
    sums[i] = sum;
}

@compute @workgroup_size(WG)
fn fma_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = vec4(coefficients[0]);
    var x: array<vec4<f32>, 4>;
    var b: array<vec4<f32>, 4>;
    for (var v = 0u; v < 4u; v++) {
        let c = 4u * v;
        x[v] = vec4(start(i, c), start(i, c + 1u), start(i, c + 2u), start(i, c + 3u));
        b[v] = vec4(coefficients[1u + c], coefficients[2u + c], coefficients[3u + c], coefficients[4u + c]);
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var v = 0u; v < 4u; v++) {
            x[v] = fma(x[v], a, b[v]);
        }
    }
    var sum = 0.0;
    for (var v = 0u; v < 4u; v++) { sum += x[v].x + x[v].y + x[v].z + x[v].w; }
    sums[i] = sum;
}

// The first value of integer chain c of invocation i: different per chain and invocation.
fn first(i: u32, c: u32) -> i32 {
    return i32((i & 1023u) * 16u + c);
}

@compute @workgroup_size(WG)
fn imad_i32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = integers[0];
    var x: array<i32, 8>;
    var b: array<i32, 8>;
    for (var c = 0u; c < 8u; c++) {
        x[c] = first(i, c);
        b[c] = integers[1u + c];
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var c = 0u; c < 8u; c++) {
            x[c] = x[c] * a + b[c];
        }
    }
    var sum = 0i;
    for (var c = 0u; c < 8u; c++) { sum += x[c]; }
    words[i] = sum;
}

@compute @workgroup_size(WG)
fn imad_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    let a = vec4(integers[0]);
    var x: array<vec4<i32>, 4>;
    var b: array<vec4<i32>, 4>;
    for (var v = 0u; v < 4u; v++) {
        let c = 4u * v;
        x[v] = vec4(first(i, c), first(i, c + 1u), first(i, c + 2u), first(i, c + 3u));
        b[v] = vec4(integers[1u + c], integers[2u + c], integers[3u + c], integers[4u + c]);
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var v = 0u; v < 4u; v++) {
            x[v] = x[v] * a + b[v];
        }
    }
    var sum = 0i;
    for (var v = 0u; v < 4u; v++) { sum += x[v].x + x[v].y + x[v].z + x[v].w; }
    words[i] = sum;
}
