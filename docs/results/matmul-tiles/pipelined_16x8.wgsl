/* wgsweep
{
  "name": "pipelined_16x8",
  "entry_point": "matmul",
  "buffers": [
    { "binding": 0, "name": "a", "type": "vec4<f32>", "length": "n * n / 4" },
    { "binding": 1, "name": "b", "type": "vec4<f32>", "length": "n * n / 4" },
    { "binding": 2, "name": "c", "type": "vec4<f32>", "length": "n * n / 4", "output": true }
  ],
  "sizes": [2048, 4096],
  "tunables": { "BK": [8, 16] },
  "restrictions": ["n % 128 == 0"],
  "constants": { "N": "n", "TILE_VEC4S": "64 * BK" },
  "workgroup_size": [16, 8],
  "grid": ["n / 128", "n / 128"],
  "bytes": "12 * n * n",
  "flops": "2 * n * n * n",
  "workgroup_memory": "2048 * BK",
  "validation": { "reference": "naive", "tolerance": 0.001, "grid": ["n / 64", "n / 16"] }
}
*/
// matmul_pipelined's algorithm (shaders/matmul_pipelined.wgsl) with the tile shape that CUDA found best on the
// H100 (docs/results/matmul-tiles-h100.md): the same 128 × 128 tile of C, but 16 × 8 outputs an invocation in
// workgroups of 16 × 8 (rows 4·ty + 32·g for g = 0…3, columns 4·tx and 64 + 4·tx), 32 vec4 accumulators.
// Matrices whose side is a multiple of 128 only (no code for the edges), k advancing BK (8 or 16) a step.

override BK: u32 = 8u;
override N: u32;
override TILE_VEC4S: u32 = 2u * BK * 32u;

@group(0) @binding(0) var<storage, read> a: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> b: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> c: array<vec4<f32>>;

var<workgroup> tile_a: array<vec4<f32>, TILE_VEC4S>;
var<workgroup> tile_b: array<vec4<f32>, TILE_VEC4S>;

fn step(acc: ptr<function, array<vec4<f32>, 32>>, k: u32, ty: u32, tx: u32) {
    let a0 = tile_a[k * 32u + ty];
    let a1 = tile_a[k * 32u + ty + 8u];
    let a2 = tile_a[k * 32u + ty + 16u];
    let a3 = tile_a[k * 32u + ty + 24u];
    let b0 = tile_b[k * 32u + tx];
    let b1 = tile_b[k * 32u + tx + 16u];
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

fn steps(acc: ptr<function, array<vec4<f32>, 32>>, k: u32, ty: u32, tx: u32) {
    step(acc, k + 0u, ty, tx);
    step(acc, k + 1u, ty, tx);
    step(acc, k + 2u, ty, tx);
    step(acc, k + 3u, ty, tx);
    step(acc, k + 4u, ty, tx);
    step(acc, k + 5u, ty, tx);
    step(acc, k + 6u, ty, tx);
    step(acc, k + 7u, ty, tx);
    if BK == 16u {
        step(acc, k + 8u, ty, tx);
        step(acc, k + 9u, ty, tx);
        step(acc, k + 10u, ty, tx);
        step(acc, k + 11u, ty, tx);
        step(acc, k + 12u, ty, tx);
        step(acc, k + 13u, ty, tx);
        step(acc, k + 14u, ty, tx);
        step(acc, k + 15u, ty, tx);
    }
}

struct Share {
    a_m: u32,
    a_k: u32,
    b_k: u32,
    b_n: u32,
}

fn share(index: u32, part: u32) -> Share {
    let at = index + 128u * part;
    let a_vec4s_a_row = BK / 4u;
    return Share(at / a_vec4s_a_row, (at % a_vec4s_a_row) * 4u, at / 32u, at % 32u);
}

fn fetch(s: Share, row0: u32, col0: u32, k0: u32) -> array<vec4<f32>, 2> {
    return array(a[((row0 + s.a_m) * N + k0 + s.a_k) / 4u], b[((k0 + s.b_k) * N + col0 + 4u * s.b_n) / 4u]);
}

fn stage(buffer: u32, s: Share, fetched: array<vec4<f32>, 2>) {
    let row = buffer * BK + s.a_k;
    let m = s.a_m;
    tile_a[row * 32u + m / 4u][m % 4u] = fetched[0].x;
    tile_a[(row + 1u) * 32u + m / 4u][m % 4u] = fetched[0].y;
    tile_a[(row + 2u) * 32u + m / 4u][m % 4u] = fetched[0].z;
    tile_a[(row + 3u) * 32u + m / 4u][m % 4u] = fetched[0].w;
    tile_b[(buffer * BK + s.b_k) * 32u + s.b_n] = fetched[1];
}

fn store(row: u32, col: u32, value: vec4<f32>) {
    c[(row * N + col) / 4u] = value;
}

@compute @workgroup_size(16, 8)
fn matmul(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
          @builtin(local_invocation_index) index: u32) {
    let row0 = wid.y * 128u;
    let col0 = wid.x * 128u;
    let ty = lid.y;
    let tx = lid.x;
    let s0 = share(index, 0u);
    let s1 = share(index, 1u);
    let s2 = share(index, 2u);
    let s3 = share(index, 3u);
    let four = BK == 16u;

    stage(0u, s0, fetch(s0, row0, col0, 0u));
    stage(0u, s1, fetch(s1, row0, col0, 0u));
    if four {
        stage(0u, s2, fetch(s2, row0, col0, 0u));
        stage(0u, s3, fetch(s3, row0, col0, 0u));
    }
    workgroupBarrier();
    var acc: array<vec4<f32>, 32>;
    var buffer = 0u;
    var k0 = 0u;
    for (; k0 + BK < N; k0 += BK) {
        let next = k0 + BK;
        let f0 = fetch(s0, row0, col0, next);
        let f1 = fetch(s1, row0, col0, next);
        var f2 = array(vec4(0.0), vec4(0.0));
        var f3 = array(vec4(0.0), vec4(0.0));
        if four {
            f2 = fetch(s2, row0, col0, next);
            f3 = fetch(s3, row0, col0, next);
        }
        steps(&acc, buffer * BK, ty, tx);
        buffer = 1u - buffer;
        stage(buffer, s0, f0);
        stage(buffer, s1, f1);
        if four {
            stage(buffer, s2, f2);
            stage(buffer, s3, f3);
        }
        workgroupBarrier();
    }
    steps(&acc, buffer * BK, ty, tx);
    let left = col0 + 4u * tx;
    let right = col0 + 64u + 4u * tx;
    store(row0 + 0u + 4u * ty, left, acc[0]);
    store(row0 + 0u + 4u * ty, right, acc[1]);
    store(row0 + 1u + 4u * ty, left, acc[2]);
    store(row0 + 1u + 4u * ty, right, acc[3]);
    store(row0 + 2u + 4u * ty, left, acc[4]);
    store(row0 + 2u + 4u * ty, right, acc[5]);
    store(row0 + 3u + 4u * ty, left, acc[6]);
    store(row0 + 3u + 4u * ty, right, acc[7]);
    store(row0 + 32u + 4u * ty, left, acc[8]);
    store(row0 + 32u + 4u * ty, right, acc[9]);
    store(row0 + 33u + 4u * ty, left, acc[10]);
    store(row0 + 33u + 4u * ty, right, acc[11]);
    store(row0 + 34u + 4u * ty, left, acc[12]);
    store(row0 + 34u + 4u * ty, right, acc[13]);
    store(row0 + 35u + 4u * ty, left, acc[14]);
    store(row0 + 35u + 4u * ty, right, acc[15]);
    store(row0 + 64u + 4u * ty, left, acc[16]);
    store(row0 + 64u + 4u * ty, right, acc[17]);
    store(row0 + 65u + 4u * ty, left, acc[18]);
    store(row0 + 65u + 4u * ty, right, acc[19]);
    store(row0 + 66u + 4u * ty, left, acc[20]);
    store(row0 + 66u + 4u * ty, right, acc[21]);
    store(row0 + 67u + 4u * ty, left, acc[22]);
    store(row0 + 67u + 4u * ty, right, acc[23]);
    store(row0 + 96u + 4u * ty, left, acc[24]);
    store(row0 + 96u + 4u * ty, right, acc[25]);
    store(row0 + 97u + 4u * ty, left, acc[26]);
    store(row0 + 97u + 4u * ty, right, acc[27]);
    store(row0 + 98u + 4u * ty, left, acc[28]);
    store(row0 + 98u + 4u * ty, right, acc[29]);
    store(row0 + 99u + 4u * ty, left, acc[30]);
    store(row0 + 99u + 4u * ty, right, acc[31]);
}

@compute @workgroup_size(16, 16)
fn naive(@builtin(global_invocation_id) id: vec3<u32>) {
    let row = id.y;
    let col = id.x * 4u;
    if row >= N || col >= N { return; }
    var sum = vec4(0.0);
    for (var k = 0u; k < N; k++) {
        let x = a[(row * N + k) / 4u][k % 4u];
        sum = fma(vec4(x), b[(k * N + col) / 4u], sum);
    }
    c[(row * N + col) / 4u] = sum;
}
