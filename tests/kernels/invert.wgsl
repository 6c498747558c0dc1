/* wgsweep
{
  "name": "invert",
  "buffers": [],
  "textures": [
    { "binding": 0, "name": "src", "format": "rgba8unorm", "width": "w", "height": "h" },
    { "binding": 2, "name": "dst", "format": "rgba8unorm", "width": "w", "height": "h", "output": true }
  ],
  "samplers": [{ "binding": 1, "filter": "linear" }],
  "sizes": [{ "w": 100, "h": 60 }],
  "tunables": { "WG_X": [4, 16], "WG_Y": [2, 8] },
  "grid": ["ceil_div(w, WG_X)", "ceil_div(h, WG_Y)"],
  "bytes": "8 * w * h",
  "validation": { "reference": "reference", "tolerance": 0.004 }
}
*/
// An image inverted through a sampler, texel by texel: sampled at texels' centres, a linear filter gives each
// texel's own value. 100 texels across make rows of 400 bytes, which a copy pads to 512. (tests/textures.rs)
override WG_X: u32 = 8;
override WG_Y: u32 = 8;

@group(0) @binding(0) var src: texture_2d<f32>;
@group(0) @binding(1) var samp: sampler;
@group(0) @binding(2) var dst: texture_storage_2d<rgba8unorm, write>;

@compute @workgroup_size(WG_X, WG_Y)
fn main(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(dst);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let colour = textureSampleLevel(src, samp, (vec2f(id.xy) + 0.5) / vec2f(size), 0.0);
    textureStore(dst, id.xy, vec4f(1.0 - colour.rgb, colour.a));
}

@compute @workgroup_size(8, 8)
fn reference(@builtin(global_invocation_id) id: vec3u) {
    let size = textureDimensions(dst);
    if id.x >= size.x || id.y >= size.y {
        return;
    }
    let colour = textureLoad(src, id.xy, 0);
    textureStore(dst, id.xy, vec4f(1.0 - colour.rgb, colour.a));
}
