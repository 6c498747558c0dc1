// Box blur of a WIDTH × HEIGHT f32 image (row by row in a storage buffer): each output pixel is the mean
// of the (2R + 1)² pixels around it, edges clamped. Invocation (x, y) of the 2-D grid makes pixel (x, y);
// the image is not a multiple of any workgroup edge. Both kernels add the window in the same order (row by
// row, left to right), so they give the same bits.
//   box_direct_f32   reads its whole window from memory: (2R + 1)² loads per pixel, neighbours re-reading
//                    the same pixels through the caches.
//   box_tiled_f32    the workgroup first loads its tile plus a halo of R pixels on every side into
//                    workgroup memory, each pixel once, then every invocation reads its window from there.

override WG_X: u32 = 16;
override WG_Y: u32 = 16;
override WIDTH: u32;
override HEIGHT: u32;
override R: u32 = 1;
// 1 / (2R + 1)²: set by the host, whose reference rounds it the same way (a user's kernel takes the default).
override INV_COUNT: f32 = 1.0 / f32((2u * R + 1u) * (2u * R + 1u));
// The tiled kernel's tile: (WG_X + 2R) × (WG_Y + 2R) pixels.
override TILE_LEN: u32 = 324;

@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read_write> dst: array<f32>;

var<workgroup> tile: array<f32, TILE_LEN>;

fn pixel(x: i32, y: i32) -> f32 {
    let cx = u32(clamp(x, 0, i32(WIDTH) - 1));
    let cy = u32(clamp(y, 0, i32(HEIGHT) - 1));
    return src[cy * WIDTH + cx];
}

@compute @workgroup_size(WG_X, WG_Y)
fn box_direct_f32(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= WIDTH || id.y >= HEIGHT { return; }
    // The window's top-left pixel; the loops have the same bounds as the tiled kernel's.
    let x0 = i32(id.x) - i32(R);
    let y0 = i32(id.y) - i32(R);
    var sum = 0.0;
    for (var dy = 0u; dy <= 2u * R; dy++) {
        for (var dx = 0u; dx <= 2u * R; dx++) {
            sum += pixel(x0 + i32(dx), y0 + i32(dy));
        }
    }
    dst[id.y * WIDTH + id.x] = sum * INV_COUNT;
}

@compute @workgroup_size(WG_X, WG_Y)
fn box_tiled_f32(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
                 @builtin(local_invocation_index) index: u32) {
    let tile_width = WG_X + 2u * R;
    let tile_height = WG_Y + 2u * R;
    // The tile's top-left pixel, R up and left of the workgroup's first.
    let x0 = i32(wid.x * WG_X) - i32(R);
    let y0 = i32(wid.y * WG_Y) - i32(R);
    for (var e = index; e < tile_width * tile_height; e += WG_X * WG_Y) {
        tile[e] = pixel(x0 + i32(e % tile_width), y0 + i32(e / tile_width));
    }
    workgroupBarrier();
    let x = wid.x * WG_X + lid.x;
    let y = wid.y * WG_Y + lid.y;
    if x >= WIDTH || y >= HEIGHT { return; }
    var sum = 0.0;
    for (var dy = 0u; dy <= 2u * R; dy++) {
        for (var dx = 0u; dx <= 2u * R; dx++) {
            sum += tile[(lid.y + dy) * tile_width + lid.x + dx];
        }
    }
    dst[y * WIDTH + x] = sum * INV_COUNT;
}
