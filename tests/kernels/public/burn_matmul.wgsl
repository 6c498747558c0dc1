/* wgsweep
{
  "name": "burn_matmul",
  "buffers": [
    { "binding": 0, "name": "lhs", "type": "f32", "length": "m * k" },
    { "binding": 1, "name": "rhs", "type": "f32", "length": "k * n" },
    { "binding": 2, "name": "output", "type": "f32", "length": "m * n", "output": true },
    { "binding": 3, "name": "info", "type": "u32", "length": "13",
      "fill": { "values": [2, "k", 1, "n", 1, "n", 1, "m", "k", "k", "n", "m", "n"] } }
  ],
  "sizes": [{ "m": 2048, "k": 2048, "n": 2048 }],
  "tunables": {
    "WG_X": [4, 8, 16, 32], "WG_Y": [4, 8, 16, 32],
    "T_M": [1, 2, 4, 8], "T_N": [1, 2, 4, 8], "B_K": [4, 8, 16, 32]
  },
  "restrictions": [
    "WG_X * WG_Y <= 256",
    "B_K <= min(WG_X * T_M, WG_Y * T_N)",
    "4 * B_K * (WG_X * T_M + WG_Y * T_N) <= 16384",
    "m % (WG_X * T_M) == 0", "n % (WG_Y * T_N) == 0", "k % B_K == 0"
  ],
  "template": {
    "{{ elem }}": { "text": "f32" },
    "{{b_m}}": "WG_X * T_M", "{{b_n}}": "WG_Y * T_N", "{{b_k}}": "B_K",
    "{{bm_x_bk}}": "WG_X * T_M * B_K", "{{bk_x_bn}}": "B_K * WG_Y * T_N",
    "{{t_m}}": "T_M", "{{t_n}}": "T_N", "{{tm_x_tn}}": "T_M * T_N",
    "{{ workgroup_size_x }}": "WG_X", "{{ workgroup_size_y }}": "WG_Y", "{{ workgroup_size_z }}": 1
  },
  "grid": ["m / (WG_X * T_M)", "n / (WG_Y * T_N)"],
  "bytes": "4 * (m * k + k * n + m * n)",
  "flops": "2 * m * n * k",
  "workgroup_memory": "4 * B_K * (WG_X * T_M + WG_Y * T_N)",
  "validation": { "reference": "multiply_each_element", "grid": ["ceil_div(m, 8)", "ceil_div(n, 8)"], "tolerance": 1e-4 }
}
*/
// Burn's tiled matrix product, a template: a workgroup of WG_X × WG_Y invocations computes a B_M × B_N block
// of C = A × B (B_M = WG_X·T_M rows, B_N = WG_Y·T_N columns), each invocation T_M × T_N of it, stepping along
// k through tiles B_K deep staged in workgroup memory. Burn fills its `{{ … }}` text before compiling; here
// the specification's "template" does, at each configuration, from the tunables. The shapes and strides of
// the three matrices come in the `info` buffer, as Burn's build_info lays them out for two dimensions:
// [2, the row and column strides of lhs, rhs and output, the shapes of lhs, rhs and output]. Burn pads the
// matrices to whole blocks before launching it (the kernel bounds none of its reads or writes), so the
// restrictions keep to sizes the blocks divide; its own assertions (B_K at most B_M and B_N, the tiles
// dividing the block) and WebGPU's 16 KiB of workgroup memory bound the rest.
//
// Origin: Burn (https://github.com/tracel-ai/burn), burn-wgpu/src/template/matmul/blocktiling_2d/tile.wgsl
// at commit df2f1492f83079b631eaa8e702ee88d965c1a790 (released in Burn 0.10.0), unchanged between the two
// marker lines below (tests/public_kernels.rs holds it to the SHA-256 of that text).
// Licence: MIT (Burn is MIT OR Apache-2.0), Copyright (c) 2022 Nathaniel Simard:
//   Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
//   associated documentation files (the "Software"), to deal in the Software without restriction, including
//   without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
//   copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
//   following conditions: The above copyright notice and this permission notice shall be included in all
//   copies or substantial portions of the Software.
//   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
//   LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
//   EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
//   IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
//   THE USE OR OTHER DEALINGS IN THE SOFTWARE.
// ---- the original begins ----
@group(0)
@binding(0)
var<storage, read> lhs: array<{{ elem }}>;

@group(0)
@binding(1)
var<storage, read> rhs: array<{{ elem }}>;

@group(0)
@binding(2)
var<storage, read_write> output: array<{{ elem }}>;

@group(0)
@binding(3)
var<storage, read> info: array<u32>;

const B_M = {{b_m}}u;
const B_N = {{b_n}}u;
const B_K = {{b_k}}u;
const B_M_X_B_K = {{bm_x_bk}}u;
const B_K_X_B_N = {{bk_x_bn}}u;
const T_M = {{t_m}}u;
const T_N = {{t_n}}u;
const T_M_X_T_N = {{tm_x_tn}}u;

var<workgroup> shared_lhs: array<{{ elem }}, B_M_X_B_K>; 
var<workgroup> shared_rhs: array<{{ elem }}, B_K_X_B_N>;

@compute
@workgroup_size({{ workgroup_size_x }}, {{ workgroup_size_y }}, {{ workgroup_size_z }})
fn main(
    @builtin(global_invocation_id) global_id: vec3<u32>,
    @builtin(local_invocation_index) local_idx: u32,
    @builtin(workgroup_id) workgroup_id: vec3<u32>,
) {
    let skip_row = workgroup_id.x * B_M;
    let skip_col = workgroup_id.y * B_N;

    let n_thread_per_row = ((B_N - 1u) / T_N) + 1u;
    let thread_row = (local_idx / n_thread_per_row) * T_M;
    let thread_col = (local_idx % n_thread_per_row) * T_N;
    
    let row = skip_row + thread_row;
    let col = skip_col + thread_col;

    let batch = global_id.z;

    // Basic information
    let dim = info[0];
    let n_rows = info[6u * dim - 1u]; 
    let n_cols = info[6u * dim]; 
    let K = info[5u * dim - 1u];

    // Row / col strides
    let lhs_stride_row = info[dim - 1u];
    let lhs_stride_col = info[dim];
    let rhs_stride_row = info[2u * dim - 1u];
    let rhs_stride_col = info[2u * dim];
    let out_stride_row = info [3u * dim - 1u];
    let out_stride_col = info [3u * dim];

    // Calculate the corresponding offsets with support for broadcasting.
    let offset_output = batch * n_rows * n_cols; 
    var offset_lhs: u32 = skip_row * lhs_stride_row;
    var offset_rhs: u32 = skip_col * rhs_stride_col;

    let batch_dims = dim - 2u;
    for (var b: u32 = 1u; b <= batch_dims; b++) {
        let stride_lhs = info[b];
        let stride_rhs = info[b + dim];
        let stride_output = info[b + 2u * dim];
        let shape_lhs = info[b + 3u * dim];
        let shape_rhs = info[b + 4u * dim];

        offset_lhs += offset_output / stride_output % shape_lhs * stride_lhs;
        offset_rhs += offset_output / stride_output % shape_rhs * stride_rhs;
    }
    
    var results: array<{{ elem }}, T_M_X_T_N>;
    var register_M: array<{{ elem }}, T_M>;
    var register_N: array<{{ elem }}, T_N>;

    for (var k = 0u; k < K; k += B_K) {
        // Load data into shared memories
        // Each thread is responsible of loading T_M x T_N values from both lhs and rhs
        for (var i = 0u; i < T_M; i++) {
            for (var j = 0u; j < T_N; j++) {
                let current_row = thread_row + i;
                let current_col = thread_col + j;
                
                if current_col < B_K {
                    let lhs_sm_position = current_row * B_K + current_col; 
                    let lhs_position = offset_lhs + (k + current_col) * lhs_stride_col + current_row * lhs_stride_row;
                    shared_lhs[lhs_sm_position] = lhs[lhs_position];
                }
                
                if current_row < B_K {
                    let rhs_sm_position = current_row * B_N + current_col; 
                    let rhs_position = offset_rhs + (k + current_row) * rhs_stride_row + current_col * rhs_stride_col;
                    shared_rhs[rhs_sm_position] = rhs[rhs_position];
                }
            }
        }


        workgroupBarrier();

        // Compute intermediate results
        // Results are cumulated in results array and updated at each block
        // Outer loop indicates which subcolumns/subrows to read from shared memories
        for (var dot_index = 0u; dot_index < B_K; dot_index++) {
            // Load a subcolumn of values from lhs
            for (var tile_index = 0u; tile_index < T_M; tile_index++) {
                let lhs_sm_position = (thread_row + tile_index) * B_K + dot_index;
                register_M[tile_index] = shared_lhs[lhs_sm_position];
            }
            // Load a subrow of values from rhs
            for (var tile_index = 0u; tile_index < T_N; tile_index++) {
                let rhs_sm_position = thread_col + tile_index + dot_index * B_N;
                register_N[tile_index] = shared_rhs[rhs_sm_position];
            }
            // Multiply subcolumn and subrow and store results
            for (var res_idx_M = 0u; res_idx_M < T_M; res_idx_M++) {
                for (var res_idx_N = 0u; res_idx_N < T_N; res_idx_N++) {
                    results[res_idx_M * T_N + res_idx_N] += register_M[res_idx_M] * register_N[res_idx_N];
                }
            }
        }
        
        workgroupBarrier();
    }

    // Write output matrix
    // Each thread is responsible of writing T_M x T_N results
    for (var res_idx_M = 0u; res_idx_M < T_M; res_idx_M++) {
        for (var res_idx_N = 0u; res_idx_N < T_N; res_idx_N++) {
            let result_position = res_idx_M * T_N + res_idx_N;
            let output_position = offset_output + (row + res_idx_M) * out_stride_row + (col + res_idx_N) * out_stride_col;
            output[output_position] = results[result_position];
        }
    }
}
// ---- the original ends ----

// The reference, wgsweep's and not the original's: each element of C on its own, its products added in the
// order of the inner dimension, as the blocks add them; the sizes read from `info` as the original reads them.
@compute @workgroup_size(8, 8, 1)
fn multiply_each_element(@builtin(global_invocation_id) id: vec3<u32>) {
    let n_rows = info[11];
    let n_cols = info[12];
    let K = info[9];
    if (id.x >= n_rows || id.y >= n_cols) {
        return;
    }
    var sum: {{ elem }} = 0.0;
    for (var k = 0u; k < K; k++) {
        sum += lhs[id.x * K + k] * rhs[k * n_cols + id.y];
    }
    output[id.x * n_cols + id.y] = sum;
}
