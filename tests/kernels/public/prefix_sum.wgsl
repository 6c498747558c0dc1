/* wgsweep
{
  "name": "prefix_sum",
  "buffers": [
    { "binding": 0, "name": "items", "type": "u32", "length": "n", "fill": { "random": [0, 1000] }, "output": true },
    { "binding": 1, "name": "sums1", "type": "u32", "length": "ceil_div(n, 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y)", "written": true },
    { "name": "sums2", "type": "u32", "length": "ceil_div(ceil_div(n, 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y), 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y)", "written": true },
    { "name": "sums3", "type": "u32", "length": "1", "written": true }
  ],
  "sizes": [1048576],
  "tunables": { "WORKGROUP_SIZE_X": [1, 2, 4, 8, 16, 32, 64, 128, 256], "WORKGROUP_SIZE_Y": [1, 2, 4, 8, 16] },
  "workgroup_size": ["WORKGROUP_SIZE_X", "WORKGROUP_SIZE_Y"],
  "restrictions": [
    "WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y <= 256",
    "ceil_div(ceil_div(n, 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y), 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y) <= 2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y"
  ],
  "constants": {
    "THREADS_PER_WORKGROUP": "WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y",
    "ITEMS_PER_WORKGROUP": "2 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y",
    "ELEMENT_COUNT": "n"
  },
  "workgroup_memory": "16 * WORKGROUP_SIZE_X * WORKGROUP_SIZE_Y",
  "passes": [
    { "entry_point": "reduce_downsweep", "grid": ["ceil_div(n, ITEMS_PER_WORKGROUP)"] },
    {
      "entry_point": "reduce_downsweep",
      "constants": { "ELEMENT_COUNT": "ceil_div(n, ITEMS_PER_WORKGROUP)" },
      "grid": ["ceil_div(ceil_div(n, ITEMS_PER_WORKGROUP), ITEMS_PER_WORKGROUP)"],
      "bind": { "items": "sums1", "blockSums": "sums2" }
    },
    {
      "entry_point": "reduce_downsweep",
      "constants": { "ELEMENT_COUNT": "ceil_div(ceil_div(n, ITEMS_PER_WORKGROUP), ITEMS_PER_WORKGROUP)" },
      "grid": ["1"],
      "bind": { "items": "sums2", "blockSums": "sums3" }
    },
    {
      "entry_point": "add_block_sums",
      "constants": { "ELEMENT_COUNT": "ceil_div(n, ITEMS_PER_WORKGROUP)" },
      "grid": ["ceil_div(ceil_div(n, ITEMS_PER_WORKGROUP), ITEMS_PER_WORKGROUP)"],
      "bind": { "items": "sums1", "blockSums": "sums2" }
    },
    { "entry_point": "add_block_sums", "grid": ["ceil_div(n, ITEMS_PER_WORKGROUP)"] }
  ],
  "bytes": "8 * n",
  "validation": { "reference": "exclusive_scan_in_order", "grid": ["1"] }
}
*/
// A work-efficient prefix sum (Blelloch's scan, after "Parallel Prefix Sum (Scan) with CUDA") in passes:
// each workgroup scans its block and writes the block's sum, the block sums are scanned the same way one
// level down, then each level adds the scanned sums of the level below. Three levels cover 2^20 items at a
// workgroup of 64 invocations or more (the restriction says so); the passes are the ones the project's
// PrefixSumKernel.js records for such a size, each level's buffer bound where the original binds it.
//
// Origin: kishimisu, WebGPU-Radix-Sort, https://github.com/kishimisu/WebGPU-Radix-Sort, the template string
// of src/shaders/prefix_sum.js at commit 4c7d5cb8cf6bc584b18ee3ee38422b74e52fb6b3, unchanged between the
// two marker lines below (tests/public_kernels.rs holds it to the original's SHA-256).
// Licence: MIT (the project's package.json), Copyright (c) kishimisu:
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


@group(0) @binding(0) var<storage, read_write> items: array<u32>;
@group(0) @binding(1) var<storage, read_write> blockSums: array<u32>;

override WORKGROUP_SIZE_X: u32;
override WORKGROUP_SIZE_Y: u32;
override THREADS_PER_WORKGROUP: u32;
override ITEMS_PER_WORKGROUP: u32;
override ELEMENT_COUNT: u32;

var<workgroup> temp: array<u32, ITEMS_PER_WORKGROUP*2>;

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, 1)
fn reduce_downsweep(
    @builtin(workgroup_id) w_id: vec3<u32>,
    @builtin(num_workgroups) w_dim: vec3<u32>,
    @builtin(local_invocation_index) TID: u32, // Local thread ID
) {
    let WORKGROUP_ID = w_id.x + w_id.y * w_dim.x;
    let WID = WORKGROUP_ID * THREADS_PER_WORKGROUP;
    let GID = WID + TID; // Global thread ID
    
    let ELM_TID = TID * 2; // Element pair local ID
    let ELM_GID = GID * 2; // Element pair global ID
    
    // Load input to shared memory
    temp[ELM_TID]     = select(items[ELM_GID], 0, ELM_GID >= ELEMENT_COUNT);
    temp[ELM_TID + 1] = select(items[ELM_GID + 1], 0, ELM_GID + 1 >= ELEMENT_COUNT);

    var offset: u32 = 1;

    // Up-sweep (reduce) phase
    for (var d: u32 = ITEMS_PER_WORKGROUP >> 1; d > 0; d >>= 1) {
        workgroupBarrier();

        if (TID < d) {
            var ai: u32 = offset * (ELM_TID + 1) - 1;
            var bi: u32 = offset * (ELM_TID + 2) - 1;
            temp[bi] += temp[ai];
        }

        offset *= 2;
    }

    // Save workgroup sum and clear last element
    if (TID == 0) {
        let last_offset = ITEMS_PER_WORKGROUP - 1;

        blockSums[WORKGROUP_ID] = temp[last_offset];
        temp[last_offset] = 0;
    }

    // Down-sweep phase
    for (var d: u32 = 1; d < ITEMS_PER_WORKGROUP; d *= 2) {
        offset >>= 1;
        workgroupBarrier();

        if (TID < d) {
            var ai: u32 = offset * (ELM_TID + 1) - 1;
            var bi: u32 = offset * (ELM_TID + 2) - 1;

            let t: u32 = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    workgroupBarrier();

    // Copy result from shared memory to global memory
    if (ELM_GID >= ELEMENT_COUNT) {
        return;
    }
    items[ELM_GID] = temp[ELM_TID];

    if (ELM_GID + 1 >= ELEMENT_COUNT) {
        return;
    }
    items[ELM_GID + 1] = temp[ELM_TID + 1];
}

@compute @workgroup_size(WORKGROUP_SIZE_X, WORKGROUP_SIZE_Y, 1)
fn add_block_sums(
    @builtin(workgroup_id) w_id: vec3<u32>,
    @builtin(num_workgroups) w_dim: vec3<u32>,
    @builtin(local_invocation_index) TID: u32, // Local thread ID
) {
    let WORKGROUP_ID = w_id.x + w_id.y * w_dim.x;
    let WID = WORKGROUP_ID * THREADS_PER_WORKGROUP;
    let GID = WID + TID; // Global thread ID

    let ELM_ID = GID * 2;

    if (ELM_ID >= ELEMENT_COUNT) {
        return;
    }

    let blockSum = blockSums[WORKGROUP_ID];

    items[ELM_ID] += blockSum;

    if (ELM_ID + 1 >= ELEMENT_COUNT) {
        return;
    }

    items[ELM_ID + 1] += blockSum;
}
// ---- the original ends ----

// The reference, wgsweep's and not the original's: the exclusive prefix sum of the items, added up in order
// in 256 chunks, one an invocation, each then offset by the chunks before it (one invocation in order
// would be simpler, but lavapipe ends an invocation's loops after 65 535 iterations).
var<workgroup> chunk_sums: array<u32, 256>;

@compute @workgroup_size(256)
fn exclusive_scan_in_order(@builtin(local_invocation_index) chunk: u32) {
    let length = (ELEMENT_COUNT + 255u) / 256u;
    let start = min(chunk * length, ELEMENT_COUNT);
    let end = min(start + length, ELEMENT_COUNT);
    var sum = 0u;
    for (var i = start; i < end; i++) {
        let item = items[i];
        items[i] = sum;
        sum += item;
    }
    chunk_sums[chunk] = sum;
    workgroupBarrier();
    var before = 0u;
    for (var c = 0u; c < chunk; c++) {
        before += chunk_sums[c];
    }
    for (var i = start; i < end; i++) {
        items[i] += before;
    }
}
