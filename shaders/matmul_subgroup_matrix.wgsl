// C = A·B on subgroup matrices, tensor cores underneath: Chromium's (chromium_experimental_subgroup_matrix),
// or natively wgpu's cooperative matrices (wgpu_cooperative_matrix). A is an n × n matrix stored row by row,
// B one stored column by column (as cuBLAS's int8 products want it), so that each row of A and column of B
// runs along k: of 8-bit integers, four to a word, C of 32-bit integers (matmul_subgroup_matrix); or of f16,
// C of f32 (matmul_subgroup_matrix_f16, and matmul_cooperative_matrix_f16 natively). C is stored row by row.
//
// Each subgroup of 32 computes a block of C of ROW_TILES × COLS tiles of 16 × 16 (the configuration's M × N:
// 2 × 2, 2 × 4 or 4 × 4), adding to each a 16 × K by K × 16 product a chunk of k (K = 32 8-bit elements or 16
// halves: 32 bytes either way); a workgroup's SUBGROUP_ROWS × SUBGROUP_COLS subgroups compute a TILE_M ×
// TILE_N block. Each step its invocations copy two chunks of the block's rows of A and columns of B, loaded
// into registers the step before, into one buffer of workgroup memory (16 bytes an invocation a load, at
// most 4 loads of A and 4 of B), then load the next step's into those registers, which arrive while this
// step's products run: two barriers a step, one before the copies (every subgroup done reading the buffer)
// and one after. On an H200 that made the 64 × 64 blocks' best workgroup 1.14–1.36× as fast as two buffers of
// one chunk a step, and the 32-row blocks 1.0–1.9× as fast as two buffers of two chunks in every workgroup but
// one: 32 × 64 blocks in 256 invocations, 0.93× natively without checks, no longer the fastest
// (docs/results/one-buffer-h200.md). Two chunks a barrier ran 1.13–1.31× as fast as one at 8 subgroups of
// 32 × 64 on an H100.
//
// Written out, not looped: arrays of subgroup matrices indexed in loops ran at half the speed, and in Chromium so
// did the loads, products and stores wrapped in functions of our own (0.68–0.85× at 4 and 8 subgroups). (4 × 4
// tiles a subgroup ran slower in an early probe on an H100, one subgroup a workgroup; in 4 or 8 subgroups they
// are the fastest blocks on an H200.) The two chunks of a step are written out too, so that every load's offset
// in its subgroup's block is a constant: Chromium's robustness then checks it as it compiles, where an offset it
// cannot check guards the load (offset and stride chosen at run time); that made int8 in Chromium 1.46× / 1.32×
// as fast at n = 2048 / 4096 on an H200, f16 1.18× / 1.05×, and f16 natively without checks 1.05× / 1.17×
// (docs/results/index-clamps-h200.md). A subgroup finds its block by `subgroup_id`: Chromium holds a
// subgroup-matrix store's offset to being uniform over the subgroup, which it can prove of `subgroup_id` and not
// of anything computed from local_invocation_index (not even through subgroupBroadcastFirst).
//
// Written in Chromium's dialect, with the subgroup-matrix calls whose majorness is a template (the ones with a
// bool are deprecated in Chromium 156), offsets and strides counted in the staged arrays' elements. The host
// puts the dialect's directives first, and appends the types of the adapter's configuration: `Word` (what the
// staged tiles hold: in Chromium whole vec4s, one store a loaded vec4, which made f16 1.10–1.15× as fast as
// eight stores of its halves and int8 1.01–1.03× as four of its words; natively f16, as naga's cooperative
// matrices load their own scalars only) and its WORD_BYTES and PER_WORD (elements a word), `Out` (C's
// elements), `Left`, `Right` and `Result` (the subgroup matrices), `unpacked` (a loaded vec4 as the Words it
// holds, 1 or 8, then zeros), ROW_TILES and COLS, and the workgroup's shape in subgroups: SUBGROUP_ROWS and
// SUBGROUP_COLS (1 × 1, 2 × 1, 2 × 2 or 4 × 2, where its invocations load at most 4 vec4s of A and of B a
// step: 32 × 64 blocks in 2 subgroups or more, 64 × 64 in 4 or 8). Natively it rewrites the subgroup-matrix
// calls as naga's cooperative-matrix ones.

override N: u32;
const WORKGROUP = 32u * SUBGROUP_ROWS * SUBGROUP_COLS;
/// The vec4s of a line (a row of A or column of B) a step stages, two chunks of two, and the bytes a staged
/// line takes: 16 more than it holds, so that the eight 16-byte rows a subgroup reads at once from workgroup
/// memory fall in different banks; in words.
const PARTS = 4u;
const ROW_BYTES = 16u * PARTS + 16u;
const ROW_WORDS = ROW_BYTES / WORD_BYTES;
/// The words a vec4 of A or B fills, and the elements it holds; the words of a chunk of k.
const VEC4_WORDS = 16u / WORD_BYTES;
const K_WORDS = 2u * VEC4_WORDS;
const VEC4_ELEMENTS = VEC4_WORDS * PER_WORD;
const BLOCK_M = ROW_TILES * 16u;
const BLOCK_N = COLS * 16u;
const TILE_M = SUBGROUP_ROWS * BLOCK_M;
const TILE_N = SUBGROUP_COLS * BLOCK_N;
/// Where B's third and fourth tiles of 16 columns start in a subgroup's block, in elements (read where COLS
/// is 4 only; written so that the offsets lie inside the block whatever COLS is: Chromium checks them in code
/// that does not run, too), and A's.
const B_TILE_2 = (BLOCK_N - 32u) * ROW_WORDS;
const B_TILE_3 = (BLOCK_N - 16u) * ROW_WORDS;
const A_TILE_2 = (BLOCK_M - 32u) * ROW_WORDS;
const A_TILE_3 = (BLOCK_M - 16u) * ROW_WORDS;
/// A subgroup's staged rows of A (BLOCK_M) and columns of B (BLOCK_N) of a step, in words.
const A_BLOCK_WORDS = BLOCK_M * ROW_WORDS;
const B_BLOCK_WORDS = BLOCK_N * ROW_WORDS;
/// The vec4s of A and of B each invocation copies a step: at most 4.
const A_LOADS = PARTS * TILE_M / WORKGROUP;
const B_LOADS = PARTS * TILE_N / WORKGROUP;
const_assert A_LOADS * WORKGROUP == PARTS * TILE_M && B_LOADS * WORKGROUP == PARTS * TILE_N;
const_assert A_LOADS <= 4u && B_LOADS <= 4u;
/// The lines (rows of A, columns of B) between an invocation's loads.
const SPACING = WORKGROUP / PARTS;

@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<Out>;

/// A step's rows of A and columns of B, as the blocks of the subgroups that read them ([row block][word],
/// [column block][word]): a subgroup loads its subgroup matrices from its block at offsets that are
/// constants, which Chromium's robustness can check as it compiles instead of guarding each load.
var<workgroup> a_tiles: array<array<Word, A_BLOCK_WORDS>, SUBGROUP_ROWS>;
var<workgroup> b_tiles: array<array<Word, B_BLOCK_WORDS>, SUBGROUP_COLS>;

/// `v` turned by `by` words: its word `(i + by) % 4` in place `i`.
fn turned(v: vec4<u32>, by: u32) -> vec4<u32> {
    let half_turned = select(v, v.yzwx, (by & 1u) != 0u);
    return select(half_turned, half_turned.zwxy, (by & 2u) != 0u);
}

/// Part `part` of line `line` (a row of A or column of B) of a step: one store where a Word is a vec4
/// (Chromium), else its 32-bit words as pairs of f16 Words (natively). Word by word, a store of all 32
/// invocations of a subgroup (8 lines 80 bytes apart, 4 parts of each) would put four in each of 8 banks;
/// turned by `part`, each store writes a word the other three parts of its line do not, 32 banks. On an H200
/// turning them made the kernel 1.25–1.30× as fast with wgpu's checks, and 1.11–1.24× without them since a
/// step stages one buffer (with two, 0.91–0.92×; docs/results/one-buffer-h200.md).
fn stage_a(line: u32, part: u32, v: vec4<u32>) {
    let block = line / BLOCK_M;
    let at = line % BLOCK_M * ROW_WORDS + part * VEC4_WORDS;
    if VEC4_WORDS == 1u {
        a_tiles[block][at] = unpacked(v)[0];
        return;
    }
    let w = unpacked(turned(v, part));
    let p0 = at + (part & 3u) * 2u;
    let p1 = at + ((part + 1u) & 3u) * 2u;
    let p2 = at + ((part + 2u) & 3u) * 2u;
    let p3 = at + ((part + 3u) & 3u) * 2u;
    a_tiles[block][p0] = w[0];
    a_tiles[block][p0 + 1u] = w[1];
    a_tiles[block][p1] = w[2];
    a_tiles[block][p1 + 1u] = w[3];
    a_tiles[block][p2] = w[4];
    a_tiles[block][p2 + 1u] = w[5];
    a_tiles[block][p3] = w[6];
    a_tiles[block][p3 + 1u] = w[7];
}

/// The same into B's tiles (one function for both would take a pointer, and the two arrays' types differ by
/// their lengths; one branching on a constant `into_a` ran int8 at n = 4096 in Chromium at 0.98×).
fn stage_b(line: u32, part: u32, v: vec4<u32>) {
    let block = line / BLOCK_N;
    let at = line % BLOCK_N * ROW_WORDS + part * VEC4_WORDS;
    if VEC4_WORDS == 1u {
        b_tiles[block][at] = unpacked(v)[0];
        return;
    }
    let w = unpacked(turned(v, part));
    let p0 = at + (part & 3u) * 2u;
    let p1 = at + ((part + 1u) & 3u) * 2u;
    let p2 = at + ((part + 2u) & 3u) * 2u;
    let p3 = at + ((part + 3u) & 3u) * 2u;
    b_tiles[block][p0] = w[0];
    b_tiles[block][p0 + 1u] = w[1];
    b_tiles[block][p1] = w[2];
    b_tiles[block][p1 + 1u] = w[3];
    b_tiles[block][p2] = w[4];
    b_tiles[block][p2 + 1u] = w[5];
    b_tiles[block][p3] = w[6];
    b_tiles[block][p3 + 1u] = w[7];
}

@compute @workgroup_size(WORKGROUP)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>,
                          @builtin(local_invocation_index) local: u32,
                          @builtin(subgroup_id) subgroup: u32) {
    let row0 = group.y * TILE_M;
    let col0 = group.x * TILE_N;
    let line_vec4s = N / VEC4_ELEMENTS; // a row of A or a column of B
    // This invocation copies part `part` of lines `line`, `line + SPACING`, ... of A and of B: a0, a1 and
    // b0…b3 hold them from one step's loads to the next's stores. Four invocations side by side copy a
    // line's 64 bytes; on an H200 the kernel ran at 0.76–0.89× in Chromium with a subgroup's invocation i on
    // line i % 8 (so that 8 side by side, which a 16-byte store serves at once, store on 8 lines, no two in a
    // bank), and with invocations 0–3 on line 0, 4–7 on line 4, 8–11 on line 1 and so on at 0.8× for u8 in
    // 256 invocations at n = 4096 (docs/results/tensor-staging-h200.md).
    let line = local / PARTS;
    let part = local % PARTS;
    let a_at = (row0 + line) * line_vec4s + part;
    let b_at = (col0 + line) * line_vec4s + part;
    let spaced = SPACING * line_vec4s;
    var a0 = a[a_at];
    var a1 = vec4(0u);
    var a2 = vec4(0u);
    var a3 = vec4(0u);
    var b0 = b[b_at];
    var b1 = vec4(0u);
    var b2 = vec4(0u);
    var b3 = vec4(0u);
    if A_LOADS > 1u {
        a1 = a[a_at + spaced];
    }
    if A_LOADS > 2u {
        a2 = a[a_at + 2u * spaced];
        a3 = a[a_at + 3u * spaced];
    }
    if B_LOADS > 1u {
        b1 = b[b_at + spaced];
    }
    if B_LOADS > 2u {
        b2 = b[b_at + 2u * spaced];
        b3 = b[b_at + 3u * spaced];
    }
    // This subgroup's block of the workgroup's.
    let row_block = subgroup / SUBGROUP_COLS;
    let col_block = subgroup % SUBGROUP_COLS;

    var c00 = Result();
    var c01 = Result();
    var c02 = Result();
    var c03 = Result();
    var c10 = Result();
    var c11 = Result();
    var c12 = Result();
    var c13 = Result();
    var c20 = Result();
    var c21 = Result();
    var c22 = Result();
    var c23 = Result();
    var c30 = Result();
    var c31 = Result();
    var c32 = Result();
    var c33 = Result();
    let steps = N / (PARTS * VEC4_ELEMENTS);
    for (var step = 0u; step < steps; step++) {
        // Every subgroup has read the last step's tiles; into the buffer what was loaded for this step, then
        // the next step's vec4s from memory.
        workgroupBarrier();
        stage_a(line, part, a0);
        stage_b(line, part, b0);
        if A_LOADS > 1u {
            stage_a(line + SPACING, part, a1);
        }
        if A_LOADS > 2u {
            stage_a(line + 2u * SPACING, part, a2);
            stage_a(line + 3u * SPACING, part, a3);
        }
        if B_LOADS > 1u {
            stage_b(line + SPACING, part, b1);
        }
        if B_LOADS > 2u {
            stage_b(line + 2u * SPACING, part, b2);
            stage_b(line + 3u * SPACING, part, b3);
        }
        workgroupBarrier();
        if step + 1u < steps {
            let k = (step + 1u) * PARTS;
            a0 = a[a_at + k];
            b0 = b[b_at + k];
            if A_LOADS > 1u {
                a1 = a[a_at + spaced + k];
            }
            if A_LOADS > 2u {
                a2 = a[a_at + 2u * spaced + k];
                a3 = a[a_at + 3u * spaced + k];
            }
            if B_LOADS > 1u {
                b1 = b[b_at + spaced + k];
            }
            if B_LOADS > 2u {
                b2 = b[b_at + 2u * spaced + k];
                b3 = b[b_at + 3u * spaced + k];
            }
        }
        // Offsets and strides count Words: A's block row by row, B's column by column. The chunks written out,
        // so that each offset is a constant; a block's third and fourth rows of tiles (64 × 64 blocks, 4 tiles
        // wide) inside the code of its third and fourth columns, so that they use B's tiles loaded there.
        let a_block = &a_tiles[row_block];
        let b_block = &b_tiles[col_block];
        let l0 = subgroupMatrixLoad<Left, row_major>(a_block, 0u, ROW_WORDS);
        let l1 = subgroupMatrixLoad<Left, row_major>(a_block, 16u * ROW_WORDS, ROW_WORDS);
        let r0 = subgroupMatrixLoad<Right, col_major>(b_block, 0u, ROW_WORDS);
        let r1 = subgroupMatrixLoad<Right, col_major>(b_block, 16u * ROW_WORDS, ROW_WORDS);
        c00 = subgroupMatrixMultiplyAccumulate(l0, r0, c00);
        c01 = subgroupMatrixMultiplyAccumulate(l0, r1, c01);
        c10 = subgroupMatrixMultiplyAccumulate(l1, r0, c10);
        c11 = subgroupMatrixMultiplyAccumulate(l1, r1, c11);
        if COLS == 4u {
            let r2 = subgroupMatrixLoad<Right, col_major>(b_block, B_TILE_2, ROW_WORDS);
            let r3 = subgroupMatrixLoad<Right, col_major>(b_block, B_TILE_3, ROW_WORDS);
            c02 = subgroupMatrixMultiplyAccumulate(l0, r2, c02);
            c03 = subgroupMatrixMultiplyAccumulate(l0, r3, c03);
            c12 = subgroupMatrixMultiplyAccumulate(l1, r2, c12);
            c13 = subgroupMatrixMultiplyAccumulate(l1, r3, c13);
            if ROW_TILES == 4u {
                let l2 = subgroupMatrixLoad<Left, row_major>(a_block, A_TILE_2, ROW_WORDS);
                let l3 = subgroupMatrixLoad<Left, row_major>(a_block, A_TILE_3, ROW_WORDS);
                c20 = subgroupMatrixMultiplyAccumulate(l2, r0, c20);
                c21 = subgroupMatrixMultiplyAccumulate(l2, r1, c21);
                c22 = subgroupMatrixMultiplyAccumulate(l2, r2, c22);
                c23 = subgroupMatrixMultiplyAccumulate(l2, r3, c23);
                c30 = subgroupMatrixMultiplyAccumulate(l3, r0, c30);
                c31 = subgroupMatrixMultiplyAccumulate(l3, r1, c31);
                c32 = subgroupMatrixMultiplyAccumulate(l3, r2, c32);
                c33 = subgroupMatrixMultiplyAccumulate(l3, r3, c33);
            }
        }
        // The second chunk, K_WORDS into each line.
        let l4 = subgroupMatrixLoad<Left, row_major>(a_block, K_WORDS, ROW_WORDS);
        let l5 = subgroupMatrixLoad<Left, row_major>(a_block, K_WORDS + 16u * ROW_WORDS, ROW_WORDS);
        let r4 = subgroupMatrixLoad<Right, col_major>(b_block, K_WORDS, ROW_WORDS);
        let r5 = subgroupMatrixLoad<Right, col_major>(b_block, K_WORDS + 16u * ROW_WORDS, ROW_WORDS);
        c00 = subgroupMatrixMultiplyAccumulate(l4, r4, c00);
        c01 = subgroupMatrixMultiplyAccumulate(l4, r5, c01);
        c10 = subgroupMatrixMultiplyAccumulate(l5, r4, c10);
        c11 = subgroupMatrixMultiplyAccumulate(l5, r5, c11);
        if COLS == 4u {
            let r6 = subgroupMatrixLoad<Right, col_major>(b_block, K_WORDS + B_TILE_2, ROW_WORDS);
            let r7 = subgroupMatrixLoad<Right, col_major>(b_block, K_WORDS + B_TILE_3, ROW_WORDS);
            c02 = subgroupMatrixMultiplyAccumulate(l4, r6, c02);
            c03 = subgroupMatrixMultiplyAccumulate(l4, r7, c03);
            c12 = subgroupMatrixMultiplyAccumulate(l5, r6, c12);
            c13 = subgroupMatrixMultiplyAccumulate(l5, r7, c13);
            if ROW_TILES == 4u {
                let l6 = subgroupMatrixLoad<Left, row_major>(a_block, K_WORDS + A_TILE_2, ROW_WORDS);
                let l7 = subgroupMatrixLoad<Left, row_major>(a_block, K_WORDS + A_TILE_3, ROW_WORDS);
                c20 = subgroupMatrixMultiplyAccumulate(l6, r4, c20);
                c21 = subgroupMatrixMultiplyAccumulate(l6, r5, c21);
                c22 = subgroupMatrixMultiplyAccumulate(l6, r6, c22);
                c23 = subgroupMatrixMultiplyAccumulate(l6, r7, c23);
                c30 = subgroupMatrixMultiplyAccumulate(l7, r4, c30);
                c31 = subgroupMatrixMultiplyAccumulate(l7, r5, c31);
                c32 = subgroupMatrixMultiplyAccumulate(l7, r6, c32);
                c33 = subgroupMatrixMultiplyAccumulate(l7, r7, c33);
            }
        }
    }
    let block_row = row_block * BLOCK_M;
    let block_col = col_block * BLOCK_N;
    let at = (row0 + block_row) * N + col0 + block_col;
    subgroupMatrixStore<row_major>(&c, at, c00, N);
    subgroupMatrixStore<row_major>(&c, at + 16u, c01, N);
    subgroupMatrixStore<row_major>(&c, at + 16u * N, c10, N);
    subgroupMatrixStore<row_major>(&c, at + 16u * N + 16u, c11, N);
    if COLS == 4u {
        subgroupMatrixStore<row_major>(&c, at + 32u, c02, N);
        subgroupMatrixStore<row_major>(&c, at + 48u, c03, N);
        subgroupMatrixStore<row_major>(&c, at + 16u * N + 32u, c12, N);
        subgroupMatrixStore<row_major>(&c, at + 16u * N + 48u, c13, N);
    }
    if ROW_TILES == 4u {
        subgroupMatrixStore<row_major>(&c, at + 32u * N, c20, N);
        subgroupMatrixStore<row_major>(&c, at + 32u * N + 16u, c21, N);
        subgroupMatrixStore<row_major>(&c, at + 32u * N + 32u, c22, N);
        subgroupMatrixStore<row_major>(&c, at + 32u * N + 48u, c23, N);
        subgroupMatrixStore<row_major>(&c, at + 48u * N, c30, N);
        subgroupMatrixStore<row_major>(&c, at + 48u * N + 16u, c31, N);
        subgroupMatrixStore<row_major>(&c, at + 48u * N + 32u, c32, N);
        subgroupMatrixStore<row_major>(&c, at + 48u * N + 48u, c33, N);
    }
}
