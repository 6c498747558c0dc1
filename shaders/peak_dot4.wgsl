// Packed 8-bit integer dot products: WGSL's dot4I8Packed / dot4U8Packed (the packed_4x8_integer_dot_product
// language feature; DP4A on GPUs that have it), each multiplying four pairs of 8-bit integers packed in two
// u32s and adding the four products: 8 operations per call. Every chain feeds its value back as the first
// operand and adds it, x = dot4(x, b) + x, so each call waits on the last and nothing can be hoisted; the
// integers wrap, and the CPU reference (src/kernels/peak.rs) repeats every bit. The module compiles only
// where the implementation has the feature; the host puts the grid's helpers in front.
//   dot4_i8   8 chains of signed bytes: 64 operations per iteration.
//   dot4_u8   8 chains of unsigned bytes: 64 operations per iteration.

override WG: u32 = 256;
override COUNT: u32;
override ITERATIONS: u32 = 1024;

// integers[1 + c] is the packed b of chain c (integers[0] is the integer chains' multiplier, unused here).
@group(0) @binding(2) var<storage, read> integers: array<u32, 17>;
@group(0) @binding(3) var<storage, read_write> words: array<u32>;

// The first value of chain c of invocation i, as peak.wgsl's integer chains start.
fn first(i: u32, c: u32) -> u32 {
    return (i & 1023u) * 16u + c;
}

@compute @workgroup_size(WG)
fn dot4_i8(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    var x: array<u32, 8>;
    var b: array<u32, 8>;
    for (var c = 0u; c < 8u; c++) {
        x[c] = first(i, c);
        b[c] = integers[1u + c];
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var c = 0u; c < 8u; c++) {
            x[c] = u32(dot4I8Packed(x[c], b[c])) + x[c];
        }
    }
    var sum = 0u;
    for (var c = 0u; c < 8u; c++) { sum += x[c]; }
    words[i] = sum;
}

@compute @workgroup_size(WG)
fn dot4_u8(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= COUNT { return; }
    var x: array<u32, 8>;
    var b: array<u32, 8>;
    for (var c = 0u; c < 8u; c++) {
        x[c] = first(i, c);
        b[c] = integers[1u + c];
    }
    for (var n = 0u; n < ITERATIONS; n++) {
        for (var c = 0u; c < 8u; c++) {
            x[c] = dot4U8Packed(x[c], b[c]) + x[c];
        }
    }
    var sum = 0u;
    for (var c = 0u; c < 8u; c++) { sum += x[c]; }
    words[i] = sum;
}
