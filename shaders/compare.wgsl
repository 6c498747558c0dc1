// Validation on the GPU. A configuration's output (`found`, read as raw words) is compared, every element,
// with the CPU reference uploaded once per input (`expected`: each element's value and tolerance; or
// `expected_words`, the words alone, where each must match bit for bit), and only a summary comes back to
// the host; or, where each word must match bit for bit, its digest is (`digest_words`). Word i is held to
// element i % period of the reference (outputs that repeat store one period).
// The rule is the CPU's (src/kernel/check.rs, `Expected::admits`): a tolerance of -1 asks for the very bits
// (integers), -2 for nothing (padding), -3 for any bits but the expected word's (the poison: an integer
// written but not checked by value); a tolerance word whose top 16 bits are all set holds two f16 elements
// to the f16 tolerance in its low bits, each as a float; one whose top 16 bits are 0xfffe holds four bytes
// (an rgba8unorm texel) each to the tolerance in its low bits, in 255ths; otherwise, as `passes`:
// NaN never passes; the very bits pass (and +0 against -0); with a tolerance of 0 nothing else does;
// otherwise |found - expected| <= tolerance.
// The summary: how many elements were wrong, the lowest wrong index (the host reads the first mismatches
// from there), and the largest |found - expected| over every element, as f32 bits (non-negative floats
// order like their bits; a NaN sorts above infinity).

override WG: u32 = 256;

struct Summary {
    wrong: atomic<u32>,
    first_wrong: atomic<u32>,
    largest_error: atomic<u32>,
}

// One span compares words first … first + count - 1 of the output (bound from `first` on) with one part of
// the reference: a reference is twice its output and may need several bindings.
struct Span {
    count: u32,
    period: u32,
    first: u32,
}

@group(0) @binding(0) var<storage, read> found: array<u32>;
@group(0) @binding(1) var<storage, read> expected: array<vec2<u32>>; // as bits: a word's bits pass through untouched
@group(0) @binding(2) var<storage, read_write> summary: Summary;
@group(0) @binding(3) var<uniform> span: Span;

const QUIET_NAN: u32 = 0x7fc00000u;
const HALVES: u32 = 0xffff0000u;
const BYTES: u32 = 0xfffe0000u;
const WORD: f32 = -1.0;
const ANY: f32 = -2.0;
const UNPOISONED: f32 = -3.0;

fn is_nan(bits: u32) -> bool {
    return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0u;
}

fn same(found_bits: u32, want_bits: u32) -> bool {
    return found_bits == want_bits || ((found_bits | want_bits) & 0x7fffffffu) == 0u;
}

// Two f16 elements against theirs: whether both pass, and the larger error (as f32 bits).
fn halves(found_bits: u32, want_bits: u32, tolerance: f32) -> vec2<u32> {
    let found = unpack2x16float(found_bits);
    let want = unpack2x16float(want_bits);
    var passes = 1u;
    var error_bits = 0u;
    for (var lane = 0u; lane < 2u; lane++) {
        let shift = 16u * lane;
        let found_half = (found_bits >> shift) & 0xffffu;
        let want_half = (want_bits >> shift) & 0xffffu;
        let error = abs(found[lane] - want[lane]);
        if found[lane] != found[lane] {
            passes = 0u;
            error_bits = QUIET_NAN;
        } else if found_half != want_half && ((found_half | want_half) & 0x7fffu) != 0u {
            passes = select(0u, passes, tolerance > 0.0 && error <= tolerance);
            error_bits = max(error_bits, select(bitcast<u32>(error), QUIET_NAN, error != error));
        }
    }
    return vec2(passes, error_bits);
}

// Four bytes against theirs: whether each is within `tolerance` (in 255ths), and the largest difference
// (as f32 bits, in 255ths of the full scale).
fn bytes(found_bits: u32, want_bits: u32, tolerance: u32) -> vec2<u32> {
    var largest = 0u;
    for (var lane = 0u; lane < 4u; lane++) {
        let found = (found_bits >> (8u * lane)) & 0xffu;
        let want = (want_bits >> (8u * lane)) & 0xffu;
        largest = max(largest, max(found, want) - min(found, want));
    }
    return vec2(select(0u, 1u, largest <= tolerance), bitcast<u32>(f32(largest) / 255.0));
}

// Each workgroup gathers its own summary in workgroup memory, then adds it to the global one once: a
// global atomic per element would queue millions of invocations on one address.
var<workgroup> group_wrong: atomic<u32>;
var<workgroup> group_first_wrong: atomic<u32>;
var<workgroup> group_largest_error: atomic<u32>;

fn begin_group(lid: u32) {
    if lid == 0u {
        atomicStore(&group_wrong, 0u);
        atomicStore(&group_first_wrong, 0xffffffffu);
        atomicStore(&group_largest_error, 0u);
    }
    workgroupBarrier();
}

fn end_group(lid: u32) {
    workgroupBarrier();
    if lid == 0u {
        let wrong = atomicLoad(&group_wrong);
        if wrong > 0u {
            atomicAdd(&summary.wrong, wrong);
            atomicMin(&summary.first_wrong, atomicLoad(&group_first_wrong));
        }
        atomicMax(&summary.largest_error, atomicLoad(&group_largest_error));
    }
}

// Holds word i of the output to `element` (its value's bits and its tolerance's or a tag, as above).
fn judge(i: u32, element: vec2<u32>) {
    let found_bits = found[i];
    let want = bitcast<f32>(element.x);
    let tolerance = bitcast<f32>(element.y);
    var passes: bool;
    var error_bits = 0u;
    if (element.y & HALVES) == HALVES {
        let result = halves(found_bits, element.x, unpack2x16float(element.y & 0xffffu).x);
        passes = result.x == 1u;
        error_bits = result.y;
    } else if (element.y & HALVES) == BYTES {
        let result = bytes(found_bits, element.x, element.y & 0xffu);
        passes = result.x == 1u;
        error_bits = result.y;
    } else if tolerance == ANY {
        passes = true;
    } else if tolerance == WORD {
        passes = found_bits == element.x;
    } else if tolerance == UNPOISONED {
        passes = found_bits != element.x;
    } else if is_nan(found_bits) {
        passes = false;
        error_bits = QUIET_NAN;
    } else if same(found_bits, element.x) {
        passes = true;
    } else {
        let error = abs(bitcast<f32>(found_bits) - want);
        passes = tolerance > 0.0 && error <= tolerance;
        // inf - inf is NaN: a wrong infinity is the largest error there is.
        error_bits = select(bitcast<u32>(error), QUIET_NAN, error != error);
    }
    atomicMax(&group_largest_error, error_bits);
    if !passes {
        atomicAdd(&group_wrong, 1u);
        atomicMin(&group_first_wrong, span.first + i);
    }
}

@compute @workgroup_size(WG)
fn compare(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
           @builtin(local_invocation_index) lid: u32) {
    begin_group(lid);
    let i = invocation_index(wid, nwg, lid);
    if i < span.count {
        judge(i, expected[i % span.period]);
    }
    end_group(lid);
}

// A reference whose every element is a word to match bit for bit, stored as the words alone: half the
// bytes of `expected`.
@group(0) @binding(6) var<storage, read> expected_words: array<u32>;

@compute @workgroup_size(WG)
fn compare_words(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    begin_group(lid);
    let i = invocation_index(wid, nwg, lid);
    if i < span.count {
        judge(i, vec2(expected_words[i % span.period], bitcast<u32>(WORD)));
    }
    end_group(lid);
}

// The digest of a span of the output, added to the two sums in `digest` (src/kernel/digest.rs, whose
// `mix` is this one's twin): each word mixed with its index, once per lane, the terms added up modulo 2^32.
// Compared with the CPU's digest of a reference of words alone, which is then never uploaded.
struct Digest {
    lanes: array<atomic<u32>, 2>,
}

@group(0) @binding(7) var<storage, read_write> digest: Digest;
var<workgroup> group_lanes: array<atomic<u32>, 2>;

// MurmurHash3's 32-bit finalizer: a bijection of words.
fn mix(word: u32) -> u32 {
    var x = word ^ (word >> 16u);
    x *= 0x85ebca6bu;
    x ^= x >> 13u;
    x *= 0xc2b2ae35u;
    return x ^ (x >> 16u);
}

const LANE_KEYS = array(0x9e3779b9u, 0x7f4a7c15u);

@compute @workgroup_size(WG)
fn digest_words(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                @builtin(local_invocation_index) lid: u32) {
    if lid < 2u {
        atomicStore(&group_lanes[lid], 0u);
    }
    workgroupBarrier();
    let i = invocation_index(wid, nwg, lid);
    if i < span.count {
        let word = found[i];
        let index = span.first + i;
        atomicAdd(&group_lanes[0], mix(word ^ mix(index ^ LANE_KEYS[0])));
        atomicAdd(&group_lanes[1], mix(word ^ mix(index ^ LANE_KEYS[1])));
    }
    workgroupBarrier();
    if lid < 2u {
        atomicAdd(&digest.lanes[lid], atomicLoad(&group_lanes[lid]));
    }
}

// A reference made on the GPU from an output a trusted run wrote (a user's reference entry point, or the
// first configuration that ran): each word of `found` becomes the element it must match. Kinds: 0, the
// very bits (integers); 1, an f32 within tolerance × max(|want|, 1); 2, two f16 elements within tolerance
// × the larger magnitude (at least 1), as an f16; 3, four unorm bytes each within tolerance of the full
// scale. A word the trusted run left as `poison` (the fill of an
// output before it is written, and of the guard past its end) must stay so, bit for bit: a NaN matches no
// tolerance.
struct Encoding {
    count: u32,
    kind: u32,
    tolerance: f32,
    poison: u32,
}

@group(0) @binding(4) var<storage, read_write> encoded: array<vec2<u32>>;
@group(0) @binding(5) var<uniform> encoding: Encoding;

@compute @workgroup_size(WG)
fn encode(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
          @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= encoding.count {
        return;
    }
    let bits = found[i];
    if bits == encoding.poison {
        encoded[i] = vec2(bits, bitcast<u32>(WORD));
        return;
    }
    switch encoding.kind {
        case 0u: { encoded[i] = vec2(bits, bitcast<u32>(WORD)); }
        case 1u: { encoded[i] = vec2(bits, bitcast<u32>(encoding.tolerance * max(abs(bitcast<f32>(bits)), 1.0))); }
        case 3u: { encoded[i] = vec2(bits, BYTES | min(u32(floor(encoding.tolerance * 255.0 + 1e-3)), 255u)); }
        default: {
            let pair = abs(unpack2x16float(bits));
            let tolerance = encoding.tolerance * max(max(pair.x, pair.y), 1.0);
            encoded[i] = vec2(bits, HALVES | (pack2x16float(vec2(tolerance, 0.0)) & 0xffffu));
        }
    }
}
