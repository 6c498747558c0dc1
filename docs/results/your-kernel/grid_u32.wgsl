/* wgsweep
{
  "name": "grid_u32",
  "entry_point": "main",
  "buffers": [
    {
      "binding": 0,
      "name": "src_u32",
      "type": "u32",
      "length": "n",
      "fill": {
        "random": [
          0.0,
          4294967295.0
        ]
      }
    },
    {
      "binding": 2,
      "name": "partials",
      "type": "u32",
      "length": "min(ceil_div(n, WG), 1024)",
      "written": true
    },
    {
      "name": "partials1",
      "type": "u32",
      "length": "ceil_div(min(ceil_div(n, WG), 1024), 256)",
      "written": true
    },
    {
      "name": "total",
      "type": "u32",
      "length": "1",
      "output": true
    }
  ],
  "sizes": [
    33554432
  ],
  "tunables": {
    "WG": [
      1,
      2,
      4,
      8,
      16,
      32,
      64,
      128,
      256
    ]
  },
  "workgroup_size": [
    "WG"
  ],
  "bytes": "4 * n",
  "workgroup_memory": "4 * WG",
  "validation": {
    "tolerance": 0.0
  },
  "passes": [
    {
      "entry_point": "grid_u32",
      "grid": [
        "min(ceil_div(n, WG), 1024)"
      ],
      "bind": {
        "src_u32x4": "src_u32"
      }
    },
    {
      "entry_point": "tree_u32",
      "grid": [
        "ceil_div(min(ceil_div(n, WG), 1024), 256)"
      ],
      "constants": {
        "WG": "256"
      },
      "bind": {
        "src_u32": "partials",
        "partials_u32": "partials1"
      }
    },
    {
      "entry_point": "tree_u32",
      "grid": [
        "ceil_div(ceil_div(min(ceil_div(n, WG), 1024), 256), 256)"
      ],
      "constants": {
        "WG": "256"
      },
      "bind": {
        "src_u32": "partials1",
        "partials_u32": "total"
      }
    }
  ]
}
*/
// The reduce family's grid/u32 as your kernel: its WGSL, workgroup sizes and passes.
// Where a workgroup and an invocation sit in a 1-D problem. The host spreads many workgroups over x and,
// past the per-dimension limit, y (`kernel::dispatch_grid`); these recover the linear indices. The host
// puts this file in front of every shader with such a grid; each of them declares its own `WG`.

fn group_index(wid: vec3<u32>, nwg: vec3<u32>) -> u32 {
    return wid.x + wid.y * nwg.x;
}

fn invocation_index(wid: vec3<u32>, nwg: vec3<u32>, lid: u32) -> u32 {
    return group_index(wid, nwg) * WG + lid;
}
// The input of the reductions and the grid-stride loop that reads it, shared by reduce.wgsl and
// reduce_subgroup.wgsl (the host prepends this file to both). The same buffer is bound as scalars and as
// vec4s: the loop reads four elements per load, which a GPU needs to reach its memory's speed with one
// load in flight per iteration, and the scalars cover the last n % 4 elements.

@group(0) @binding(0) var<storage, read> src_u32: array<u32>;
@group(0) @binding(1) var<storage, read> src_f32: array<f32>;
@group(0) @binding(5) var<storage, read> src_u32x4: array<vec4<u32>>;
@group(0) @binding(6) var<storage, read> src_f32x4: array<vec4<f32>>;

// What invocation `index` of `invocations` adds: the vec4s a grid apart, then one of the last n % 4 elements.
fn grid_terms_u32(index: u32, invocations: u32) -> u32 {
    var value = 0u;
    for (var i = index; i < arrayLength(&src_u32x4); i += invocations) {
        let v = src_u32x4[i];
        value += v.x + v.y + v.z + v.w;
    }
    let tail = 4u * arrayLength(&src_u32x4) + index;
    if tail < arrayLength(&src_u32) { value += src_u32[tail]; }
    return value;
}

fn grid_terms_f32(index: u32, invocations: u32) -> f32 {
    var value = 0.0;
    for (var i = index; i < arrayLength(&src_f32x4); i += invocations) {
        let v = src_f32x4[i];
        value += v.x + v.y + v.z + v.w;
    }
    let tail = 4u * arrayLength(&src_f32x4) + index;
    if tail < arrayLength(&src_f32) { value += src_f32[tail]; }
    return value;
}
// Reductions: every element of `src` added into one value, as u32 (wrapping, so exact on both sides) or f32.
//   atomic_u32        every invocation atomicAdds its element into `total`: one atomic per element, all on
//                     one address. (WGSL has no float atomics, so there is no f32 form.)
//   tree_*            a workgroup adds its WG elements in workgroup memory, halving the active invocations
//                     at each level with a barrier between levels; invocation 0 writes the workgroup's sum
//                     to `partials`. The host runs tree passes over the partials until one value is left.
//   tree_atomic_u32   the same tree, then one atomicAdd per workgroup into `total`: a single pass.
//   grid_*            each invocation first adds the vec4s a whole grid apart (a fixed number of
//                     workgroups covers the input; reduce_grid.wgsl), then the tree; its partials go
//                     through tree passes.
// WG is a power of two; invocations past the end of `src` add 0. The input's bindings come from
// reduce_grid.wgsl, which the host puts in front.

override WG: u32 = 256;

@group(0) @binding(2) var<storage, read_write> partials_u32: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials_f32: array<f32>;
@group(0) @binding(4) var<storage, read_write> total: atomic<u32>;

var<workgroup> scratch_u32: array<u32, WG>;
var<workgroup> scratch_f32: array<f32, WG>;

// The sum of every invocation's `value`. Every invocation of the workgroup must call it.
fn workgroup_sum_u32(lid: u32, value: u32) -> u32 {
    scratch_u32[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if lid < half { scratch_u32[lid] += scratch_u32[lid + half]; }
        workgroupBarrier();
    }
    return scratch_u32[0];
}

fn workgroup_sum_f32(lid: u32, value: f32) -> f32 {
    scratch_f32[lid] = value;
    workgroupBarrier();
    for (var half = WG / 2u; half > 0u; half /= 2u) {
        if lid < half { scratch_f32[lid] += scratch_f32[lid + half]; }
        workgroupBarrier();
    }
    return scratch_f32[0];
}

@compute @workgroup_size(WG)
fn atomic_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
              @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    if i < arrayLength(&src_u32) { atomicAdd(&total, src_u32[i]); }
}

@compute @workgroup_size(WG)
fn tree_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var value = 0u;
    if i < arrayLength(&src_u32) { value = src_u32[i]; }
    let sum = workgroup_sum_u32(lid, value);
    if lid == 0u && group < arrayLength(&partials_u32) { partials_u32[group] = sum; }
}

@compute @workgroup_size(WG)
fn tree_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let i = group * WG + lid;
    var value = 0.0;
    if i < arrayLength(&src_f32) { value = src_f32[i]; }
    let sum = workgroup_sum_f32(lid, value);
    if lid == 0u && group < arrayLength(&partials_f32) { partials_f32[group] = sum; }
}

@compute @workgroup_size(WG)
fn tree_atomic_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
                   @builtin(local_invocation_index) lid: u32) {
    let i = invocation_index(wid, nwg, lid);
    var value = 0u;
    if i < arrayLength(&src_u32) { value = src_u32[i]; }
    let sum = workgroup_sum_u32(lid, value);
    if lid == 0u { atomicAdd(&total, sum); }
}

@compute @workgroup_size(WG)
fn grid_u32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let sum = workgroup_sum_u32(lid, grid_terms_u32(group * WG + lid, nwg.x * nwg.y * WG));
    if lid == 0u && group < arrayLength(&partials_u32) { partials_u32[group] = sum; }
}

@compute @workgroup_size(WG)
fn grid_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>,
            @builtin(local_invocation_index) lid: u32) {
    let group = group_index(wid, nwg);
    let sum = workgroup_sum_f32(lid, grid_terms_f32(group * WG + lid, nwg.x * nwg.y * WG));
    if lid == 0u && group < arrayLength(&partials_f32) { partials_f32[group] = sum; }
}
