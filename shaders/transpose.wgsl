// Transpose of a ROWS × COLS row-major f32 matrix into COLS × ROWS, and same-shape copies as the 100 %
// reference. Rows of `src` start SRC_PITCH floats apart, rows of `dst` DST_PITCH apart (the row length, or
// more where rows are padded to start on 128-byte boundaries). All kernels use 2-D workgroups (WG_X, WG_Y); invocation (x, y) of the grid covers one element
// (or, tiled, one column of a tile every WG_Y rows).
//   copy2d_reference    dst[r][c] = src[r][c], x along columns: reads and writes coalesced.
//   copy2d_tiled        the same copy walking WG_X × WG_X tiles as the tiled kernels do (WG_X / WG_Y
//                       elements per invocation) but without workgroup memory: the copy the tiled
//                       transposes should match.
//   naive_read          dst[c][r] = src[r][c], x along columns: reads coalesced, writes ROWS floats apart.
//   naive_write         the same, x along rows: writes coalesced, reads COLS floats apart.
//   tiled_plain         a WG_X × WG_X tile goes through workgroup memory: read row by row (coalesced),
//                       then written column by column of the tile, which is row by row of the output
//                       (coalesced). Each invocation handles WG_X / WG_Y rows of the tile. Reading the tile
//                       by columns makes the 32 lanes of a warp hit addresses WG_X floats apart: with
//                       WG_X = 32 all in one memory bank, so the reads serialize (a 32-way bank conflict).
//   tiled_padded        the same with one float of padding per tile row (stride WG_X + 1): a column's
//                       elements now fall in 32 different banks.
// The matrix need not be a multiple of the tile: every access is bounds-checked against ROWS and COLS.

override WG_X: u32 = 16;
override WG_Y: u32 = 16;
override ROWS: u32;
override COLS: u32;
override SRC_PITCH: u32;
override DST_PITCH: u32;
// Tile row stride (WG_X, or WG_X + 1 when padded) and the tile's length, WG_X rows of it.
override TILE_STRIDE: u32 = 16;
override TILE_LEN: u32 = 256;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

var<workgroup> tile: array<f32, TILE_LEN>;

@compute @workgroup_size(WG_X, WG_Y)
fn copy2d_reference(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = id.x;
    let r = id.y;
    if r < ROWS && c < COLS { dst[r * DST_PITCH + c] = src[r * SRC_PITCH + c]; }
}

@compute @workgroup_size(WG_X, WG_Y)
fn naive_read(@builtin(global_invocation_id) id: vec3<u32>) {
    let c = id.x;
    let r = id.y;
    if r < ROWS && c < COLS { dst[c * DST_PITCH + r] = src[r * SRC_PITCH + c]; }
}

@compute @workgroup_size(WG_X, WG_Y)
fn naive_write(@builtin(global_invocation_id) id: vec3<u32>) {
    let r = id.x;
    let c = id.y;
    if r < ROWS && c < COLS { dst[c * DST_PITCH + r] = src[r * SRC_PITCH + c]; }
}

// A tile's rows, WG_X / WG_Y of them per invocation: the loops count from 0 to a bound fixed when the
// pipeline is made, so the compiler can unroll them and issue an invocation's loads together.
@compute @workgroup_size(WG_X, WG_Y)
fn copy2d_tiled(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    let c = wid.x * WG_X + lid.x;
    for (var j = 0u; j < WG_X; j += WG_Y) {
        let r = wid.y * WG_X + lid.y + j;
        if r < ROWS && c < COLS { dst[r * DST_PITCH + c] = src[r * SRC_PITCH + c]; }
    }
}

// One tile: workgroup (bx, by) reads rows by*T .. by*T + T, columns bx*T .. bx*T + T of src and writes
// them transposed at rows bx*T.., columns by*T.. of dst. Every invocation reaches the barrier.
fn transpose_tile(group: vec2<u32>, local: vec2<u32>) {
    let row0 = group.y * WG_X;
    let col0 = group.x * WG_X;
    for (var j = 0u; j < WG_X; j += WG_Y) {
        let k = local.y + j;
        let r = row0 + k;
        let c = col0 + local.x;
        if r < ROWS && c < COLS { tile[k * TILE_STRIDE + local.x] = src[r * SRC_PITCH + c]; }
    }
    workgroupBarrier();
    for (var j = 0u; j < WG_X; j += WG_Y) {
        let k = local.y + j;
        let c = col0 + k;
        let r = row0 + local.x;
        if r < ROWS && c < COLS { dst[c * DST_PITCH + r] = tile[local.x * TILE_STRIDE + k]; }
    }
}

@compute @workgroup_size(WG_X, WG_Y)
fn tiled_plain(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    transpose_tile(wid.xy, lid.xy);
}

@compute @workgroup_size(WG_X, WG_Y)
fn tiled_padded(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    transpose_tile(wid.xy, lid.xy);
}
