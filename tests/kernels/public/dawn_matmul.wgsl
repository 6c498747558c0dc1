/* wgsweep
{
  "name": "dawn_matmul",
  "buffers": [
    { "binding": 0, "name": "firstMatrix", "type": "f32", "length": "m * k" },
    { "binding": 1, "name": "secondMatrix", "type": "f32", "length": "k * n" },
    { "binding": 2, "name": "resultMatrix", "type": "f32", "length": "m * n", "output": true }
  ],
  "uniforms": [{ "binding": 3, "fields": { "dimAOuter": "m", "dimInner": "k", "dimBOuter": "n" } }],
  "sizes": [{ "m": 512, "k": 512, "n": 512 }, { "m": 2048, "k": 2048, "n": 2048 }, { "m": 1000, "k": 700, "n": 900 }],
  "workgroup_size": [8, 8],
  "grid": ["ceil_div(n, 32)", "ceil_div(m, 32)"],
  "bytes": "4 * (m * k + k * n + m * n)",
  "flops": "2 * m * n * k",
  "validation": { "reference": "multiply_each_element", "grid": ["ceil_div(n, 8)", "ceil_div(m, 8)"], "tolerance": 1e-4 }
}
*/
// Dawn's tiled matrix product: each 8 × 8 workgroup computes a 32 × 32 tile of C = A × B, each invocation
// 4 × 4 of it, from tiles of A and B staged in workgroup memory; the matrices' sizes in a uniform
// (dimAOuter × dimInner times dimInner × dimBOuter), every read and write bounded by them. Dawn's own harness
// runs it at 512 × 512 × 512, fifty dispatches of the grid below; a size no tile divides is here too.
//
// Origin: Dawn (https://dawn.googlesource.com/dawn, mirrored at github.com/google/dawn),
// src/dawn/tests/perf_tests/ShaderRobustnessPerf.cpp at commit 1e975e28f98a0285e44150a7f64b3bb89f27c719: the
// WGSL its ShaderRobustnessPerf test builds for MatMulFloatOneDimSharedArray in f32 (its f32 preamble, then
// GenMatMulFloatOneDimensionalSharedArray()) and hands to CreateShaderModule, unchanged between the two
// marker lines below (tests/public_kernels.rs holds it to the SHA-256 of that text).
// Licence: BSD 3-Clause, Copyright 2021 The Dawn & Tint Authors:
//   Redistribution and use in source and binary forms, with or without modification, are permitted provided
//   that the following conditions are met: 1. Redistributions of source code must retain the above copyright
//   notice, this list of conditions and the following disclaimer. 2. Redistributions in binary form must
//   reproduce the above copyright notice, this list of conditions and the following disclaimer in the
//   documentation and/or other materials provided with the distribution. 3. Neither the name of the
//   copyright holder nor the names of its contributors may be used to endorse or promote products derived
//   from this software without specific prior written permission.
//   THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTRIBUTORS "AS IS" AND ANY EXPRESS OR IMPLIED
//   WARRANTIES, INCLUDING, BUT NOT LIMITED TO, THE IMPLIED WARRANTIES OF MERCHANTABILITY AND FITNESS FOR A
//   PARTICULAR PURPOSE ARE DISCLAIMED. IN NO EVENT SHALL THE COPYRIGHT HOLDER OR CONTRIBUTORS BE LIABLE FOR
//   ANY DIRECT, INDIRECT, INCIDENTAL, SPECIAL, EXEMPLARY, OR CONSEQUENTIAL DAMAGES (INCLUDING, BUT NOT
//   LIMITED TO, PROCUREMENT OF SUBSTITUTE GOODS OR SERVICES; LOSS OF USE, DATA, OR PROFITS; OR BUSINESS
//   INTERRUPTION) HOWEVER CAUSED AND ON ANY THEORY OF LIABILITY, WHETHER IN CONTRACT, STRICT LIABILITY, OR
//   TORT (INCLUDING NEGLIGENCE OR OTHERWISE) ARISING IN ANY WAY OUT OF THE USE OF THIS SOFTWARE, EVEN IF
//   ADVISED OF THE POSSIBILITY OF SUCH DAMAGE.
// ---- the original begins ----
alias ElemT = f32;
const kTileSize = 32;  // 32
const kWorkgroupSizeX = 8u; // 8;
const kWorkgroupSizeY = 8u; // 8;

        struct Uniforms {
            dimAOuter : u32,
            dimInner : u32,
            dimBOuter : u32,
        }
        struct Matrix {
            numbers: array<ElemT>
        }

        @group(0) @binding(0) var<storage, read> firstMatrix : Matrix;
        @group(0) @binding(1) var<storage, read> secondMatrix : Matrix;
        @group(0) @binding(2) var<storage, read_write> resultMatrix : Matrix;
        @group(0) @binding(3) var<uniform> uniforms : Uniforms;

        fn mm_readA(row : u32, col : u32) -> ElemT  {
            if (row < uniforms.dimAOuter && col < uniforms.dimInner)
            {
                let result : ElemT = firstMatrix.numbers[row * uniforms.dimInner + col];
                return result;
            }
            return 0.;
        }

        fn mm_readB(row : u32, col : u32) -> ElemT {
            if (row < uniforms.dimInner && col < uniforms.dimBOuter)
            {
                let result : ElemT = secondMatrix.numbers[row * uniforms.dimBOuter + col];
                return result;
            }
            return 0.;
        }

        fn mm_write(row : u32, col : u32, value : ElemT) {
            if (row < uniforms.dimAOuter && col < uniforms.dimBOuter)
            {
                let index : u32 = col + row * uniforms.dimBOuter;
                resultMatrix.numbers[index] = value;
            }
        }

        const RowPerThread : u32 = kTileSize / kWorkgroupSizeY; // 4
        const ColPerThread : u32 = kTileSize / kWorkgroupSizeX; // 4
        const TileBOuter : u32 = kTileSize;
        const TileInner : u32 = kTileSize;
        
        var<workgroup> mm_Asub : array<ElemT, kTileSize * kTileSize>;
        var<workgroup> mm_Bsub : array<ElemT, kTileSize * kTileSize>;

        @compute @workgroup_size(kWorkgroupSizeX, kWorkgroupSizeY, 1)
        fn main(@builtin(local_invocation_id) local_id : vec3u,
                @builtin(global_invocation_id) global_id  : vec3u) {
            // This invocation is responsible the region in the current tile with
            //   rows in [ tileRow, tileRow + RowPerThread -1 ]
            //   cols in [ tileCol, tileCol + ColPerThread -1 ]
            let tileRow : u32 = local_id.y * RowPerThread;
            let tileCol : u32 = local_id.x * ColPerThread;

            // This invocation is responsible the region in the output matrix with
            //   rows in [ globalRow, globalRow + RowPerThread -1 ]
            //   cols in [ globalCol, globalCol + ColPerThread -1 ]
            let globalRow : u32 = global_id.y * RowPerThread;
            let globalCol : u32 = global_id.x * ColPerThread;

            let numTiles : u32 = (uniforms.dimInner - 1u) / TileInner + 1u;

            var acc: array<ElemT, RowPerThread * ColPerThread>;
            var ACached : ElemT;
            var BCached : array<ElemT, ColPerThread>;

            // Define the region within the current tile that this thread
            // is responsible for loading into the cache.
            const ColPerThreadA : u32 = TileInner / kWorkgroupSizeX;
            let tileColA : u32 = local_id.x * ColPerThreadA;
            const RowPerThreadB : u32 = TileInner / kWorkgroupSizeY;
            let tileRowB : u32 = local_id.y * RowPerThreadB;

            // Loop over shared dimension.
            for (var t : u32 = 0u; t < numTiles; t++) {
                // Load one tile of A into local memory.
                for (var innerRow : u32 = 0u; innerRow < RowPerThread; innerRow++) {
                for (var innerCol : u32 = 0u; innerCol < ColPerThreadA; innerCol++) {
                    let inputRow : u32 = tileRow + innerRow;
                    let inputCol : u32 = tileColA + innerCol;
                    let index : u32 = inputRow * TileInner + inputCol;
                    mm_Asub[index] = mm_readA(globalRow + innerRow, t * TileInner + inputCol);
                }
                }
                // Load one tile of B into local memory.
                for (var innerRow : u32 = 0u; innerRow < RowPerThreadB; innerRow++) {
                for (var innerCol : u32 = 0u; innerCol < ColPerThread; innerCol++) {
                    let inputRow : u32 = tileRowB + innerRow;
                    let inputCol : u32 = tileCol + innerCol;
                    let index : u32 = inputRow * TileBOuter + inputCol;

                    mm_Bsub[index] = mm_readB(t * TileInner + inputRow, globalCol + innerCol);;
                }
                }

                workgroupBarrier();

                // Compute acc values for a single thread.
                for (var k : u32 = 0u; k < TileInner; k++) {
                    for (var inner : u32 = 0u; inner < ColPerThread; inner++) {
                        BCached[inner] = mm_Bsub[k * TileBOuter + tileCol + inner];
                    }

                    for (var innerRow : u32 = 0u; innerRow < RowPerThread; innerRow++) {
                        ACached = mm_Asub[(tileRow + innerRow) * TileInner + k];
                        for (var innerCol : u32 = 0u; innerCol < ColPerThread; innerCol++) {
                            let index : u32 = innerRow * ColPerThread + innerCol;
                            acc[index] = acc[index] + ACached * BCached[innerCol];
                        }
                    }
                }

                workgroupBarrier();
            }

            for (var innerRow : u32 = 0u; innerRow < RowPerThread; innerRow++) {
            for (var innerCol : u32 = 0u; innerCol < ColPerThread; innerCol++) {
                let index : u32 = innerRow * ColPerThread + innerCol;
                mm_write(globalRow + innerRow,
                         globalCol + innerCol,
                         acc[index]);
            }
            }
        }
// ---- the original ends ----

// The reference, wgsweep's and not the original's: each element of C on its own, its products added in the
// order of the inner dimension, as the tiles add them.
@compute @workgroup_size(8, 8, 1)
fn multiply_each_element(@builtin(global_invocation_id) id : vec3u) {
    let row = id.y;
    let col = id.x;
    if (row >= uniforms.dimAOuter || col >= uniforms.dimBOuter) {
        return;
    }
    var sum : ElemT = 0.;
    for (var k = 0u; k < uniforms.dimInner; k++) {
        sum = sum + firstMatrix.numbers[row * uniforms.dimInner + k] * secondMatrix.numbers[k * uniforms.dimBOuter + col];
    }
    resultMatrix.numbers[col + row * uniforms.dimBOuter] = sum;
}
