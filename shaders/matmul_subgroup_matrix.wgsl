// C = A·B on subgroup matrices (Chromium's chromium_experimental_subgroup_matrix: tensor cores underneath).
// A is an n × n matrix of 8-bit integers stored row by row, B one stored column by column (as cuBLAS's int8
// products want it), four to a word: each row of A and column of B runs along k. C is n × n of 32-bit
// integers, row by row.
//
// A workgroup is one subgroup of 32 and computes a block of C of 2 × COLS tiles of 16 × 16 (the
// configuration's M × N; COLS is 2 or 4), adding to each a 16 × 32 by 32 × 16 product (K = 32) a step of k.
// Each step its invocations copy the next 32 bytes of the block's rows of A and columns of B into workgroup
// memory (16 bytes an invocation a load), into the other of two buffers while this step's products run.
//
// Written out, not looped: an array of subgroup matrices indexed in a loop ran at half the speed, and so
// did 4 × 4 tiles (registers, presumably). One subgroup a workgroup: Chromium requires subgroupMatrixStore's
// offset to be uniform over the workgroup, so the subgroups of a larger one cannot each store their own
// block.
//
// The host appends the types of the adapter's configuration: `Word` (the words C and the staged tiles hold:
// u32, or i32 for i8), `Left`, `Right` and `Result` (its subgroup matrices), and COLS.
enable chromium_experimental_subgroup_matrix;

override N: u32;
/// Bytes a staged row of A or column of B takes: 16 more than the 32 it holds, so that the eight 16-byte rows
/// a subgroup reads at once from workgroup memory fall in different banks.
const ROW = 48u;
const ROW_WORDS = ROW / 4u;
const BLOCK_M = 32u;
const BLOCK_N = COLS * 16u;
/// One step's staged A and B, in words.
const A_WORDS = BLOCK_M * ROW_WORDS;
const B_WORDS = BLOCK_N * ROW_WORDS;

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<Word>;

var<workgroup> a_tiles: array<Word, 2 * A_WORDS>;
var<workgroup> b_tiles: array<Word, 2 * B_WORDS>;

/// Vec4 `line` × 2 + `part` of a step: part `part` (of 2) of a row of A or column of B, into `buffer`.
fn stage_a(buffer: u32, line: u32, part: u32, v: vec4<u32>) {
    let at = buffer * A_WORDS + line * ROW_WORDS + part * 4u;
    a_tiles[at] = bitcast<Word>(v.x);
    a_tiles[at + 1u] = bitcast<Word>(v.y);
    a_tiles[at + 2u] = bitcast<Word>(v.z);
    a_tiles[at + 3u] = bitcast<Word>(v.w);
}

fn stage_b(buffer: u32, line: u32, part: u32, v: vec4<u32>) {
    let at = buffer * B_WORDS + line * ROW_WORDS + part * 4u;
    b_tiles[at] = bitcast<Word>(v.x);
    b_tiles[at + 1u] = bitcast<Word>(v.y);
    b_tiles[at + 2u] = bitcast<Word>(v.z);
    b_tiles[at + 3u] = bitcast<Word>(v.w);
}

@compute @workgroup_size(32)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>,
                          @builtin(local_invocation_index) local: u32) {
    let row0 = group.y * BLOCK_M;
    let col0 = group.x * BLOCK_N;
    let line_vec4s = N / 16u; // a row of A or a column of B
    // This invocation copies half `part` of lines `line` and `line + 16` (and for B `line + 32`, `+ 48`).
    let line = local / 2u;
    let part = local % 2u;
    let a_at = (row0 + line) * line_vec4s + part;
    let b_at = (col0 + line) * line_vec4s + part;
    let sixteen = 16u * line_vec4s;
    var a0 = a[a_at];
    var a1 = a[a_at + sixteen];
    var b0 = b[b_at];
    var b1 = b[b_at + sixteen];
    var b2 = vec4(0u);
    var b3 = vec4(0u);
    if COLS == 4u {
        b2 = b[b_at + 2u * sixteen];
        b3 = b[b_at + 3u * sixteen];
    }

    var c00 = Result();
    var c01 = Result();
    var c02 = Result();
    var c03 = Result();
    var c10 = Result();
    var c11 = Result();
    var c12 = Result();
    var c13 = Result();
    let steps = N / 32u;
    for (var step = 0u; step < steps; step++) {
        // Into this step's buffer what was loaded for it, then the next step's vec4s from memory.
        let here = step % 2u;
        stage_a(here, line, part, a0);
        stage_a(here, line + 16u, part, a1);
        stage_b(here, line, part, b0);
        stage_b(here, line + 16u, part, b1);
        if COLS == 4u {
            stage_b(here, line + 32u, part, b2);
            stage_b(here, line + 48u, part, b3);
        }
        workgroupBarrier();
        if step + 1u < steps {
            let k = (step + 1u) * 2u;
            a0 = a[a_at + k];
            a1 = a[a_at + sixteen + k];
            b0 = b[b_at + k];
            b1 = b[b_at + sixteen + k];
            if COLS == 4u {
                b2 = b[b_at + 2u * sixteen + k];
                b3 = b[b_at + 3u * sixteen + k];
            }
        }
        // Offsets and strides count 8-bit elements: A's tiles row by row, B's column by column.
        let a_tile = here * A_WORDS * 4u;
        let b_tile = here * B_WORDS * 4u;
        let l0 = subgroupMatrixLoad<Left>(&a_tiles, a_tile, false, ROW);
        let l1 = subgroupMatrixLoad<Left>(&a_tiles, a_tile + 16u * ROW, false, ROW);
        let r0 = subgroupMatrixLoad<Right>(&b_tiles, b_tile, true, ROW);
        let r1 = subgroupMatrixLoad<Right>(&b_tiles, b_tile + 16u * ROW, true, ROW);
        c00 = subgroupMatrixMultiplyAccumulate(l0, r0, c00);
        c01 = subgroupMatrixMultiplyAccumulate(l0, r1, c01);
        c10 = subgroupMatrixMultiplyAccumulate(l1, r0, c10);
        c11 = subgroupMatrixMultiplyAccumulate(l1, r1, c11);
        if COLS == 4u {
            let r2 = subgroupMatrixLoad<Right>(&b_tiles, b_tile + 32u * ROW, true, ROW);
            let r3 = subgroupMatrixLoad<Right>(&b_tiles, b_tile + 48u * ROW, true, ROW);
            c02 = subgroupMatrixMultiplyAccumulate(l0, r2, c02);
            c03 = subgroupMatrixMultiplyAccumulate(l0, r3, c03);
            c12 = subgroupMatrixMultiplyAccumulate(l1, r2, c12);
            c13 = subgroupMatrixMultiplyAccumulate(l1, r3, c13);
        }
    }
    let at = row0 * N + col0;
    subgroupMatrixStore(&c, at, c00, false, N);
    subgroupMatrixStore(&c, at + 16u, c01, false, N);
    subgroupMatrixStore(&c, at + 16u * N, c10, false, N);
    subgroupMatrixStore(&c, at + 16u * N + 16u, c11, false, N);
    if COLS == 4u {
        subgroupMatrixStore(&c, at + 32u, c02, false, N);
        subgroupMatrixStore(&c, at + 48u, c03, false, N);
        subgroupMatrixStore(&c, at + 16u * N + 32u, c12, false, N);
        subgroupMatrixStore(&c, at + 16u * N + 48u, c13, false, N);
    }
}
