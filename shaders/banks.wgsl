// Workgroup-memory bank conflicts. Workgroup memory is split into 32 banks of 4-byte words (word a in bank
// a % 32); the 32 lanes of a warp are served in one pass only if they hit 32 different banks. Each
// workgroup fills a 2048-word tile with known values, then every invocation reads ROUNDS words at
// (lid * STRIDE + r) % 2048 and writes their sum: with STRIDE s, a warp's 32 reads fall in 32 / gcd(s, 32)
// banks, so they take gcd(s, 32) passes.
//   tile_read_plain    word a at tile[a].
//   tile_read_padded   one padding word after every 32 (word a at tile[a + a / 32]): a stride of 32 words
//                    becomes 33, and the lanes spread over all the banks again.

override WG: u32 = 256;
override STRIDE: u32 = 1;
const WORDS: u32 = 2048u;
const ROUNDS: u32 = 256u;

@group(0) @binding(0) var<storage, read_write> sums: array<u32>;

var<workgroup> tile: array<u32, 2112>; // WORDS plus one padding word per 32: 8448 bytes

// The value of word a: distinct, and cheap to recompute on the CPU (src/kernels/banks.rs).
fn value(a: u32) -> u32 {
    return a * 2654435761u;
}

fn read_tile(wid: vec3<u32>, nwg: vec3<u32>, lid: u32, padded: bool) {
    for (var a = lid; a < WORDS; a += WG) {
        var at = a;
        if padded { at = a + a / 32u; }
        tile[at] = value(a);
    }
    workgroupBarrier();
    var sum = 0u;
    for (var r = 0u; r < ROUNDS; r++) {
        let a = (lid * STRIDE + r) % WORDS;
        var at = a;
        if padded { at = a + a / 32u; }
        sum += tile[at];
    }
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&sums) { sums[i] = sum; }
}

@compute @workgroup_size(WG)
fn tile_read_plain(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                 @builtin(local_invocation_index) lid: u32) {
    read_tile(wid, nwg, lid, false);
}

@compute @workgroup_size(WG)
fn tile_read_padded(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                  @builtin(local_invocation_index) lid: u32) {
    read_tile(wid, nwg, lid, true);
}
