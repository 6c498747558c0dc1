// Pseudo-random inputs and poisoned outputs, written on the GPU so that large buffers never cross the bus.
//
// random_f32(i, seed) is a pure function of the element index: the CPU reference (src/fill.rs) computes the
// same bits, so inputs never have to be kept on the host. The hash is shaders/hash.wgsl's, which the host prepends; the top 24 bits
// scaled by 2^-23 and shifted by -1 give a value in [-1, 1) that is exact in f32 on every GPU. random_f16
// keeps the top 10 bits: multiples of 2^-9, which f16 holds exactly; pack2x16float stores them without
// needing f16 in the shader.

override WG: u32 = 256;

struct Fill {
    seed: u32,
    word: u32,
    // fill_pattern's: what to write (the PATTERN_ constants) and its range's ends, as bits.
    kind: u32,
    low: u32,
    high: u32,
}

@group(0) @binding(0) var<storage, read_write> words: array<u32>;
@group(0) @binding(1) var<uniform> fill: Fill;

fn random_f32(i: u32, seed: u32) -> f32 {
    let h = hash_u32(i ^ hash_u32(seed));
    return f32(h >> 8u) * (1.0 / 8388608.0) - 1.0;
}

@compute @workgroup_size(WG)
fn fill_random(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
               @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&words) {
        words[i] = bitcast<u32>(random_f32(i, fill.seed));
    }
}

fn random_f16(i: u32, seed: u32) -> f32 {
    let h = hash_u32(i ^ hash_u32(seed));
    return f32(h >> 22u) * (1.0 / 512.0) - 1.0;
}

// Word i holds f16 elements 2i (low half) and 2i + 1.
@compute @workgroup_size(WG)
fn fill_random_f16(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&words) {
        words[i] = pack2x16float(vec2(random_f16(2u * i, fill.seed), random_f16(2u * i + 1u, fill.seed)));
    }
}

@compute @workgroup_size(WG)
fn fill_word(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
             @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&words) {
        words[i] = fill.word;
    }
}

// A user's buffer (src/spec.rs, `Fill`): random floats in [low, high), random integers in [low, high] (as
// wrapping u32 arithmetic, which serves i32 too), or element i holding i (modulo `low` where it is not 0);
// f16 elements two to a word.
const PATTERN_RANDOM_F32: u32 = 0u;
const PATTERN_RANDOM_INT: u32 = 1u;
const PATTERN_RANDOM_F16: u32 = 2u;
const PATTERN_IOTA_U32: u32 = 3u;
const PATTERN_IOTA_F32: u32 = 4u;
const PATTERN_IOTA_F16: u32 = 5u;

fn in_range(r: f32) -> f32 {
    let low = bitcast<f32>(fill.low);
    return low + (r + 1.0) * 0.5 * (bitcast<f32>(fill.high) - low);
}

// Element e of an iota: e, or e modulo `fill.low` where that is not 0.
fn iota(e: u32) -> u32 {
    return select(e, e % fill.low, fill.low != 0u);
}

@compute @workgroup_size(WG)
fn fill_pattern(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= arrayLength(&words) {
        return;
    }
    var word = 0u;
    switch fill.kind {
        case PATTERN_RANDOM_F32: { word = bitcast<u32>(in_range(random_f32(i, fill.seed))); }
        case PATTERN_RANDOM_INT: {
            let h = hash_u32(i ^ hash_u32(fill.seed));
            let span = fill.high - fill.low + 1u;
            word = fill.low + select(h % span, h, span == 0u);
        }
        case PATTERN_RANDOM_F16: {
            word = pack2x16float(vec2(in_range(random_f32(2u * i, fill.seed)), in_range(random_f32(2u * i + 1u, fill.seed))));
        }
        case PATTERN_IOTA_U32: { word = iota(i); }
        case PATTERN_IOTA_F32: { word = bitcast<u32>(f32(iota(i))); }
        case PATTERN_IOTA_F16: { word = pack2x16float(vec2(f32(iota(2u * i)), f32(iota(2u * i + 1u)))); }
        default: {}
    }
    words[i] = word;
}
