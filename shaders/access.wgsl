// Access patterns: each invocation copies one element from `src` to `dst`, and only the index it reads
// differs. Elements are f32, vec2<f32> or vec4<f32> (4, 8 or 16 bytes); entry points are pattern_width.
//   coalesced   dst[i] = src[i]: neighbouring invocations read neighbouring elements.
//   strided     dst[i] = src[rotl(i, log2 STRIDE)]: neighbours read STRIDE elements apart. Rotating the
//               index bits keeps the mapping a permutation of the whole array, so a large stride never
//               folds back into a small, cache-friendly footprint (i * STRIDE mod n would).
//   random      dst[i] = src[permutation[i]]: a gather through a precomputed random permutation.
//   misaligned  dst[i] = src[i + OFFSET]: coalesced, but starting OFFSET elements past a 256-byte boundary;
//               every offset copies the same n - 32 elements.
// The array length n is a power of two (the host rounds the problem size down to one).

override WG: u32 = 256;
// log2 of the stride (strided), or the offset in elements (misaligned); unused elsewhere.
override PARAM: u32 = 0;
const MAX_OFFSET: u32 = 32u;

@group(0) @binding(0) var<storage, read> src1: array<f32>;
@group(0) @binding(1) var<storage, read> src2: array<vec2<f32>>;
@group(0) @binding(2) var<storage, read> src4: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> dst1: array<f32>;
@group(0) @binding(4) var<storage, read_write> dst2: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read_write> dst4: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read> permutation: array<u32>;
@group(0) @binding(7) var<storage, read_write> permutation_out: array<u32>;

// Rotates the low log2(n) bits of i left by `shift`: a permutation of 0..n that maps i + 1 to i's
// image + 2^shift, away from the wrap.
fn rotate(i: u32, shift: u32, n: u32) -> u32 {
    if shift == 0u { return i; }
    let bits = countTrailingZeros(n);
    return ((i << shift) | (i >> (bits - shift))) & (n - 1u);
}

// A bijection on 0..n (n a power of two) that scatters its input: odd multiplications and xor-shifts are
// each invertible modulo n. src/kernels/access.rs computes the same function to check results.
fn scramble(i: u32, seed: u32, n: u32) -> u32 {
    let mask = n - 1u;
    let half = countTrailingZeros(n) / 2u + 1u;
    var x = (i ^ seed) & mask;
    x = (x * 0x9e3779b1u) & mask;
    x ^= x >> half;
    x = (x * 0x85ebca6bu) & mask;
    x ^= x >> half;
    return x;
}

// Writes the permutation the random pattern reads; PARAM holds the seed here.
@compute @workgroup_size(WG)
fn make_permutation(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    let n = arrayLength(&permutation_out);
    if i < n { permutation_out[i] = scramble(i, PARAM, n); }
}

@compute @workgroup_size(WG)
fn coalesced_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst1) { dst1[i] = src1[i]; }
}

@compute @workgroup_size(WG)
fn coalesced_vec2(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst2) { dst2[i] = src2[i]; }
}

@compute @workgroup_size(WG)
fn coalesced_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst4) { dst4[i] = src4[i]; }
}

@compute @workgroup_size(WG)
fn strided_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    let n = arrayLength(&dst1);
    if i < n { dst1[i] = src1[rotate(i, PARAM, n)]; }
}

@compute @workgroup_size(WG)
fn strided_vec2(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    let n = arrayLength(&dst2);
    if i < n { dst2[i] = src2[rotate(i, PARAM, n)]; }
}

@compute @workgroup_size(WG)
fn strided_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    let n = arrayLength(&dst4);
    if i < n { dst4[i] = src4[rotate(i, PARAM, n)]; }
}

@compute @workgroup_size(WG)
fn random_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst1) { dst1[i] = src1[permutation[i]]; }
}

@compute @workgroup_size(WG)
fn random_vec2(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst2) { dst2[i] = src2[permutation[i]]; }
}

@compute @workgroup_size(WG)
fn random_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst4) { dst4[i] = src4[permutation[i]]; }
}

@compute @workgroup_size(WG)
fn misaligned_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst1) - MAX_OFFSET { dst1[i] = src1[i + PARAM]; }
}

@compute @workgroup_size(WG)
fn misaligned_vec2(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst2) - MAX_OFFSET { dst2[i] = src2[i + PARAM]; }
}

@compute @workgroup_size(WG)
fn misaligned_vec4(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&dst4) - MAX_OFFSET { dst4[i] = src4[i + PARAM]; }
}
