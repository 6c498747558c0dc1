// Matrix multiply C = A · B of square N × N row-major f32 matrices. N need not be a multiple of any
// workgroup or tile: loads outside the matrices read 0 and stores outside them are dropped.
//   matmul_naive_f32   invocation (x, y) computes C[y][x] alone, reading a row of A and a column of B straight
//                      from memory: 2N loads per 2N flops, saved only by the caches.
//   matmul_tiled       a TILE × TILE workgroup walks the K dimension in TILE × TILE tiles of A and B staged in
//                      workgroup memory (one load per invocation per tile, a barrier, TILE FMAs from the tiles, a
//                      barrier): each element loaded from memory serves TILE FMAs.
//   matmul_blocked     register blocking: each invocation computes a BLOCK × BLOCK block of C (BLOCK = 4 or 8), so
//                      a workgroup of WG_X × WG_Y covers a (WG_Y·BLOCK) × (WG_X·BLOCK) tile of C. K advances
//                      8 at a time through tiles of A (stored transposed) and B in workgroup memory; per step of k
//                      an invocation reads BLOCK values of A and BLOCK of B as vec4s and does BLOCK² FMAs on
//                      accumulators kept in registers. Far fewer workgroup-memory reads per FMA than tiled.

override WG_X: u32 = 16;
override WG_Y: u32 = 16;
override N: u32;
override TILE: u32 = 16;
override TILE_AREA: u32 = 256;
override BLOCK: u32 = 4;
// vec4s in one k-row of matmul_blocked's A tile (WG_Y·BLOCK / 4) and of its B tile (WG_X·BLOCK / 4).
override A_ROW_VEC4S: u32 = 16;
override B_ROW_VEC4S: u32 = 16;
// Elements of K per step of `matmul_blocked`.
const BK: u32 = 8u;
// The largest BLOCK, which sizes the register arrays (the compiler drops what a smaller BLOCK leaves unused).
const MAX_BLOCK: u32 = 8u;

@group(0) @binding(0) var<storage, read> a: array<f32>;
@group(0) @binding(1) var<storage, read> b: array<f32>;
@group(0) @binding(2) var<storage, read_write> c: array<f32>;

var<workgroup> tile_a: array<f32, TILE_AREA>;
var<workgroup> tile_b: array<f32, TILE_AREA>;
// matmul_blocked: BK rows of the A tile's columns (A transposed) and BK rows of the B tile, as vec4s.
var<workgroup> block_a: array<vec4<f32>, BK * A_ROW_VEC4S>;
var<workgroup> block_b: array<vec4<f32>, BK * B_ROW_VEC4S>;

fn element_a(row: u32, col: u32) -> f32 {
    if row < N && col < N { return a[row * N + col]; }
    return 0.0;
}

fn element_b(row: u32, col: u32) -> f32 {
    if row < N && col < N { return b[row * N + col]; }
    return 0.0;
}

@compute @workgroup_size(WG_X, WG_Y)
fn matmul_naive_f32(@builtin(global_invocation_id) id: vec3<u32>) {
    let row = id.y;
    let col = id.x;
    if row >= N || col >= N { return; }
    var sum = 0.0;
    for (var k = 0u; k < N; k++) {
        sum = fma(a[row * N + k], b[k * N + col], sum);
    }
    c[row * N + col] = sum;
}

@compute @workgroup_size(TILE, TILE)
fn matmul_tiled(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let row = wid.y * TILE + lid.y;
    let col = wid.x * TILE + lid.x;
    let at = lid.y * TILE + lid.x;
    var sum = 0.0;
    for (var k0 = 0u; k0 < N; k0 += TILE) {
        tile_a[at] = element_a(row, k0 + lid.x);
        tile_b[at] = element_b(k0 + lid.y, col);
        workgroupBarrier();
        for (var k = 0u; k < TILE; k++) {
            sum = fma(tile_a[lid.y * TILE + k], tile_b[k * TILE + lid.x], sum);
        }
        workgroupBarrier();
    }
    if row < N && col < N { c[row * N + col] = sum; }
}

@compute @workgroup_size(WG_X, WG_Y)
fn matmul_blocked(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
           @builtin(local_invocation_index) index: u32) {
    let tile_rows = WG_Y * BLOCK;
    let tile_cols = WG_X * BLOCK;
    let row0 = wid.y * tile_rows;
    let col0 = wid.x * tile_cols;
    let vec4s = BLOCK / 4u;
    // acc[i * 2 + h] holds row i of the block, columns 4h .. 4h + 3.
    var acc: array<vec4<f32>, 2 * MAX_BLOCK>;
    var row_a: array<vec4<f32>, 2>;
    var row_b: array<vec4<f32>, 2>;
    for (var k0 = 0u; k0 < N; k0 += BK) {
        // Stage A[row0 .. + tile_rows][k0 .. + BK] transposed, and B[k0 .. + BK][col0 .. + tile_cols].
        for (var e = index; e < tile_rows * BK; e += WG_X * WG_Y) {
            let m = e / BK;
            let k = e % BK;
            block_a[k * A_ROW_VEC4S + m / 4u][m % 4u] = element_a(row0 + m, k0 + k);
        }
        for (var e = index; e < BK * tile_cols; e += WG_X * WG_Y) {
            let k = e / tile_cols;
            let n = e % tile_cols;
            block_b[k * B_ROW_VEC4S + n / 4u][n % 4u] = element_b(k0 + k, col0 + n);
        }
        workgroupBarrier();
        // Loops run to the constant maxima and test BLOCK inside, so every compiler can unroll them fully
        // and keep acc, row_a and row_b in registers.
        for (var k = 0u; k < BK; k++) {
            for (var v = 0u; v < 2u; v++) {
                if v < vec4s {
                    row_a[v] = block_a[k * A_ROW_VEC4S + lid.y * vec4s + v];
                    row_b[v] = block_b[k * B_ROW_VEC4S + lid.x * vec4s + v];
                }
            }
            for (var i = 0u; i < MAX_BLOCK; i++) {
                if i < BLOCK {
                    let a_i = row_a[i / 4u][i % 4u];
                    for (var h = 0u; h < 2u; h++) {
                        if h < vec4s { acc[i * 2u + h] = fma(vec4(a_i), row_b[h], acc[i * 2u + h]); }
                    }
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < MAX_BLOCK; i++) {
        let row = row0 + lid.y * BLOCK + i;
        for (var h = 0u; h < 2u; h++) {
            let col = col0 + lid.x * BLOCK + 4u * h;
            let value = acc[i * 2u + h];
            for (var j = 0u; j < 4u; j++) {
                if i < BLOCK && h < vec4s && row < N && col + j < N { c[row * N + col + j] = value[j]; }
            }
        }
    }
}
