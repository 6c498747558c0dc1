enable f16;
enable wgpu_cooperative_matrix;
                 
override N: u32;
const WORKGROUP = 32u * SUBGROUP_ROWS * SUBGROUP_COLS;
const CHUNKS = 2u;
const PARTS = 2u * CHUNKS;
const ROW_BYTES = 16u * PARTS + 16u;
const ROW_WORDS = ROW_BYTES / WORD_BYTES;
const ROW = ROW_WORDS * PER_WORD;
const VEC4_WORDS = 16u / WORD_BYTES;
const VEC4_ELEMENTS = VEC4_WORDS * PER_WORD;
const WORD_PAIR = VEC4_WORDS / 4u;
const BLOCK_N = COLS * 16u;
const TILE_M = SUBGROUP_ROWS * 32u;
const TILE_N = SUBGROUP_COLS * BLOCK_N;
const A_WORDS = TILE_M * ROW_WORDS;
const B_WORDS = TILE_N * ROW_WORDS;
const A_LOADS = PARTS * TILE_M / WORKGROUP;
const B_LOADS = PARTS * TILE_N / WORKGROUP;
const_assert A_LOADS * WORKGROUP == PARTS * TILE_M && B_LOADS * WORKGROUP == PARTS * TILE_N;
const_assert A_LOADS <= 4u && B_LOADS <= 4u;
const SPACING = WORKGROUP / PARTS;
@group(0) @binding(0) var<storage, read> a: array<vec4<u32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> c: array<Out>;
var<workgroup> a_tiles: array<Word, 2 * A_WORDS>;
var<workgroup> b_tiles: array<Word, 2 * B_WORDS>;
override TURNED: bool = true;
fn turned(v: vec4<u32>, by: u32) -> vec4<u32> {
let half_turned = select(v, v.yzwx, (by & 1u) != 0u);
return select(half_turned, half_turned.zwxy, (by & 2u) != 0u);
}
fn stage_a(buffer: u32, line: u32, part: u32, v: vec4<u32>) {
let at = buffer * A_WORDS + line * ROW_WORDS + part * VEC4_WORDS;
let by = select(0u, part, TURNED);
let w = unpacked(turned(v, by));
let p0 = at + (by & 3u) * WORD_PAIR;
let p1 = at + ((by + 1u) & 3u) * WORD_PAIR;
let p2 = at + ((by + 2u) & 3u) * WORD_PAIR;
let p3 = at + ((by + 3u) & 3u) * WORD_PAIR;
a_tiles[p0] = w[0];
if WORD_PAIR == 2u {
a_tiles[p0 + 1u] = w[1];
}
a_tiles[p1] = w[WORD_PAIR];
if WORD_PAIR == 2u {
a_tiles[p1 + 1u] = w[3];
}
a_tiles[p2] = w[2u * WORD_PAIR];
if WORD_PAIR == 2u {
a_tiles[p2 + 1u] = w[5];
}
a_tiles[p3] = w[3u * WORD_PAIR];
if WORD_PAIR == 2u {
a_tiles[p3 + 1u] = w[7];
}
}
fn stage_b(buffer: u32, line: u32, part: u32, v: vec4<u32>) {
let at = buffer * B_WORDS + line * ROW_WORDS + part * VEC4_WORDS;
let by = select(0u, part, TURNED);
let w = unpacked(turned(v, by));
let p0 = at + (by & 3u) * WORD_PAIR;
let p1 = at + ((by + 1u) & 3u) * WORD_PAIR;
let p2 = at + ((by + 2u) & 3u) * WORD_PAIR;
let p3 = at + ((by + 3u) & 3u) * WORD_PAIR;
b_tiles[p0] = w[0];
if WORD_PAIR == 2u {
b_tiles[p0 + 1u] = w[1];
}
b_tiles[p1] = w[WORD_PAIR];
if WORD_PAIR == 2u {
b_tiles[p1 + 1u] = w[3];
}
b_tiles[p2] = w[2u * WORD_PAIR];
if WORD_PAIR == 2u {
b_tiles[p2 + 1u] = w[5];
}
b_tiles[p3] = w[3u * WORD_PAIR];
if WORD_PAIR == 2u {
b_tiles[p3 + 1u] = w[7];
}
}
@compute @workgroup_size(WORKGROUP)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>,
@builtin(local_invocation_index) local: u32,
@builtin(subgroup_id) subgroup: u32) {
let row0 = group.y * TILE_M;
let col0 = group.x * TILE_N;
let line_vec4s = N / VEC4_ELEMENTS;
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
let block_row = subgroup / SUBGROUP_COLS * 32u;
let block_col = subgroup % SUBGROUP_COLS * BLOCK_N;
var c00 = Result();
var c01 = Result();
var c02 = Result();
var c03 = Result();
var c10 = Result();
var c11 = Result();
var c12 = Result();
var c13 = Result();
let steps = N / (K * CHUNKS);
for (var step = 0u; step < steps; step++) {
let here = step % 2u;
stage_a(here, line, part, a0);
stage_b(here, line, part, b0);
if A_LOADS > 1u {
stage_a(here, line + SPACING, part, a1);
}
if A_LOADS > 2u {
stage_a(here, line + 2u * SPACING, part, a2);
stage_a(here, line + 3u * SPACING, part, a3);
}
if B_LOADS > 1u {
stage_b(here, line + SPACING, part, b1);
}
if B_LOADS > 2u {
stage_b(here, line + 2u * SPACING, part, b2);
stage_b(here, line + 3u * SPACING, part, b3);
}
workgroupBarrier();
let a_tile = here * A_WORDS * PER_WORD + block_row * ROW;
let b_tile = here * B_WORDS * PER_WORD + block_col * ROW;
for (var chunk = 0u; chunk < CHUNKS; chunk++) {
let a_chunk = a_tile + chunk * K;
let b_chunk = b_tile + chunk * K;
let l0 = coopLoadT<Left>(&a_tiles[a_chunk], ROW);
let l1 = coopLoadT<Left>(&a_tiles[a_chunk + 16u * ROW], ROW);
let r0 = coopLoad<Right>(&b_tiles[b_chunk], ROW);
c00 = coopMultiplyAdd(l0, r0, c00);
c10 = coopMultiplyAdd(l1, r0, c10);
let r1 = coopLoad<Right>(&b_tiles[b_chunk + 16u * ROW], ROW);
c01 = coopMultiplyAdd(l0, r1, c01);
c11 = coopMultiplyAdd(l1, r1, c11);
if COLS == 4u {
let r2 = coopLoad<Right>(&b_tiles[b_chunk + 32u * ROW], ROW);
c02 = coopMultiplyAdd(l0, r2, c02);
c12 = coopMultiplyAdd(l1, r2, c12);
let r3 = coopLoad<Right>(&b_tiles[b_chunk + 48u * ROW], ROW);
c03 = coopMultiplyAdd(l0, r3, c03);
c13 = coopMultiplyAdd(l1, r3, c13);
}
}
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
}
let at = (row0 + block_row) * N + col0 + block_col;
coopStoreT(c00, &c[at], N);
coopStoreT(c01, &c[at + 16u], N);
coopStoreT(c10, &c[at + 16u * N], N);
coopStoreT(c11, &c[at + 16u * N + 16u], N);
if COLS == 4u {
coopStoreT(c02, &c[at + 32u], N);
coopStoreT(c03, &c[at + 48u], N);
coopStoreT(c12, &c[at + 16u * N + 32u], N);
coopStoreT(c13, &c[at + 16u * N + 48u], N);
}
}
alias Word = f16;
alias Out = f32;
const WORD_BYTES = 2u;
const PER_WORD = 1u;
const K = 16u;
fn unpacked(v: vec4<u32>) -> array<f16, 8> {
let x = vec2<f16>(unpack2x16float(v.x));
let y = vec2<f16>(unpack2x16float(v.y));
let z = vec2<f16>(unpack2x16float(v.z));
let w = vec2<f16>(unpack2x16float(v.w));
return array(x.x, x.y, y.x, y.y, z.x, z.y, w.x, w.y);
}
const COLS = 4u;
const SUBGROUP_ROWS = 4u;
const SUBGROUP_COLS = 2u;
alias Left = coop_mat16x16<f16, A>;
alias Right = coop_mat16x16<f16, B>;
alias Result = coop_mat16x16<f32, C>;
