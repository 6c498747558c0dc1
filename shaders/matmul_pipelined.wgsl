// Matrix multiply C = A · B of square N × N row-major f32 matrices, the last step after matmul.wgsl's
// naive, tiled and blocked kernels: what a vendor's SGEMM does, in WGSL.
//   matmul_pipelined   a 16 × 16 workgroup computes a 128 × 128 tile of C, each invocation 8 × 8 outputs in
//                      16 vec4 registers: rows 4·ty .. +3 and 64 + 4·ty .. +3, columns 4·tx .. +3 and
//                      64 + 4·tx .. +3, so that a warp's reads of a tile row are 16 distinct vec4s (no bank
//                      conflicts). K advances BK = 8 or 16 at a time through two buffers of workgroup memory:
//                      while the FMAs of this step read one, the next step's tiles are loaded from memory
//                      (BK / 8 vec4s of A and as many of B per invocation) and stored to the other, one
//                      barrier a step. A's tile is stored transposed, so an invocation reads its 8 rows'
//                      values as 2 vec4s. The steps of k and the 64 FMAs of each are written out, not looped:
//                      with wgpu's shader checks a loop gets a guard that can stop the compiler unrolling it,
//                      and the accumulators would leave registers.
//   matmul_pipelined_tall  (k8_16x8) the same tile in workgroups of 16 × 8, each invocation 16 × 8 outputs in
//                      32 vec4 registers: rows 32·g + 4·ty .. +3 (g = 0…3), columns 4·tx .. +3 and 64 + 4·tx
//                      .. +3; BK = 8 only. Half the invocations, each with twice the FMAs per value it reads
//                      from workgroup memory: the shape CUDA found best on an H100 (docs/results/
//                      matmul-tiles-h100.md).
// Loads outside the matrices read 0 and stores outside them are dropped, so N need not be a multiple of the
// tile; where N is not a multiple of 4 (ALIGNED false) rows do not start on a vec4 and every access is scalar.
// A and B are arrays of `Input`, which the host declares before this file: vec4<f32>, or vec4<f16> (then
// with `enable f16;`), converted to f32 as they are loaded: the tiles, products and sums are f32 either way.

override N: u32;
override ALIGNED: bool = true;
// N is a multiple of 128: every tile lies inside the matrices, and no access needs a check. The code for
// the edges is then left out of the pipeline, and with it the registers it would hold.
override INSIDE: bool = false;
// Elements of K a step: 8 or 16.
override BK: u32 = 8u;

@group(0) @binding(0) var<storage, read> a: array<Input>;
@group(0) @binding(1) var<storage, read> b: array<Input>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;

// A step's tiles in workgroup memory, two buffers of BK rows of k, each row 32 vec4s (128 values): A's tile
// transposed (k-major), and B's tile. Each part of a read's index is an index of its own, so that where
// indices are clamped (wgpu's checks, a browser's robustness) a clamp is of the buffer (once a step), of a
// constant (none), or of the invocation's ty or tx (once a kernel), and not of each read's whole index. On
// an H200 that made `k8_16x8` 1.13× as fast with wgpu's checks and 1.14× in Chromium, `k16` 1.07–1.08×
// (docs/results/index-clamps-h200.md).
//   matmul_pipelined       [buffer][k][h][t] of both, the vec4 at 16·h + t of a row (an invocation reads
//                          h = 0, 1 at its ty of A, at its tx of B); 16 rows a buffer, of which BK = 8 uses 8
//   matmul_pipelined_tall  [buffer][k][g][ty] of A, the vec4 at 8·g + ty (g = 0…3), and [buffer][k][h][tx] of
//                          B, at 16·h + tx; 8 rows a buffer (16 KiB: the same layout in the other's 32 KiB
//                          ran at 0.65×, and two workgroups of 128 invocations an SM are what it is made for)
var<workgroup> tile_a: array<array<array<array<vec4<f32>, 16>, 2>, 16>, 2>;
var<workgroup> tile_b: array<array<array<array<vec4<f32>, 16>, 2>, 16>, 2>;
var<workgroup> tall_a: array<array<array<array<vec4<f32>, 8>, 4>, 8>, 2>;
var<workgroup> tall_b: array<array<array<array<vec4<f32>, 16>, 2>, 8>, 2>;

// The vec4 at `at` of A or B (`from_a` is constant where it is called: the branch folds away).
fn vec4_of(from_a: bool, at: u32) -> vec4<f32> {
    if from_a { return vec4<f32>(a[at]); }
    return vec4<f32>(b[at]);
}

fn scalar(from_a: bool, row: u32, col: u32) -> f32 {
    if row < N && col < N {
        let at = row * N + col;
        return vec4_of(from_a, at / 4u)[at % 4u];
    }
    return 0.0;
}

// Four consecutive elements of a row of A or B, from `col` on; 0 outside the matrix.
fn load(from_a: bool, row: u32, col: u32) -> vec4<f32> {
    if INSIDE {
        return vec4_of(from_a, (row * N + col) / 4u);
    }
    if ALIGNED && row < N && col < N {
        // N and col are multiples of 4: the vec4 is inside the row.
        return vec4_of(from_a, (row * N + col) / 4u);
    }
    return vec4(scalar(from_a, row, col), scalar(from_a, row, col + 1u), scalar(from_a, row, col + 2u),
                scalar(from_a, row, col + 3u));
}

// One k of the tiles in workgroup memory (their row `k`): 8 values of A, 8 of B, 64 FMAs.
// acc[2i] and acc[2i + 1]: row i of the invocation's block (rows 0–3 at 4·ty, 4–7 at 64 + 4·ty), its columns
// at 4·tx and at 64 + 4·tx.
fn step(acc: ptr<function, array<vec4<f32>, 16>>, buffer: u32, k: u32, ty: u32, tx: u32) {
    let a0 = tile_a[buffer][k][0][ty];
    let a1 = tile_a[buffer][k][1][ty];
    let b0 = tile_b[buffer][k][0][tx];
    let b1 = tile_b[buffer][k][1][tx];
    (*acc)[0] = fma(vec4(a0.x), b0, (*acc)[0]);
    (*acc)[1] = fma(vec4(a0.x), b1, (*acc)[1]);
    (*acc)[2] = fma(vec4(a0.y), b0, (*acc)[2]);
    (*acc)[3] = fma(vec4(a0.y), b1, (*acc)[3]);
    (*acc)[4] = fma(vec4(a0.z), b0, (*acc)[4]);
    (*acc)[5] = fma(vec4(a0.z), b1, (*acc)[5]);
    (*acc)[6] = fma(vec4(a0.w), b0, (*acc)[6]);
    (*acc)[7] = fma(vec4(a0.w), b1, (*acc)[7]);
    (*acc)[8] = fma(vec4(a1.x), b0, (*acc)[8]);
    (*acc)[9] = fma(vec4(a1.x), b1, (*acc)[9]);
    (*acc)[10] = fma(vec4(a1.y), b0, (*acc)[10]);
    (*acc)[11] = fma(vec4(a1.y), b1, (*acc)[11]);
    (*acc)[12] = fma(vec4(a1.z), b0, (*acc)[12]);
    (*acc)[13] = fma(vec4(a1.z), b1, (*acc)[13]);
    (*acc)[14] = fma(vec4(a1.w), b0, (*acc)[14]);
    (*acc)[15] = fma(vec4(a1.w), b1, (*acc)[15]);
}

// The BK steps of k of the tiles in `buffer`.
fn steps(acc: ptr<function, array<vec4<f32>, 16>>, buffer: u32, ty: u32, tx: u32) {
    step(acc, buffer, 0u, ty, tx);
    step(acc, buffer, 1u, ty, tx);
    step(acc, buffer, 2u, ty, tx);
    step(acc, buffer, 3u, ty, tx);
    step(acc, buffer, 4u, ty, tx);
    step(acc, buffer, 5u, ty, tx);
    step(acc, buffer, 6u, ty, tx);
    step(acc, buffer, 7u, ty, tx);
    if BK == 16u {
        step(acc, buffer, 8u, ty, tx);
        step(acc, buffer, 9u, ty, tx);
        step(acc, buffer, 10u, ty, tx);
        step(acc, buffer, 11u, ty, tx);
        step(acc, buffer, 12u, ty, tx);
        step(acc, buffer, 13u, ty, tx);
        step(acc, buffer, 14u, ty, tx);
        step(acc, buffer, 15u, ty, tx);
    }
}

// What one invocation of a workgroup of `invocations` loads of a step's tiles, `part` 0 or (for BK = 16, or
// 128 invocations) 1: A[m][k .. +3] and B[k][4n .. +3] of the tiles, consecutive invocations along a row.
struct Share {
    a_m: u32,
    a_k: u32,
    b_k: u32,
    b_n: u32,
}

fn share(index: u32, part: u32, invocations: u32) -> Share {
    let at = index + invocations * part;
    let a_vec4s_a_row = BK / 4u;
    return Share(at / a_vec4s_a_row, (at % a_vec4s_a_row) * 4u, at / 32u, at % 32u);
}

// The share's A vec4 at k0 (to be stored transposed) and B vec4.
fn fetch(s: Share, row0: u32, col0: u32, k0: u32) -> array<vec4<f32>, 2> {
    return array(load(true, row0 + s.a_m, k0 + s.a_k), load(false, k0 + s.b_k, col0 + 4u * s.b_n));
}

fn stage(buffer: u32, s: Share, fetched: array<vec4<f32>, 2>) {
    let h = s.a_m / 64u;
    let t = s.a_m / 4u % 16u;
    let m = s.a_m % 4u;
    tile_a[buffer][s.a_k][h][t][m] = fetched[0].x;
    tile_a[buffer][s.a_k + 1u][h][t][m] = fetched[0].y;
    tile_a[buffer][s.a_k + 2u][h][t][m] = fetched[0].z;
    tile_a[buffer][s.a_k + 3u][h][t][m] = fetched[0].w;
    tile_b[buffer][s.b_k][s.b_n / 16u][s.b_n % 16u] = fetched[1];
}

// C's 4 elements of `row` from `col` on, those inside the matrix.
fn store(row: u32, col: u32, value: vec4<f32>) {
    if INSIDE {
        c[(row * N + col) / 4u] = value;
        return;
    }
    if row >= N { return; }
    if ALIGNED && col < N {
        c[(row * N + col) / 4u] = value;
        return;
    }
    for (var j = 0u; j < 4u; j++) {
        if col + j < N {
            let at = row * N + col + j;
            c[at / 4u][at % 4u] = value[j];
        }
    }
}

@compute @workgroup_size(16, 16)
fn matmul_pipelined(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
                    @builtin(local_invocation_index) index: u32) {
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    let ty = lid.y;
    let tx = lid.x;
    let first = share(index, 0u, 256u);
    let second = share(index, 1u, 256u);
    let two = BK == 16u;

    stage(0u, first, fetch(first, row0, col0, 0u));
    if two { stage(0u, second, fetch(second, row0, col0, 0u)); }
    workgroupBarrier();
    var acc: array<vec4<f32>, 16>;
    var buffer = 0u;
    var k0 = 0u;
    // Every step but the last loads the next step's tiles before its FMAs, which hide the loads' latency.
    for (; k0 + BK < N; k0 += BK) {
        let next = k0 + BK;
        let fetched_first = fetch(first, row0, col0, next);
        var fetched_second = array(vec4(0.0), vec4(0.0));
        if two { fetched_second = fetch(second, row0, col0, next); }
        steps(&acc, buffer, ty, tx);
        buffer = 1u - buffer;
        stage(buffer, first, fetched_first);
        if two { stage(buffer, second, fetched_second); }
        // One barrier a step: the buffer just staged is read after it, the one just read is written only
        // after the next.
        workgroupBarrier();
    }
    // The last step, whose tiles are staged already.
    steps(&acc, buffer, ty, tx);
    // Written out: an index that is not a constant would move the accumulators to memory.
    let top = row0 + 4u * ty;
    let bottom = row0 + 64u + 4u * ty;
    let left = col0 + 4u * tx;
    let right = col0 + 64u + 4u * tx;
    store(top, left, acc[0]);
    store(top, right, acc[1]);
    store(top + 1u, left, acc[2]);
    store(top + 1u, right, acc[3]);
    store(top + 2u, left, acc[4]);
    store(top + 2u, right, acc[5]);
    store(top + 3u, left, acc[6]);
    store(top + 3u, right, acc[7]);
    store(bottom, left, acc[8]);
    store(bottom, right, acc[9]);
    store(bottom + 1u, left, acc[10]);
    store(bottom + 1u, right, acc[11]);
    store(bottom + 2u, left, acc[12]);
    store(bottom + 2u, right, acc[13]);
    store(bottom + 3u, left, acc[14]);
    store(bottom + 3u, right, acc[15]);
}

// matmul_pipelined_tall's one k (BK = 8; `k` is a constant where it is called): 16 values of A (4 vec4s, rows
// 32 apart), 8 of B, 128 FMAs. acc[2i] and acc[2i + 1]: row i of the invocation's 16 (4 at 32·g + 4·ty), its
// columns at 4·tx and 64 + 4·tx.
fn step_tall(acc: ptr<function, array<vec4<f32>, 32>>, buffer: u32, k: u32, ty: u32, tx: u32) {
    let a0 = tall_a[buffer][k][0][ty];
    let a1 = tall_a[buffer][k][1][ty];
    let a2 = tall_a[buffer][k][2][ty];
    let a3 = tall_a[buffer][k][3][ty];
    let b0 = tall_b[buffer][k][0][tx];
    let b1 = tall_b[buffer][k][1][tx];
    (*acc)[0] = fma(vec4(a0.x), b0, (*acc)[0]);
    (*acc)[1] = fma(vec4(a0.x), b1, (*acc)[1]);
    (*acc)[2] = fma(vec4(a0.y), b0, (*acc)[2]);
    (*acc)[3] = fma(vec4(a0.y), b1, (*acc)[3]);
    (*acc)[4] = fma(vec4(a0.z), b0, (*acc)[4]);
    (*acc)[5] = fma(vec4(a0.z), b1, (*acc)[5]);
    (*acc)[6] = fma(vec4(a0.w), b0, (*acc)[6]);
    (*acc)[7] = fma(vec4(a0.w), b1, (*acc)[7]);
    (*acc)[8] = fma(vec4(a1.x), b0, (*acc)[8]);
    (*acc)[9] = fma(vec4(a1.x), b1, (*acc)[9]);
    (*acc)[10] = fma(vec4(a1.y), b0, (*acc)[10]);
    (*acc)[11] = fma(vec4(a1.y), b1, (*acc)[11]);
    (*acc)[12] = fma(vec4(a1.z), b0, (*acc)[12]);
    (*acc)[13] = fma(vec4(a1.z), b1, (*acc)[13]);
    (*acc)[14] = fma(vec4(a1.w), b0, (*acc)[14]);
    (*acc)[15] = fma(vec4(a1.w), b1, (*acc)[15]);
    (*acc)[16] = fma(vec4(a2.x), b0, (*acc)[16]);
    (*acc)[17] = fma(vec4(a2.x), b1, (*acc)[17]);
    (*acc)[18] = fma(vec4(a2.y), b0, (*acc)[18]);
    (*acc)[19] = fma(vec4(a2.y), b1, (*acc)[19]);
    (*acc)[20] = fma(vec4(a2.z), b0, (*acc)[20]);
    (*acc)[21] = fma(vec4(a2.z), b1, (*acc)[21]);
    (*acc)[22] = fma(vec4(a2.w), b0, (*acc)[22]);
    (*acc)[23] = fma(vec4(a2.w), b1, (*acc)[23]);
    (*acc)[24] = fma(vec4(a3.x), b0, (*acc)[24]);
    (*acc)[25] = fma(vec4(a3.x), b1, (*acc)[25]);
    (*acc)[26] = fma(vec4(a3.y), b0, (*acc)[26]);
    (*acc)[27] = fma(vec4(a3.y), b1, (*acc)[27]);
    (*acc)[28] = fma(vec4(a3.z), b0, (*acc)[28]);
    (*acc)[29] = fma(vec4(a3.z), b1, (*acc)[29]);
    (*acc)[30] = fma(vec4(a3.w), b0, (*acc)[30]);
    (*acc)[31] = fma(vec4(a3.w), b1, (*acc)[31]);
}

fn steps_tall(acc: ptr<function, array<vec4<f32>, 32>>, buffer: u32, ty: u32, tx: u32) {
    step_tall(acc, buffer, 0u, ty, tx);
    step_tall(acc, buffer, 1u, ty, tx);
    step_tall(acc, buffer, 2u, ty, tx);
    step_tall(acc, buffer, 3u, ty, tx);
    step_tall(acc, buffer, 4u, ty, tx);
    step_tall(acc, buffer, 5u, ty, tx);
    step_tall(acc, buffer, 6u, ty, tx);
    step_tall(acc, buffer, 7u, ty, tx);
}

// What `stage` does, into matmul_pipelined_tall's tiles (the vec4 at m / 4 of A's row is at [g][ty] =
// [m / 32][m / 4 % 8], B's at n at [n / 16][n % 16]).
fn stage_tall(buffer: u32, s: Share, fetched: array<vec4<f32>, 2>) {
    let g = s.a_m / 32u;
    let ty = s.a_m / 4u % 8u;
    let m = s.a_m % 4u;
    tall_a[buffer][s.a_k][g][ty][m] = fetched[0].x;
    tall_a[buffer][s.a_k + 1u][g][ty][m] = fetched[0].y;
    tall_a[buffer][s.a_k + 2u][g][ty][m] = fetched[0].z;
    tall_a[buffer][s.a_k + 3u][g][ty][m] = fetched[0].w;
    tall_b[buffer][s.b_k][s.b_n / 16u][s.b_n % 16u] = fetched[1];
}

@compute @workgroup_size(16, 8)
fn matmul_pipelined_tall(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
                         @builtin(local_invocation_index) index: u32) {
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    let ty = lid.y;
    let tx = lid.x;
    // 128 invocations load a step's 256 vec4s of A and of B in two parts.
    let first = share(index, 0u, 128u);
    let second = share(index, 1u, 128u);

    stage_tall(0u, first, fetch(first, row0, col0, 0u));
    stage_tall(0u, second, fetch(second, row0, col0, 0u));
    workgroupBarrier();
    var acc: array<vec4<f32>, 32>;
    var buffer = 0u;
    var k0 = 0u;
    for (; k0 + BK < N; k0 += BK) {
        let next = k0 + BK;
        let fetched_first = fetch(first, row0, col0, next);
        let fetched_second = fetch(second, row0, col0, next);
        steps_tall(&acc, buffer, ty, tx);
        buffer = 1u - buffer;
        stage_tall(buffer, first, fetched_first);
        stage_tall(buffer, second, fetched_second);
        workgroupBarrier();
    }
    steps_tall(&acc, buffer, ty, tx);
    let top = row0 + 4u * ty;
    let left = col0 + 4u * tx;
    let right = col0 + 64u + 4u * tx;
    store(top, left, acc[0]);
    store(top, right, acc[1]);
    store(top + 1u, left, acc[2]);
    store(top + 1u, right, acc[3]);
    store(top + 2u, left, acc[4]);
    store(top + 2u, right, acc[5]);
    store(top + 3u, left, acc[6]);
    store(top + 3u, right, acc[7]);
    store(top + 32u, left, acc[8]);
    store(top + 32u, right, acc[9]);
    store(top + 33u, left, acc[10]);
    store(top + 33u, right, acc[11]);
    store(top + 34u, left, acc[12]);
    store(top + 34u, right, acc[13]);
    store(top + 35u, left, acc[14]);
    store(top + 35u, right, acc[15]);
    store(top + 64u, left, acc[16]);
    store(top + 64u, right, acc[17]);
    store(top + 65u, left, acc[18]);
    store(top + 65u, right, acc[19]);
    store(top + 66u, left, acc[20]);
    store(top + 66u, right, acc[21]);
    store(top + 67u, left, acc[22]);
    store(top + 67u, right, acc[23]);
    store(top + 96u, left, acc[24]);
    store(top + 96u, right, acc[25]);
    store(top + 97u, left, acc[26]);
    store(top + 97u, right, acc[27]);
    store(top + 98u, left, acc[28]);
    store(top + 98u, right, acc[29]);
    store(top + 99u, left, acc[30]);
    store(top + 99u, right, acc[31]);
}
