// Histograms of bytes, four per u32 word (little-endian), into BINS bins counted with atomics.
// A byte's bin: up to 256 bins, its top log2(BINS) bits; with more, one 256-bin histogram per byte lane
// (LANES of them: 4 are the channels of RGBA8 pixels, 16 the bytes of 16-byte records).
//   histogram_global     every invocation reads one word and atomicAdds its four bytes straight into
//                        `counts`.
//   histogram_workgroup  each workgroup counts into its own bins in workgroup memory (zeroed first), over
//                        the words a whole grid apart, then adds each nonzero bin to `counts` once.
// The input is uniform (every byte equally likely) or skewed (7 bytes in 8 are 0, so one bin takes most
// adds); `make_input` writes it, and src/kernels/histogram.rs computes the same words to check counts.
// hash_u32 comes from shaders/hash.wgsl, which the host prepends.

override WG: u32 = 256;
override BINS: u32 = 256;
override LANES: u32 = 1;
// 8 - log2(bins per lane): how far a byte shifts to give its bin within its lane.
override SHIFT: u32 = 0;
override SEED: u32 = 0;
override SKEWED: bool = false;

@group(0) @binding(0) var<storage, read> words: array<u32>;
@group(0) @binding(1) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(2) var<storage, read_write> input: array<u32>;

var<workgroup> workgroup_counts: array<atomic<u32>, BINS>;

// Word i of the input: uniform bytes, or, skewed, each byte kept with probability 1/8 and 0 otherwise.
@compute @workgroup_size(WG)
fn make_input(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i >= arrayLength(&input) { return; }
    let key = i ^ hash_u32(SEED);
    var word = hash_u32(key);
    if SKEWED {
        // A byte survives where all three of its low bits in a second hash are 0.
        let chooser = hash_u32(key ^ 0x9e3779b9u);
        var keep = 0u;
        for (var k = 0u; k < 4u; k++) {
            if ((chooser >> (8u * k)) & 7u) == 0u { keep |= 0xffu << (8u * k); }
        }
        word &= keep;
    }
    input[i] = word;
}

// The bin of byte k (0..3) of word i.
fn bin(i: u32, k: u32, word: u32) -> u32 {
    let byte = (word >> (8u * k)) & 0xffu;
    let lane = (4u * i + k) % LANES;
    return lane * (BINS / LANES) + (byte >> SHIFT);
}

@compute @workgroup_size(WG)
fn histogram_global(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                    @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&words) {
        let word = words[i];
        for (var k = 0u; k < 4u; k++) { atomicAdd(&counts[bin(i, k, word)], 1u); }
    }
}

@compute @workgroup_size(WG)
fn histogram_workgroup(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                       @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let stride = nwg.x * nwg.y * WG;
    for (var b = lid; b < BINS; b += WG) { atomicStore(&workgroup_counts[b], 0u); }
    workgroupBarrier();
    for (var i = group * WG + lid; i < arrayLength(&words); i += stride) {
        let word = words[i];
        for (var k = 0u; k < 4u; k++) { atomicAdd(&workgroup_counts[bin(i, k, word)], 1u); }
    }
    workgroupBarrier();
    for (var b = lid; b < BINS; b += WG) {
        let count = atomicLoad(&workgroup_counts[b]);
        if count != 0u { atomicAdd(&counts[b], count); }
    }
}
