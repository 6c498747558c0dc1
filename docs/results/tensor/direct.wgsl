enable chromium_experimental_subgroup_matrix;

override N: u32;

@group(0) @binding(0) var<storage, read> a: array<Word>;
@group(0) @binding(1) var<storage, read> b: array<Word>;
@group(0) @binding(2) var<storage, read_write> c: array<Word>;

@compute @workgroup_size(32)
fn matmul_subgroup_matrix(@builtin(workgroup_id) group: vec3<u32>) {
    let row0 = group.y * TILES_M * 16u;
    let col0 = group.x * TILES_N * 16u;
    var sums: array<Result, TILES_M * TILES_N>;
    for (var k = 0u; k < N; k += 32u) {
        var left: array<Left, TILES_M>;
        var right: array<Right, TILES_N>;
        for (var i = 0u; i < TILES_M; i++) {
            left[i] = subgroupMatrixLoad<Left>(&a, (row0 + i * 16u) * N + k, false, N);
        }
        for (var j = 0u; j < TILES_N; j++) {
            right[j] = subgroupMatrixLoad<Right>(&b, (col0 + j * 16u) * N + k, true, N);
        }
        for (var i = 0u; i < TILES_M; i++) {
            for (var j = 0u; j < TILES_N; j++) {
                sums[i * TILES_N + j] = subgroupMatrixMultiplyAccumulate(left[i], right[j], sums[i * TILES_N + j]);
            }
        }
    }
    for (var i = 0u; i < TILES_M; i++) {
        for (var j = 0u; j < TILES_N; j++) {
            subgroupMatrixStore(&c, (row0 + i * 16u) * N + col0 + j * 16u, sums[i * TILES_N + j], false, N);
        }
    }
}
