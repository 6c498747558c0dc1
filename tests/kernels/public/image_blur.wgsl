/* wgsweep
{
  "name": "image_blur",
  "buffers": [],
  "uniforms": [
    { "binding": 1, "fields": { "filterDim": "filter", "blockDim": "128 - filter" } },
    { "group": 1, "binding": 3, "fields": { "value": 0 } }
  ],
  "textures": [
    { "group": 1, "binding": 1, "name": "inputTex", "format": "rgba8unorm", "width": "w", "height": "h", "fill": "random" },
    { "group": 1, "binding": 2, "name": "outputTex", "format": "rgba8unorm", "width": "w", "height": "h", "output": true }
  ],
  "samplers": [{ "binding": 0, "filter": "linear" }],
  "sizes": [
    { "w": 2048, "h": 2048, "filter": 3 },
    { "w": 2048, "h": 2048, "filter": 15 },
    { "w": 2048, "h": 2048, "filter": 33 }
  ],
  "workgroup_size": [32],
  "grid": ["ceil_div(w, 128 - filter)", "ceil_div(h, 4)"],
  "bytes": "8 * w * h",
  "validation": { "reference": "blur_each_texel", "grid": ["ceil_div(w, 8)", "ceil_div(h, 8)"], "tolerance": 0.004 }
}
*/
// One pass of the WebGPU samples' Image Blur: a box filter along rows, each workgroup loading a 128 × 4 tile
// through a linear sampler into workgroup memory and averaging `filterDim` neighbours from there; its
// parameters in two uniforms, its textures in bind group 1, as the sample binds them. The sample runs this
// pass (`flip` 0) and the same on the transposed image (`flip` 1) in turn; this is the first. `filter` is
// the sample's "filterSize" (odd, 1 to 33), `blockDim` 128 − filter and the grid as the sample sets them.
// Its workgroup is a literal 32: one shape.
// `filterDim` is `filter` here, where the sample sets it to filterSize + 1: with an even filterDim the last
// texel a block writes averages one texel past its tile (tile[r][128]), and the next block writes that
// texel too, right; which write lands last is up to the GPU. On an H100 (natively and in Chromium) some
// thousands of texels came out wrong that way; lavapipe runs the blocks in order and hides it. An odd
// filterDim, a window centred on its texel, stays in the tile (docs/results/public-kernels-h100.md).
//
// Origin: the WebGPU Samples (https://github.com/webgpu/webgpu-samples), sample/imageBlur/blur.wgsl at commit
// 27925c84407854b8c1933ee449b3e4171ea2277d, unchanged between the two marker lines below
// (tests/public_kernels.rs holds it to the original's SHA-256).
// Licence: BSD 3-Clause, Copyright 2019 WebGPU Samples Contributors:
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
struct Params {
  filterDim : i32,
  blockDim : u32,
}

@group(0) @binding(0) var samp : sampler;
@group(0) @binding(1) var<uniform> params : Params;
@group(1) @binding(1) var inputTex : texture_2d<f32>;
@group(1) @binding(2) var outputTex : texture_storage_2d<rgba8unorm, write>;

struct Flip {
  value : u32,
}
@group(1) @binding(3) var<uniform> flip : Flip;

// This shader blurs the input texture in one direction, depending on whether
// |flip.value| is 0 or 1.
// It does so by running (128 / 4) threads per workgroup to load 128
// texels into 4 rows of shared memory. Each thread loads a
// 4 x 4 block of texels to take advantage of the texture sampling
// hardware.
// Then, each thread computes the blur result by averaging the adjacent texel values
// in shared memory.
// Because we're operating on a subset of the texture, we cannot compute all of the
// results since not all of the neighbors are available in shared memory.
// Specifically, with 128 x 128 tiles, we can only compute and write out
// square blocks of size 128 - (filterSize - 1). We compute the number of blocks
// needed in Javascript and dispatch that amount.

var<workgroup> tile : array<array<vec3f, 128>, 4>;

@compute @workgroup_size(32, 1, 1)
fn main(
  @builtin(workgroup_id) WorkGroupID : vec3u,
  @builtin(local_invocation_id) LocalInvocationID : vec3u
) {
  let filterOffset = (params.filterDim - 1) / 2;
  let dims = vec2i(textureDimensions(inputTex, 0));
  let baseIndex = vec2i(WorkGroupID.xy * vec2(params.blockDim, 4) +
                            LocalInvocationID.xy * vec2(4, 1))
                  - vec2(filterOffset, 0);

  for (var r = 0; r < 4; r++) {
    for (var c = 0; c < 4; c++) {
      var loadIndex = baseIndex + vec2(c, r);
      if (flip.value != 0u) {
        loadIndex = loadIndex.yx;
      }

      tile[r][4 * LocalInvocationID.x + u32(c)] = textureSampleLevel(
        inputTex,
        samp,
        (vec2f(loadIndex) + vec2f(0.5, 0.5)) / vec2f(dims),
        0.0
      ).rgb;
    }
  }

  workgroupBarrier();

  for (var r = 0; r < 4; r++) {
    for (var c = 0; c < 4; c++) {
      var writeIndex = baseIndex + vec2(c, r);
      if (flip.value != 0) {
        writeIndex = writeIndex.yx;
      }

      let center = i32(4 * LocalInvocationID.x) + c;
      if (center >= filterOffset &&
          center < 128 - filterOffset &&
          all(writeIndex < dims)) {
        var acc = vec3(0.0, 0.0, 0.0);
        for (var f = 0; f < params.filterDim; f++) {
          var i = center + f - filterOffset;
          acc = acc + (1.0 / f32(params.filterDim)) * tile[r][i];
        }
        textureStore(outputTex, writeIndex, vec4(acc, 1.0));
      }
    }
  }
}
// ---- the original ends ----

// The reference, wgsweep's and not the original's: each texel's blur along its row on its own, sampling the
// filter's texels as the original does (at their centres, clamped at the edges) and adding them in its order.
@compute @workgroup_size(8, 8)
fn blur_each_texel(@builtin(global_invocation_id) id : vec3u) {
  let dims = vec2i(textureDimensions(inputTex, 0));
  let texel = vec2i(id.xy);
  if (any(texel >= dims)) {
    return;
  }
  let filterOffset = (params.filterDim - 1) / 2;
  var acc = vec3(0.0, 0.0, 0.0);
  for (var f = 0; f < params.filterDim; f++) {
    let at = texel + vec2(f - filterOffset, 0);
    let sampled = textureSampleLevel(inputTex, samp, (vec2f(at) + vec2f(0.5, 0.5)) / vec2f(dims), 0.0);
    acc = acc + (1.0 / f32(params.filterDim)) * sampled.rgb;
  }
  textureStore(outputTex, texel, vec4(acc, 1.0));
}
