/* wgsweep
{
  "name": "my_matmul",
  "entry_point": "matmul",
  "buffers": [
    { "binding": 0, "name": "A", "type": "f32", "length": "n * n" },
    { "binding": 1, "name": "B", "type": "f32", "length": "n * n" },
    { "binding": 2, "name": "C", "type": "f32", "length": "n * n", "output": true }
  ],
  "sizes": [2048],
  "tunables": {
    "WG_X": [4, 8, 16, 32], "WG_Y": [4, 8, 16, 32],
    "TM": [1, 2, 4, 8], "TN": [1, 2, 4, 8], "TK": [4, 8, 16, 32]
  },
  "restrictions": [
    "WG_X * WG_Y >= 32", "WG_X * WG_Y <= 256",
    "4 * (WG_Y * TM * TK + TK * WG_X * TN) <= 16384",
    "n % (WG_Y * TM) == 0", "n % (WG_X * TN) == 0", "n % TK == 0"
  ],
  "constants": { "N": "n" },
  "grid": ["n / (WG_X * TN)", "n / (WG_Y * TM)"],
  "bytes": "12 * n * n",
  "flops": "2 * n * n * n",
  "workgroup_memory": "4 * (WG_Y * TM * TK + TK * WG_X * TN)",
  "validation": { "reference": "naive", "tolerance": 5e-3, "grid": ["n / 16", "n / 16"] }
}
*/
// C = A·B for n × n f32 matrices, tiled: a workgroup of WG_X × WG_Y invocations computes a tile of
// (WG_Y·TM) × (WG_X·TN) outputs, TM × TN per invocation (rows and columns WG_Y and WG_X apart, so that
// neighbouring invocations read neighbouring words), stepping along k through tiles TK deep that it
// stages in workgroup memory. `naive` computes one output per invocation straight from memory.

override WG_X: u32 = 16;
override WG_Y: u32 = 16;
override TM: u32 = 4;
override TN: u32 = 4;
override TK: u32 = 8;
override N: u32;

override ROWS: u32 = WG_Y * TM;
override COLUMNS: u32 = WG_X * TN;

@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;

var<workgroup> a_tile: array<f32, ROWS * TK>;
var<workgroup> b_tile: array<f32, TK * COLUMNS>;

@compute @workgroup_size(WG_X, WG_Y)
fn matmul(@builtin(workgroup_id) group: vec3<u32>, @builtin(local_invocation_id) local: vec3<u32>) {
    let first_row = group.y * ROWS;
    let first_column = group.x * COLUMNS;
    let me = local.y * WG_X + local.x;
    let invocations = WG_X * WG_Y;
    var sums: array<f32, 64>; // TM × TN ≤ 64
    for (var k0 = 0u; k0 < N; k0 += TK) {
        for (var e = me; e < ROWS * TK; e += invocations) {
            a_tile[e] = A[(first_row + e / TK) * N + k0 + e % TK];
        }
        for (var e = me; e < TK * COLUMNS; e += invocations) {
            b_tile[e] = B[(k0 + e / COLUMNS) * N + first_column + e % COLUMNS];
        }
        workgroupBarrier();
        for (var k = 0u; k < TK; k++) {
            for (var i = 0u; i < TM; i++) {
                let a = a_tile[(local.y + i * WG_Y) * TK + k];
                for (var j = 0u; j < TN; j++) {
                    sums[i * TN + j] = fma(a, b_tile[k * COLUMNS + local.x + j * WG_X], sums[i * TN + j]);
                }
            }
        }
        workgroupBarrier();
    }
    for (var i = 0u; i < TM; i++) {
        for (var j = 0u; j < TN; j++) {
            C[(first_row + local.y + i * WG_Y) * N + first_column + local.x + j * WG_X] = sums[i * TN + j];
        }
    }
}

@compute @workgroup_size(16, 16)
fn naive(@builtin(global_invocation_id) id: vec3<u32>) {
    var sum = 0.0;
    for (var k = 0u; k < N; k++) {
        sum = fma(A[id.y * N + k], B[k * N + id.x], sum);
    }
    C[id.y * N + id.x] = sum;
}
